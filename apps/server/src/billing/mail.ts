import type { BillingSettings } from '@teiki/contract'
import { formatDateJa, formatDateTimeJa, formatMoney } from '@teiki/domain'
import type { DbClient } from '../db/pool.ts'
import type { ShopRow } from '../features/shops/repo.ts'
import type { CycleRow } from './cycles-repo.ts'
import type { EngineContext } from './engine-context.ts'
import { customerOf, takeOrderMail } from './repo.ts'

// The customer's mail after an outcome. Each is decided in the transaction of the path that
// settled the cycle (the row's conditional update), so once, and sent after its commit through
// the mail outbox; a mail that cannot be sent yet is logged and left to the outbox's drain.

export const ORDER_MAIL_SUBJECT = 'ご注文ありがとうございます（定期便）'
/** The customer's mail when a charge fails, and when dunning ends the cycle. */
export const FAILURE_MAIL_SUBJECT = '定期便のご注文を承れませんでした'
/** The customer's mail when the card's issuer challenges a charge (3-D Secure): the link and the deadline. */
export const CHALLENGE_MAIL_SUBJECT = 'カード会社による本人認証（3Dセキュア）をお願いします'

/** The opening lines of every mail to a customer. */
const greeting = (shop: ShopRow, displayName: string): string[] => [
  `${displayName || 'お客様'} 様`,
  '',
  `${shop.name || 'ストア'}をご利用いただきありがとうございます。`,
]

export type OrderMail = {
  orderName: string
  amount: { amount: string; currencyCode: string }
  nextAt: Date | null
  delivery: string | null
  expired: boolean
}

export type FailureMail = {
  kind: 'payment' | 'inventory'
  retryAt: Date | null
  action: BillingSettings['finalAction'] | null
  nextAt: Date | null
  /** The platform's update link went out just before (its own mail). */
  updateLinkSent: boolean
  /** The customer did not complete 3-D Secure by the deadline (the card itself may be fine). */
  challengeExpired?: boolean
}

function orderMailText(shop: ShopRow, displayName: string, info: OrderMail): string {
  const tz = shop.iana_timezone
  const lines = [
    ...greeting(shop, displayName),
    '定期便のご注文を承りました。',
    '',
    `ご注文番号: ${info.orderName}`,
    `ご請求金額: ${formatMoney(info.amount.amount, info.amount.currencyCode)}`,
  ]
  if (info.expired) lines.push('', '今回のお届けで定期便は最終回となります。')
  else if (info.nextAt) lines.push(`次回ご請求日: ${formatDateJa(info.nextAt, tz)}`)
  if (info.delivery) lines.push(`次回お届け予定日: ${formatDateJa(info.delivery, tz)}`)
  lines.push('', '今後ともよろしくお願いいたします。')
  return lines.join('\n')
}

/**
 * What happens next (the retry's date, or the shop's final action) and what to do (check the
 * payment method; nothing for stock).
 */
function failureMailText(shop: ShopRow, row: CycleRow, displayName: string, info: FailureMail): string {
  const tz = shop.iana_timezone
  const due = formatDateJa(row.due_at, tz)
  const lines = [
    ...greeting(shop, displayName),
    info.challengeExpired
      ? `${due}の定期便は、期限までにカード会社による本人認証（3Dセキュア）が完了しなかったため、ご注文を承れませんでした。`
      : info.kind === 'inventory'
        ? `${due}の定期便は、商品の在庫が不足しているためご注文を承れませんでした。`
        : `${due}の定期便は、ご登録のお支払い方法で決済を完了できなかったため、ご注文を承れませんでした。`,
    '',
  ]
  if (info.retryAt) {
    lines.push(`${formatDateJa(info.retryAt, tz)}にあらためてご注文をお受けします。`)
    if (info.challengeExpired) {
      lines.push(
        'その際にも本人認証をお願いすることがあります。メールでご案内するリンクからお手続きください。',
      )
    } else if (info.kind === 'payment') {
      lines.push('それまでに、カードの有効期限やご利用限度額など、お支払い方法をご確認ください。')
      if (info.updateLinkSent) {
        lines.push('お支払い方法を変更するためのご案内を、別のメールでお送りしました。')
      }
    }
  } else if (info.action === 'CANCEL' || info.action === 'PAUSE') {
    // "Even on retrying" only when there were retries (a shop may configure none).
    const because = row.attempt_no > 0 ? '再度のお手続きでもご注文を承れなかったため' : 'このため'
    const done = info.action === 'CANCEL' ? '解約いたしました' : '一時停止いたしました'
    lines.push(`${because}、定期便を${done}。`)
  } else if (info.action === 'SKIP') {
    lines.push('今回のお届けはお休みとなります。')
    if (info.nextAt) lines.push(`次回ご請求日: ${formatDateJa(info.nextAt, tz)}`)
  }
  lines.push('', 'ご不明な点がございましたら、ストアまでお問い合わせください。')
  return lines.join('\n')
}

