import type { BillingSettings } from '@teiki/contract'
import { withTransaction } from '../db/pool.ts'
import { composeMail } from '../features/mail-templates/service.ts'
import { attemptOutcome } from '../platform/attempt-outcome.ts'
import { idFromGid, toGid } from '../platform/gid.ts'
import type { PlatformBillingAttempt } from '../platform/operations/contract-fragments.ts'
import type { ShopRow } from '../platform/shops-repo.ts'
import { appendContractEvent, lockContract } from '../sync/contracts-repo.ts'
import { CHALLENGE_EXPIRED, CHALLENGE_EXPIRED_MESSAGE, challengeDeadline } from './challenge-rules.ts'
import { challengedCycles, recordChallenge } from './challenges-repo.ts'
import { type CycleRow, type CycleStatus, findCycle } from './cycles-repo.ts'
import type { EngineContext } from './engine-context.ts'
import { challengeMailValues } from './mail.ts'
import { fetchBillingAttempts } from './platform.ts'
import { customerOf } from './repo.ts'
import { settleFailure } from './settle-failure.ts'

// 3-D Secure (ADR 0011): the card's issuer challenged a charge. The cycle waits in `challenged`
// (the run, the retry job and "create order now" make no charge for it meanwhile), the
// customer is mailed the link once, and then:
// - the customer authenticates: the attempt succeeds on the platform and settles as any success;
// - the customer fails: AUTHENTICATION_ERROR, settled as a payment failure (dunning);
// - nothing by the deadline: the daily run's review settles it as a payment failure with reason
//   CHALLENGE_EXPIRED (retry later, or the shop's final action).

/**
 * The attempt came back challenged: the cycle moves to `challenged` with its link and deadline,
 * its history gets `billing_challenged` and the customer the link, all in one transaction (the
 * mail through the outbox, keyed by the attempt, so at most one per challenge). A cycle that is
 * already challenged is left as it is, unless its deadline has passed.
 */
export async function settleChallenge(
  ctx: EngineContext,
  shop: ShopRow,
  row: CycleRow,
  attempt: PlatformBillingAttempt,
  challenge: { nextActionUrl: string },
  settings: BillingSettings,
  now: Date,
): Promise<CycleStatus> {
  if (row.status === 'challenged') {
    const expired = row.challenge_expires_at !== null && row.challenge_expires_at <= now
    return expired ? expireChallenge(ctx, shop, row, attempt, settings, now) : 'challenged'
  }
  const expiresAt = challengeDeadline(now, settings.billingHour, shop.iana_timezone)
  const to = await customerOf(ctx.db, shop.id, row.contract_id)
  const attemptId = idFromGid(attempt.id)
  const mailIds = await withTransaction(ctx.db, async (tx) => {
    await lockContract(tx, shop.id, row.contract_id)
    if (!(await recordChallenge(tx, row, { url: challenge.nextActionUrl, at: now, expiresAt }))) return null
    await appendContractEvent(tx, shop.id, 'billing', {
      contractId: row.contract_id,
      type: 'billing_challenged',
      occurredAt: now,
      payload: {
        attemptId,
        // 1 = the first charge of the cycle, 2 = its first retry, …
        attempt: row.attempt_no + 1,
        cycleDate: row.cycle_date,
        expiresAt: expiresAt.toISOString(),
      },
    })
    if (!to?.email) return []
    const mail = await composeMail(tx, shop, {
      type: 'payment_challenge',
      to: to.email,
      values: challengeMailValues(row, to, { url: challenge.nextActionUrl, expiresAt }),
      dedupeKey: `challenge:${attemptId}`,
    })
    const id = await ctx.mailer.enqueue(tx, mail)
    return id === null ? [] : [id]
  })
  // Another path settled the cycle or recorded the challenge first: its status is the answer.
  if (mailIds === null) return (await findCycle(ctx.db, shop.id, row.id))?.status ?? 'challenged'
  if (mailIds.length > 0) {
    // Committed: sent now, or by the outbox drain if this fails.
    await ctx.mailer.deliver(mailIds).catch((error: unknown) => {
      ctx.log.warn({ err: error, cycle: row.id }, 'challenge mail not sent yet')
    })
  }
  return 'challenged'
}

/** The deadline passed with the challenge still open: the payment dunning schedule, reason CHALLENGE_EXPIRED. */
function expireChallenge(
  ctx: EngineContext,
  shop: ShopRow,
  row: CycleRow,
  attempt: PlatformBillingAttempt,
  settings: BillingSettings,
  now: Date,
): Promise<CycleStatus> {
  const failure = { code: CHALLENGE_EXPIRED, message: CHALLENGE_EXPIRED_MESSAGE }
  return settleFailure(ctx, shop, row, attempt, failure, settings, now)
}

export type ApplyOutcome = (attempt: PlatformBillingAttempt) => Promise<unknown>

/**
 * The daily run's look at the shop's open challenges (one `nodes` read per 50): each attempt is
 * applied as it is now (`apply`, the engine's onAttemptOutcome), so a challenge completed or
 * failed whose webhook never came is settled, and one still open past its deadline expires.
 * Never throws: what is not reviewed today is reviewed by the next run.
 */
export async function reviewChallenges(
  ctx: EngineContext,
  shop: ShopRow,
  apply: ApplyOutcome,
): Promise<number> {
  try {
    const rows = await challengedCycles(ctx.db, shop.id)
    if (rows.length === 0) return 0
    const ids = rows.map((r) => toGid('SubscriptionBillingAttempt', r.attempt_id!))
    const attempts = await fetchBillingAttempts(ctx.clientFor(shop), ids)
    for (const attempt of attempts) await apply(attempt)
    return attempts.length
  } catch (error) {
    ctx.log.warn({ err: error, shop: shop.id }, 'challenged billing attempts not reviewed')
    return 0
  }
}

/**
 * Before a dunning retry charges a cycle whose challenge expired: the customer may have
 * authenticated since (the order exists). True when the late success settled the cycle, so
 * the retry must not charge again; a failure or a still open challenge lets the retry go on.
 */
export async function settledLate(
  ctx: EngineContext,
  shop: ShopRow,
  cycleId: string,
  apply: ApplyOutcome,
): Promise<boolean> {
  const row = await findCycle(ctx.db, shop.id, cycleId)
  if (row?.status !== 'retry_scheduled' || row.error_code !== CHALLENGE_EXPIRED || !row.attempt_id)
    return false
  const [attempt] = await fetchBillingAttempts(ctx.clientFor(shop), [
    toGid('SubscriptionBillingAttempt', row.attempt_id),
  ])
  if (!attempt || attemptOutcome(attempt).kind !== 'success') return false
  await apply(attempt)
  return (await findCycle(ctx.db, shop.id, cycleId))?.status === 'succeeded'
}
