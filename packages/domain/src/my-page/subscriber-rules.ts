import { addCalendarDays } from '../billing/schedule.ts'
import { formatDateJa, toZonedDate } from '../format/dates.ts'

/**
 * マイページ (issue 26): what a subscriber may change on their own contract, decided here once
 * for the app proxy page, its JSON API and the customer account page. The merchant switches each
 * change on or off (設定 › マイページ) and sets a change lock: no change in the N days before
 * the next billing (the order is being prepared), the one rule Japanese subscription shops all
 * write on their pages as 「次回お届けの◯日前まで」.
 */

export const SUBSCRIBER_ACTIONS = [
  'skip',
  'pause',
  'resume',
  'date',
  'quantity',
  'swap',
  'address',
  'slot',
  'cardMail',
  'cancel',
] as const
export type SubscriberAction = (typeof SUBSCRIBER_ACTIONS)[number]

/** The subscriber's verb of each action, for 「…できません」 messages and the merchant's switches. */
export const SUBSCRIBER_ACTION_LABELS: Record<SubscriberAction, string> = {
  skip: '次回のお届けのスキップ',
  pause: 'お休み（一時停止）',
  resume: '再開',
  date: '次回のご注文日の変更',
  quantity: '数量の変更',
  swap: '商品の変更',
  address: 'お届け先の変更',
  slot: '配送時間帯の変更',
  cardMail: 'カード情報の更新メール',
  cancel: '解約',
}

export type MyPageSettings = {
  /** Each change the subscriber may make; off: the page does not offer it and the API refuses it. */
  actions: Record<SubscriberAction, boolean>
  /** No change in the last `lockDays` days before the next billing (0: until the day before). */
  lockDays: number
}

export const MAX_LOCK_DAYS = 30
export const MAX_PAUSE_CYCLES = 3

export const DEFAULT_MY_PAGE_SETTINGS: MyPageSettings = {
  actions: Object.fromEntries(SUBSCRIBER_ACTIONS.map((a) => [a, true])) as Record<SubscriberAction, boolean>,
  lockDays: 3,
}

/** What is wrong with settings a merchant sent, in Japanese; null when they can be saved. */
export function myPageSettingsProblem(s: MyPageSettings): string | null {
  if (!Number.isInteger(s.lockDays) || s.lockDays < 0 || s.lockDays > MAX_LOCK_DAYS)
    return `変更受付の締切は0〜${MAX_LOCK_DAYS}日前で指定してください`
  return null
}

/** What the rules read of a contract. */
export type SubscriberContractState = {
  status: string
  /** The next billing instant; null when none is scheduled. */
  nextBillingAt: Date | null
  /** Orders made so far (定期回数 of the last order). */
  ordersSoFar: number
  /** The plan's minimum number of orders before a cancellation (billingPolicy.minCycles). */
  minCycles: number | null
}

export type RuleContext = {
  settings: MyPageSettings
  now: Date
  timeZone: string
}

const ENDED = new Set(['CANCELLED', 'EXPIRED'])

/** The last day a change is accepted for the next order: the billing day minus `lockDays` + 1. */
export function changeDeadline(nextBillingAt: Date, lockDays: number, timeZone: string): string {
  return addCalendarDays(toZonedDate(nextBillingAt, timeZone), -Math.max(1, lockDays))
}

/**
 * Why this subscriber may not make this change now, in Japanese; null when they may. The order:
 * the merchant's switch, the contract's state, the change lock, then the plan's minimum cycles
 * (cancellation only). Viewing is never refused; the card mail is not locked (it changes no order).
 */
export function subscriberRefusal(
  action: SubscriberAction,
  contract: SubscriberContractState,
  ctx: RuleContext,
): string | null {
  return refusalOf(action, contract, ctx, lockOf(contract, ctx))
}

/** Every change's refusal at once (the page shows them all): the zoned dates computed once. */
export function subscriberRefusals(
  contract: SubscriberContractState,
  ctx: RuleContext,
): Record<SubscriberAction, string | null> {
  const lock = lockOf(contract, ctx)
  const out = {} as Record<SubscriberAction, string | null>
  for (const action of SUBSCRIBER_ACTIONS) out[action] = refusalOf(action, contract, ctx, lock)
  return out
}

/** The change lock's deadline when it has passed (a change is refused), else null. */
function lockOf(contract: SubscriberContractState, ctx: RuleContext): string | null {
  if (!contract.nextBillingAt) return null
  const deadline = changeDeadline(contract.nextBillingAt, ctx.settings.lockDays, ctx.timeZone)
  return toZonedDate(ctx.now, ctx.timeZone) > deadline ? deadline : null
}

function refusalOf(
  action: SubscriberAction,
  contract: SubscriberContractState,
  ctx: RuleContext,
  passedDeadline: string | null,
): string | null {
  const label = SUBSCRIBER_ACTION_LABELS[action]
  if (!ctx.settings.actions[action])
    return `このストアではマイページから「${label}」はできません。ストアにお問い合わせください。`
  if (ENDED.has(contract.status)) return `解約済みの定期便では「${label}」はできません。`
  if (action === 'resume' && contract.status !== 'PAUSED') return 'この定期便はお休み中ではありません。'
  if ((action === 'skip' || action === 'pause' || action === 'date') && contract.status !== 'ACTIVE')
    return `お休み中の定期便では「${label}」はできません。先に再開してください。`
  if (action !== 'cardMail' && action !== 'resume' && passedDeadline !== null) {
    return `次回のご注文の準備中のため、「${label}」はできません（変更の受付は${formatDateJa(passedDeadline, ctx.timeZone)}まででした）。次回のご注文のあとに変更できます。`
  }
  if (action === 'cancel' && contract.minCycles !== null && contract.ordersSoFar < contract.minCycles) {
    const left = contract.minCycles - contract.ordersSoFar
    return `この定期便は最低${contract.minCycles}回のご購入が条件のため、あと${left}回のお届けまで解約できません。ご事情がある場合はストアにお問い合わせください。`
  }
  return null
}

/** The days a subscriber may move the next billing to: after the change lock, up to one more cycle. */
export type DateWindow = { from: string; to: string }

/**
 * The window for moving the next order: from the first day the lock allows (today + lockDays)
 * to the day before the order after it would be billed (`followingAt`, the cycle after the
 * current next billing): moving further is a skip. Null when the lock already closed the window.
 */
export function dateMoveWindow(
  nextBillingAt: Date,
  followingAt: Date,
  ctx: Pick<RuleContext, 'now' | 'timeZone'> & { lockDays: number },
): DateWindow | null {
  const today = toZonedDate(ctx.now, ctx.timeZone)
  // A day whose own deadline (its day minus the lock) has not passed.
  const from = addCalendarDays(today, Math.max(1, ctx.lockDays))
  const to = addCalendarDays(toZonedDate(followingAt, ctx.timeZone), -1)
  const current = toZonedDate(nextBillingAt, ctx.timeZone)
  if (from > to || changeDeadline(nextBillingAt, ctx.lockDays, ctx.timeZone) < today) return null
  return { from, to: to < current ? current : to }
}

/** Why `date` is not a day the subscriber may move to, in Japanese; null when it is. */
export function dateMoveProblem(date: string, window: DateWindow | null, timeZone: string): string | null {
  if (!window) return '次回のご注文の準備中のため、ご注文日は変更できません。'
  if (date < window.from || date > window.to)
    return `次回のご注文日は${formatDateJa(window.from, timeZone)}から${formatDateJa(window.to, timeZone)}までの間で選んでください。`
  return null
}
