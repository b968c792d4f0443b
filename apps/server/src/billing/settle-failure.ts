import type { BillingSettings } from '@teiki/contract'
import { TERMINAL_STATUSES } from '@teiki/domain'
import type { AdminClient } from '../platform/admin-client.ts'
import { idFromGid, toGid } from '../platform/gid.ts'
import type { PlatformBillingAttempt, PlatformContract } from '../platform/operations/contract-fragments.ts'
import { sendPaymentMethodUpdateEmail } from '../platform/operations/customer-payment-method-send-update-email.ts'
import { fetchSubscriptionContract } from '../platform/operations/subscription-contract.ts'
import { setContractNextBillingDate } from '../platform/operations/subscription-contract-next-billing-date.ts'
import {
  cancelSubscriptionContract,
  pauseSubscriptionContract,
} from '../platform/operations/subscription-contract-status.ts'
import type { ShopRow } from '../platform/shops-repo.ts'
import { appendContractEvent } from '../sync/contracts-repo.ts'
import { CHALLENGE_EXPIRED } from './challenge-rules.ts'
import type { CycleRow, CycleStatus } from './cycles-repo.ts'
import type { EngineContext } from './engine-context.ts'
import { failureMail } from './mail.ts'
import { retryInstant, scheduleAfter } from './schedule.ts'
import { commitSettlement, type SettlementEvent, trackContract, wholeContract } from './settlement.ts'

// Dunning (billing_settings): a failed charge is retried on the shop's schedule, the payment
// schedule or, for stock, the inventory one; after the last retry the shop's final action
// (CANCEL, PAUSE or SKIP) ends the cycle.

/** Failures the inventory schedule handles (SubscriptionBillingAttemptErrorCode). */
export const INVENTORY_ERROR_CODES: ReadonlySet<string> = new Set([
  'INSUFFICIENT_INVENTORY',
  'INVENTORY_ALLOCATIONS_NOT_FOUND',
])

type Failure = {
  attempt: PlatformBillingAttempt
  code: string
  message: string
  kind: 'payment' | 'inventory'
  /** When the outcome is applied (the run's clock). */
  now: Date
}

type Settling = { shop: ShopRow; row: CycleRow; client: AdminClient; settings: BillingSettings }

/**
 * A charge failed (the platform's code, or CHALLENGE_EXPIRED when the customer did not
 * complete 3-D Secure in time: a payment failure): below the retry limit the cycle waits for
 * its retry, after the last retry the shop's final action is applied. Either way the path that
 * settles the cycle writes the history and mails the customer.
 */
export async function settleFailure(
  ctx: EngineContext,
  shop: ShopRow,
  row: CycleRow,
  attempt: PlatformBillingAttempt,
  { code, message }: { code: string; message: string },
  settings: BillingSettings,
  now: Date,
): Promise<CycleStatus> {
  const kind = INVENTORY_ERROR_CODES.has(code) ? 'inventory' : 'payment'
  const failure: Failure = { attempt, code, message, kind, now }
  const limit = kind === 'inventory' ? settings.inventoryRetryAttempts : settings.retryAttempts
  const settling: Settling = { shop, row, client: ctx.clientFor(shop), settings }
  if (row.attempt_no < limit) return scheduleRetry(ctx, settling, failure)
  return applyFinalAction(ctx, settling, failure)
}

const failedEvent = (
  row: CycleRow,
  f: Failure,
  willRetryAt: Date | null,
  extra: Record<string, unknown> = {},
): SettlementEvent => ({
  type: 'billing_failed',
  occurredAt: f.attempt.completedAt ?? f.now,
  payload: {
    code: f.code,
    message: f.message,
    // 1 = the first charge of the cycle, 2 = its first retry, …
    attempt: row.attempt_no + 1,
    willRetryAt: willRetryAt?.toISOString() ?? null,
    attemptId: idFromGid(f.attempt.id),
    kind: f.kind,
    ...extra,
  },
})

