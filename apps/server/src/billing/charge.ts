import type { Db } from '../db/pool.ts'
import type { AdminClient } from '../platform/admin-client.ts'
import { PlatformUserError } from '../platform/errors.ts'
import { idFromGid, toGid } from '../platform/gid.ts'
import {
  type CreatedBillingAttempt,
  createBillingAttempt,
} from '../platform/operations/subscription-billing-attempt-create.ts'
import type { ShopRow } from '../platform/shops-repo.ts'
import { upsertBillingAttempt } from '../sync/billing-attempts-repo.ts'
import { billingAttemptRecord } from '../sync/records.ts'
import { type CycleRow, claimRetry, findCycle, recordRefusal, storeAttemptId } from './cycles-repo.ts'
import type { EngineContext } from './engine-context.ts'
import { checkBeforeCharge } from './pre-charge.ts'

// Asking the platform for a cycle's charge (subscriptionBillingAttemptCreate) once its row is
// claimed: the first charge (claimed by runBilling or "create order now"), a dunning retry,
// or a create a crash cut off (same key, so the platform answers the attempt it made).

export type AttemptStart =
  | { kind: 'created'; row: CycleRow; attempt: CreatedBillingAttempt }
  /** The platform refused to charge (contract paused or ended there): nothing was charged. */
  | { kind: 'refused'; row: CycleRow; code: string | null; message: string }

/** Called between the platform's answer to a create and storing the attempt id (tests crash there). */
export type BeforeStore = (attempt: CreatedBillingAttempt) => void | Promise<void>

/**
 * Asks the platform for the attempt of the row's current attempt number, with the row's key,
 * then stores the attempt id on the row and mirrors the attempt. `beforeStore` runs between
 * the two (tests crash there: the worst moment, the charge exists and the row does not know it).
 */
export async function startAttempt(
  db: Db,
  client: AdminClient,
  row: CycleRow,
  beforeStore?: BeforeStore,
): Promise<AttemptStart> {
  let attempt: CreatedBillingAttempt
  try {
    attempt = await createBillingAttempt(
      client,
      toGid('SubscriptionContract', row.contract_id),
      row.idempotency_key,
    )
  } catch (error) {
    if (!(error instanceof PlatformUserError)) throw error
    const first = error.userErrors[0]
    return {
      kind: 'refused',
      row,
      code: first?.code ?? null,
      message: error.userErrors.map((e) => e.message).join(' / '),
    }
  }
  await beforeStore?.(attempt)
  const attemptId = idFromGid(attempt.id)
  const stored = await storeAttemptId(db, row, attemptId)
  await upsertBillingAttempt(db, row.shop_id, billingAttemptRecord(attempt, row.contract_id))
  return { kind: 'created', row: stored ?? { ...row, attempt_id: attemptId }, attempt }
}

/** Creates (or re-creates, same key) the row's current attempt; a refusal is recorded. */
export async function attemptOf(
  ctx: EngineContext,
  shop: ShopRow,
  row: CycleRow,
  beforeStore?: BeforeStore,
): Promise<AttemptStart> {
  const started = await startAttempt(ctx.db, ctx.clientFor(shop), row, beforeStore)
  if (started.kind === 'refused') {
    await recordRefusal(ctx.db, row, started)
    ctx.log.warn({ cycle: row.id, contract: row.contract_id, code: started.code }, 'billing attempt refused')
    return started
  }
  await watch(ctx, shop.id, started.row)
  return started
}

/** Has the scheduler poll the attempt later, in case its webhook never arrives. */
export async function watch(ctx: EngineContext, shopId: string, row: CycleRow): Promise<void> {
  if (!ctx.scheduler) return
  await ctx.scheduler.pollLater(shopId, row.id, row.attempt_no).catch((error: unknown) => {
    ctx.log.warn({ err: error, cycle: row.id }, 'billing poll job not scheduled')
  })
}

/**
 * Dunning retry `attemptNo + 1` of a cycle: checks the contract on the platform (paused or
 * ended there while the mirror did not hear of it: resynced, not charged; the retry stays
 * scheduled), claims it (only one of the retry job, the daily run and "create order now" gets
 * it) and asks the platform with the retry's own key. Null when someone else took the retry,
 * it is not due, or the platform says the contract cannot be charged.
 */
export async function retryCycle(
  ctx: EngineContext,
  shop: ShopRow,
  cycleId: string,
  attemptNo: number,
  options: { runId?: string | null; dueBy?: Date; beforeStore?: BeforeStore } = {},
): Promise<AttemptStart | null> {
  const cycle = await findCycle(ctx.db, shop.id, cycleId)
  if (cycle?.status !== 'retry_scheduled' || cycle.attempt_no !== attemptNo) return null
  const notDue = options.dueBy && cycle.next_retry_at && cycle.next_retry_at > options.dueBy
  if (notDue) return null
  const pre = await checkBeforeCharge(ctx, shop, cycle.contract_id, null)
  if (pre.kind === 'skip') return null
  const row = await claimRetry(ctx.db, {
    shopId: shop.id,
    cycleId,
    attemptNo,
    runId: options.runId ?? null,
    ...(options.dueBy ? { dueBy: options.dueBy } : {}),
  })
  if (!row) return null
  return attemptOf(ctx, shop, row, options.beforeStore)
}
