import type { BillingSettings } from '@teiki/contract'
import type { MailValues } from '@teiki/domain'
import type { DbClient } from '../db/pool.ts'
import { composeMail } from '../features/mail-templates/service.ts'
import type { ShopRow } from '../platform/shops-repo.ts'
import type { CycleRow } from './cycles-repo.ts'
import type { EngineContext } from './engine-context.ts'
import { customerOf, type MailRecipient, takeOrderMail } from './repo.ts'

// The customer's mail after an outcome, written with the shop's templates (メールテンプレート:
// features/mail-templates; these subjects are the defaults' titles). Each is decided in the transaction of the path that
// settled the cycle (the row's conditional update), so once, and sent after its commit through
// the mail outbox; a mail that cannot be sent yet is logged and left to the outbox's drain.

export const ORDER_MAIL_SUBJECT = 'ご注文ありがとうございます（定期便）'
/** The customer's mail when a charge fails, and when dunning ends the cycle. */
export const FAILURE_MAIL_SUBJECT = '定期便のご注文を承れませんでした'
/** The customer's mail when the card's issuer challenges a charge (3-D Secure): the link and the deadline. */
export const CHALLENGE_MAIL_SUBJECT = 'カード会社による本人認証（3Dセキュア）をお願いします'

const nameOf = (to: MailRecipient) => ({
  firstName: to.first_name,
  lastName: to.last_name,
  displayName: to.display_name || 'お客様',
})

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

/** The order mail's values (template `order_confirmation`). */
function orderMailValues(row: CycleRow, to: MailRecipient, info: OrderMail): MailValues {
  return {
    customerName: nameOf(to),
    contractId: row.contract_id,
    orderName: info.orderName,
    amount: info.amount,
    isFinalDelivery: info.expired,
    nextBillingDate: info.expired ? null : info.nextAt,
    deliveryDate: info.delivery,
  }
}

/**
 * The failure mail's template and values: why (payment, stock, 3-D Secure not completed), then
 * what happens next (the retry's date with what to check: `payment_failure`) or what the shop's
 * final action did (`final_action`).
 */
function failureMailInput(row: CycleRow, to: MailRecipient, info: FailureMail) {
  const failureReason = info.challengeExpired
    ? '期限までにカード会社による本人認証（3Dセキュア）が完了しなかったため'
    : info.kind === 'inventory'
      ? '商品の在庫が不足しているため'
      : 'ご登録のお支払い方法で決済を完了できなかったため'
  const base = {
    customerName: nameOf(to),
    contractId: row.contract_id,
    billingDate: row.due_at,
    failureReason,
  }
  if (info.retryAt) {
    const advice = info.challengeExpired
      ? ['その際にも本人認証をお願いすることがあります。メールでご案内するリンクからお手続きください。']
      : info.kind === 'payment'
        ? [
            'それまでに、カードの有効期限やご利用限度額など、お支払い方法をご確認ください。',
            ...(info.updateLinkSent
              ? ['お支払い方法を変更するためのご案内を、別のメールでお送りしました。']
              : []),
          ]
        : []
    return {
      type: 'payment_failure' as const,
      values: { ...base, retryDate: info.retryAt, paymentAdvice: advice.join('\n') },
    }
  }
  let finalAction = ''
  if (info.action === 'CANCEL' || info.action === 'PAUSE') {
    // "Even on retrying" only when there were retries (a shop may configure none).
    const because = row.attempt_no > 0 ? '再度のお手続きでもご注文を承れなかったため' : 'このため'
    finalAction = `${because}、定期便を${info.action === 'CANCEL' ? '解約いたしました' : '一時停止いたしました'}。`
  } else if (info.action === 'SKIP') finalAction = '今回のお届けはお休みとなります。'
  return {
    type: 'final_action' as const,
    values: { ...base, finalAction, nextBillingDate: info.action === 'SKIP' ? info.nextAt : null },
  }
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
      const mail = await composeMail(tx, shop, {
        type: 'order_confirmation',
        to: to.email,
        values: orderMailValues(row, to, info),
        dedupeKey: `order:${row.id}`,
      })
      id = await ctx.mailer.enqueue(tx, mail)
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
  let recipient: MailRecipient | null = null
  return {
    async decide(tx) {
      const to = await customerOf(tx, shop.id, row.contract_id)
      if (!to?.email) return
      recipient = to
      const mail = await composeMail(tx, shop, {
        ...failureMailInput(row, to, info),
        to: to.email,
        dedupeKey: `failure:${row.id}:${row.attempt_no}`,
        ...(opts.held ? { holdSeconds: FAILURE_MAIL_HOLD_SECONDS } : {}),
      })
      id = await ctx.mailer.enqueue(tx, mail)
    },
    deliver: (final) =>
      deliverOne(
        ctx,
        row,
        id,
        opts.held && id
          ? async () => {
              if (!final || !recipient?.email) return ctx.mailer.release(id!)
              const mail = await composeMail(ctx.db, shop, {
                ...failureMailInput(row, recipient, final),
                to: recipient.email,
              })
              return ctx.mailer.release(id!, mail.text, mail.html)
            }
          : undefined,
      ),
  }
}

export type ChallengeMail = { url: string; expiresAt: Date }

/** The 3-D Secure mail's values (template `payment_challenge`): the link and until when. */
export function challengeMailValues(row: CycleRow, to: MailRecipient, info: ChallengeMail): MailValues {
  return {
    customerName: nameOf(to),
    contractId: row.contract_id,
    billingDate: row.due_at,
    challengeUrl: info.url,
    challengeDeadline: info.expiresAt,
  }
}
