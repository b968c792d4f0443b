import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  addCalendarDays,
  changeDeadline,
  DEFAULT_MY_PAGE_SETTINGS,
  dateMoveProblem,
  dateMoveWindow,
  type MyPageSettings,
  myPageSettingsProblem,
  SUBSCRIBER_ACTIONS,
  type SubscriberContractState,
  subscriberRefusal,
  toZonedDate,
} from '../src/index.ts'

// マイページ's rules (issue 26): the merchant's switches, the change lock before the next
// billing, the plan's minimum cycles, and the window a subscriber may move the next order in.

const ZONE = 'Asia/Tokyo'
// 2026-11-27 12:00 JST.
const NOW = new Date('2026-11-27T03:00:00Z')
const at = (date: string) => new Date(`${date}T01:00:00Z`) // 10:00 JST that day
const settings = (over: Partial<MyPageSettings> = {}): MyPageSettings => ({
  ...DEFAULT_MY_PAGE_SETTINGS,
  ...over,
})
const contract = (over: Partial<SubscriberContractState> = {}): SubscriberContractState => ({
  status: 'ACTIVE',
  nextBillingAt: at('2026-12-10'),
  ordersSoFar: 3,
  minCycles: null,
  ...over,
})
const refusal = (
  action: Parameters<typeof subscriberRefusal>[0],
  c: Partial<SubscriberContractState> = {},
  s: Partial<MyPageSettings> = {},
) => subscriberRefusal(action, contract(c), { settings: settings(s), now: NOW, timeZone: ZONE })

describe('subscriberRefusal', () => {
  it('allows every change on an active contract well before its next billing', () => {
    for (const action of SUBSCRIBER_ACTIONS) {
      if (action === 'resume') continue
      expect(refusal(action), action).toBeNull()
    }
    expect(refusal('resume', { status: 'PAUSED' })).toBeNull()
  })

  it('refuses what the merchant switched off, naming the change', () => {
    const off = { actions: { ...DEFAULT_MY_PAGE_SETTINGS.actions, swap: false } }
    expect(refusal('swap', {}, off)).toBe(
      'このストアではマイページから「商品の変更」はできません。ストアにお問い合わせください。',
    )
    expect(refusal('quantity', {}, off)).toBeNull()
  })

  it('locks changes in the last N days before the next billing, and says until when they were accepted', () => {
    // Billing 2026-11-30, lock 3 days: the deadline was 11-27 (today): still allowed.
    expect(refusal('skip', { nextBillingAt: at('2026-11-30') })).toBeNull()
    // Billing 11-29: the deadline was 11-26.
    expect(refusal('skip', { nextBillingAt: at('2026-11-29') })).toBe(
      '次回のご注文の準備中のため、「次回のお届けのスキップ」はできません（変更の受付は2026年11月26日まででした）。次回のご注文のあとに変更できます。',
    )
    // The card mail changes no order: never locked.
    expect(refusal('cardMail', { nextBillingAt: at('2026-11-28') })).toBeNull()
    // Lock 0 still closes the day before billing.
    expect(refusal('quantity', { nextBillingAt: at('2026-11-28') }, { lockDays: 0 })).toBeNull()
    expect(refusal('quantity', { nextBillingAt: at('2026-11-27') }, { lockDays: 0 })).not.toBeNull()
  })

  it('keeps the plan’s minimum cycles for a cancellation and says how many orders remain', () => {
    expect(refusal('cancel', { ordersSoFar: 1, minCycles: 3 })).toBe(
      'この定期便は最低3回のご購入が条件のため、あと2回のお届けまで解約できません。ご事情がある場合はストアにお問い合わせください。',
    )
    expect(refusal('cancel', { ordersSoFar: 3, minCycles: 3 })).toBeNull()
    // Minimum cycles do not stop a skip or a pause.
    expect(refusal('skip', { ordersSoFar: 1, minCycles: 3 })).toBeNull()
  })

  it('refuses changes of an ended contract and date moves of a paused one', () => {
    expect(refusal('quantity', { status: 'CANCELLED' })).toBe(
      '解約済みの定期便では「数量の変更」はできません。',
    )
    expect(refusal('skip', { status: 'PAUSED' })).toBe(
      'お休み中の定期便では「次回のお届けのスキップ」はできません。先に再開してください。',
    )
    expect(refusal('resume', { status: 'ACTIVE' })).toBe('この定期便はお休み中ではありません。')
  })

  it('a refusal is never null when the switch is off, whatever the contract (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SUBSCRIBER_ACTIONS),
        fc.constantFrom('ACTIVE', 'PAUSED', 'CANCELLED', 'FAILED'),
        fc.integer({ min: -40, max: 60 }),
        fc.integer({ min: 0, max: 30 }),
        (action, status, inDays, lockDays) => {
          const s = settings({ lockDays, actions: { ...DEFAULT_MY_PAGE_SETTINGS.actions, [action]: false } })
          const next = at(addCalendarDays('2026-11-27', inDays))
          const c = contract({ status, nextBillingAt: next })
          expect(subscriberRefusal(action, c, { settings: s, now: NOW, timeZone: ZONE })).not.toBeNull()
        },
      ),
    )
  })
})

describe('settings', () => {
  it('accepts a lock of 0 to 30 days', () => {
    expect(myPageSettingsProblem(settings({ lockDays: 0 }))).toBeNull()
    expect(myPageSettingsProblem(settings({ lockDays: 30 }))).toBeNull()
    expect(myPageSettingsProblem(settings({ lockDays: 31 }))).toBe(
      '変更受付の締切は0〜30日前で指定してください',
    )
    expect(myPageSettingsProblem(settings({ lockDays: 1.5 }))).not.toBeNull()
  })
})

describe('dateMoveWindow', () => {
  const ctx = { now: NOW, timeZone: ZONE, lockDays: 3 }

  it('runs from the first day the lock allows to the day before the following order', () => {
    expect(dateMoveWindow(at('2026-12-10'), at('2027-01-10'), ctx)).toEqual({
      from: '2026-11-30',
      to: '2027-01-09',
    })
    expect(dateMoveProblem('2026-11-29', dateMoveWindow(at('2026-12-10'), at('2027-01-10'), ctx), ZONE)).toBe(
      '次回のご注文日は2026年11月30日から2027年1月9日までの間で選んでください。',
    )
    expect(
      dateMoveProblem('2026-12-20', dateMoveWindow(at('2026-12-10'), at('2027-01-10'), ctx), ZONE),
    ).toBeNull()
  })

  it('is closed once the next order is locked', () => {
    expect(dateMoveWindow(at('2026-11-29'), at('2026-12-29'), ctx)).toBeNull()
    expect(dateMoveProblem('2026-12-05', null, ZONE)).toBe(
      '次回のご注文の準備中のため、ご注文日は変更できません。',
    )
  })

  it('every day in the window is a day whose own deadline has not passed, and none after the following order (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 1, max: 90 }),
        fc.integer({ min: 0, max: 30 }),
        (inDays, cycleDays, lockDays) => {
          const next = at(addCalendarDays('2026-11-27', inDays))
          const following = at(addCalendarDays('2026-11-27', inDays + cycleDays))
          const window = dateMoveWindow(next, following, { ...ctx, lockDays })
          if (!window) return
          const today = toZonedDate(NOW, ZONE)
          expect(changeDeadline(at(window.from), lockDays, ZONE) >= today).toBe(true)
          expect(window.from <= window.to).toBe(true)
          expect(window.to < toZonedDate(following, ZONE) || window.to === toZonedDate(next, ZONE)).toBe(true)
        },
      ),
    )
  })
})