async function scheduleRetry(ctx: EngineContext, s: Settling, f: Failure): Promise<CycleStatus> {
  const { shop, row, settings } = s
  const days = f.kind === 'inventory' ? settings.inventoryRetryIntervalDays : settings.retryIntervalDays
  const at = retryInstant(f.now, days, settings.billingHour, shop.iana_timezone)
  // FAILED status and lastPaymentStatus are the platform's: mirror them as it reports them.
  const contract = await fetchSubscriptionContract(s.client, toGid('SubscriptionContract', row.contract_id))
  // A card the customer can fix: on the cycle's first failure, the platform's secure link to
  // update it, sent after the commit by the path that settled (not for an unfinished 3-D
  // Secure: the card was not refused, the customer did not authenticate); the mail, decided in
  // the commit, waits for it to say so (and goes without that line if this process dies first).
  const challengeExpired = f.code === CHALLENGE_EXPIRED
  const linkDue = f.kind === 'payment' && row.attempt_no === 0 && contract !== null && !challengeExpired
  const info = {
    kind: f.kind,
    retryAt: at,
    action: null,
    nextAt: null,
    updateLinkSent: false,
    challengeExpired,
  }
  const mail = failureMail(ctx, shop, row, info, { held: linkDue })
  const won = await commitSettlement(
    ctx,
    shop,
    row,
    wholeContract(contract),
    { status: 'retry_scheduled', nextRetryAt: at, kind: f.kind, code: f.code, message: f.message },
    [failedEvent(row, f, at)],
    {},
    mail,
  )
  if (won) {
    await ctx.scheduler?.retryAt(shop.id, row.id, row.attempt_no, at).catch((error: unknown) => {
      // The daily run picks the retry up from next_retry_at anyway.
      ctx.log.warn({ err: error, cycle: row.id }, 'billing retry job not scheduled')
    })
    const updateLinkSent = linkDue ? await sendUpdateLink(ctx, s, contract) : false
    await mail.deliver({ ...info, updateLinkSent })
  }
  return 'retry_scheduled'
}

/** The last retry failed: the shop's final action (nothing on a contract that ended meanwhile). */
async function applyFinalAction(ctx: EngineContext, s: Settling, f: Failure): Promise<CycleStatus> {
  const { shop, row, client } = s
  const gid = toGid('SubscriptionContract', row.contract_id)
  const action = f.kind === 'inventory' ? s.settings.inventoryFinalAction : s.settings.finalAction
  const before = await fetchSubscriptionContract(client, gid)
  const state = trackContract(before)
  const events: SettlementEvent[] = [failedEvent(row, f, null, { finalAction: action })]
  let skippedTo: Date | null = null
  if (before && !TERMINAL_STATUSES.has(before.status)) {
    if (action === 'CANCEL') {
      state.status(await cancelSubscriptionContract(client, gid))
    } else if (action === 'PAUSE') {
      if (before.status !== 'PAUSED') state.status(await pauseSubscriptionContract(client, gid))
    } else {
      const nextAt = scheduleAfter(before, row.due_at, shop.iana_timezone)
      skippedTo = nextAt
      if (!before.nextBillingDate || new Date(before.nextBillingDate).getTime() !== nextAt.getTime()) {
        state.status(await setContractNextBillingDate(client, gid, nextAt))
      }
      events.push({
        type: 'next_billing_date_changed',
        occurredAt: f.now,
        payload: { from: row.due_at.toISOString(), to: nextAt.toISOString(), source: 'dunning' },
      })
    }
  }
  // A contract that had already ended meanwhile: nothing was done to it, nothing to tell.
  const acted = before !== null && !TERMINAL_STATUSES.has(before.status)
  const mail = acted
    ? failureMail(ctx, shop, row, {
        kind: f.kind,
        retryAt: null,
        action,
        nextAt: skippedTo,
        updateLinkSent: false,
        challengeExpired: f.code === CHALLENGE_EXPIRED,
      })
    : undefined
  const won = await commitSettlement(
    ctx,
    shop,
    row,
    wholeContract(state.contract()),
    { status: 'failed', finalAction: action, kind: f.kind, code: f.code, message: f.message },
    events,
    { source: 'dunning' },
    mail,
  )
  if (won) await mail?.deliver()
  return 'failed'
}

/**
 * Asks the platform to mail the customer its link for updating the contract's payment
 * method (customerPaymentMethodSendUpdateEmail), and records it in the history. False when
 * the contract has no payment method or the platform refused; never throws.
 */
async function sendUpdateLink(ctx: EngineContext, s: Settling, contract: PlatformContract): Promise<boolean> {
  const { shop, row } = s
  const methodId = contract.customerPaymentMethod?.id
  if (typeof methodId !== 'string') return false
  try {
    await sendPaymentMethodUpdateEmail(s.client, methodId)
    await appendContractEvent(ctx.db, shop.id, 'billing', {
      contractId: row.contract_id,
      type: 'payment_update_email_sent',
      payload: { paymentMethodId: idFromGid(methodId), cycleDate: row.cycle_date },
    })
    return true
  } catch (error) {
    ctx.log.warn({ err: error, cycle: row.id }, 'payment method update e-mail not sent')
    return false
  }
}