/**
 * A customer mail decided with a cycle's outcome: `decide` records it in mail_outbox inside the
 * settlement's transaction (commitSettlement), so it exists exactly when the outcome commits;
 * `deliver` sends it after the commit. A process that dies in between leaves it pending, and
 * the `mail-drain` job of any process sends it (jobs/mail-jobs.ts). Once per cycle and attempt:
 * only the path whose settlement wins decides it, and its dedupe key refuses a second.
 */
export type DecidedMail = {
  decide(tx: DbClient): Promise<void>
  /** Sends what was decided; logged, never thrown (a mail not sent stays pending for the drain). */
  deliver(): Promise<void>
}

/** How long a held failure mail waits for its final text (the card link's outcome) before it goes as decided. */
export const FAILURE_MAIL_HOLD_SECONDS = 60

async function deliverOne(
  ctx: EngineContext,
  row: CycleRow,
  id: string | null,
  release?: () => Promise<unknown>,
) {
  if (id === null) return
  try {
    await release?.()
    await ctx.mailer.deliver([id])
  } catch (error) {
    ctx.log.warn({ err: error, cycle: row.id }, 'billing mail left to the outbox drain')
  }
}

/** 「ご注文ありがとうございます（定期便）」 of a paid cycle (takeOrderMail's mark, dedupe key `order:<cycle>`). */
export function orderMail(ctx: EngineContext, shop: ShopRow, row: CycleRow, info: OrderMail): DecidedMail {
  let id: string | null = null
  return {
    async decide(tx) {
      const to = await takeOrderMail(tx, shop.id, row.id)
      if (!to?.email) return
      id = await ctx.mailer.enqueue(tx, {
        shopId: shop.id,
        to: to.email,
        subject: ORDER_MAIL_SUBJECT,
        text: orderMailText(shop, to.display_name, info),
        dedupeKey: `order:${row.id}`,
      })
    },
    deliver: () => deliverOne(ctx, row, id),
  }
}

/**
 * 「定期便のご注文を承れませんでした」 for a failed attempt (dedupe key `failure:<cycle>:<attempt>`).
 * `held`: a follow-up after the commit may change the text (the card update link, which only
 * the path that settled sends): the mail waits up to FAILURE_MAIL_HOLD_SECONDS for
 * `deliver(final)`, and goes as decided if the process dies first.
 */
export function failureMail(
  ctx: EngineContext,
  shop: ShopRow,
  row: CycleRow,
  info: FailureMail,
  opts: { held?: boolean } = {},
): { decide: DecidedMail['decide']; deliver(final?: FailureMail): Promise<void> } {
  let id: string | null = null
  let displayName = ''
  return {
    async decide(tx) {
      const to = await customerOf(tx, shop.id, row.contract_id)
      if (!to?.email) return
      displayName = to.display_name
      id = await ctx.mailer.enqueue(tx, {
        shopId: shop.id,
        to: to.email,
        subject: FAILURE_MAIL_SUBJECT,
        text: failureMailText(shop, row, displayName, info),
        dedupeKey: `failure:${row.id}:${row.attempt_no}`,
        ...(opts.held ? { holdSeconds: FAILURE_MAIL_HOLD_SECONDS } : {}),
      })
    },
    deliver: (final) =>
      deliverOne(
        ctx,
        row,
        id,
        opts.held && id
          ? () => ctx.mailer.release(id!, final ? failureMailText(shop, row, displayName, final) : undefined)
          : undefined,
      ),
  }
}

export type ChallengeMail = { url: string; expiresAt: Date }

/** The link to authenticate and until when; what happens after is the dunning mail's to say. */
export function challengeMailText(
  shop: ShopRow,
  row: CycleRow,
  displayName: string,
  info: ChallengeMail,
): string {
  const tz = shop.iana_timezone
  return [
    ...greeting(shop, displayName),
    `${formatDateJa(row.due_at, tz)}の定期便のお支払いで、カード会社による本人認証（3Dセキュア）が必要になりました。`,
    `お手数ですが、${formatDateTimeJa(info.expiresAt, tz)}までに下記のリンクを開き、本人認証を完了してください。`,
    '',
    info.url,
    '',
    '本人認証が完了すると、ご注文を承ります。',
    '期限までに完了しなかった場合、今回のご注文は承れないことがあります。',
    '',
    'ご不明な点がございましたら、ストアまでお問い合わせください。',
  ].join('\n')
}
