import { attemptOutcome } from '../platform/attempt-outcome.ts'
import { idFromGid, toGid } from '../platform/gid.ts'
import type { PlatformBillingAttempt } from '../platform/operations/contract-fragments.ts'
import { findShopById, type ShopRow } from '../platform/shops-repo.ts'
import { eachLimited } from '../runs/each-limited.ts'
import { upsertBillingAttempt } from '../sync/billing-attempts-repo.ts'
import { billingAttemptRecord } from '../sync/records.ts'
import { takesOutcome } from './challenge-rules.ts'
import { attemptOf } from './charge.ts'
import {
  adoptAttemptId,
  type CycleRow,
  type CycleStatus,
  findCycle,
  findCycleOfAttempt,
  findCycles,
} from './cycles-repo.ts'
import type { EngineContext, OutcomeResult } from './engine-context.ts'
import { fetchBillingAttempts } from './platform.ts'
import { getBillingSettings } from './settings.ts'
import { settleChallenge } from './settle-challenge.ts'
import { settleFailure } from './settle-failure.ts'
import { settleSuccess } from './settle-success.ts'

// Where outcomes come in. Every path that learns one (the billing webhook, the poll job, a
// run that waits) ends in onAttemptOutcome, and they may race: the cycle row decides.

/**
 * Applies an attempt's outcome (attemptOutcome) to its cycle. Not ours (no cycle row) →
 * 'ignored'; still processing → 'pending'; a cycle another path settled → its status, with
 * nothing done again; a 3-D Secure challenge → 'challenged' (settle-challenge.ts).
 */
export async function onAttemptOutcome(
  ctx: EngineContext,
  shopOrId: ShopRow | string,
  attempt: PlatformBillingAttempt,
  options: { now?: Date } = {},
): Promise<OutcomeResult> {
  const { db } = ctx
  const shop = typeof shopOrId === 'string' ? await findShopById(db, shopOrId) : shopOrId
  if (!shop) return 'ignored'
  const attemptId = idFromGid(attempt.id)
  const row = await findCycleOfAttempt(db, shop.id, { id: attemptId, idempotencyKey: attempt.idempotencyKey })
  if (!row) return 'ignored'
  const contractId = row.contract_id
  const outcome = attemptOutcome(attempt)
  if (!takesOutcome(row, outcome)) return row.status
  // An attempt of an earlier try of this cycle (its outcome was applied when it arrived).
  if (row.attempt_id !== null && row.attempt_id !== attemptId) return row.status
  if (row.idempotency_key !== attempt.idempotencyKey) return row.status
  if (outcome.kind === 'pending') return 'pending'
  if (row.attempt_id === null) await adoptAttemptId(db, shop.id, row.id, attemptId)
  await upsertBillingAttempt(db, shop.id, billingAttemptRecord(attempt, contractId))
  const settings = await getBillingSettings(db, shop.id)
  const now = options.now ?? new Date()
  switch (outcome.kind) {
    case 'success':
      return settleSuccess(ctx, shop, row, attempt, settings)
    case 'failed':
      return settleFailure(ctx, shop, row, attempt, outcome, settings, now)
    case 'challenged':
      return settleChallenge(ctx, shop, row, attempt, outcome, settings, now)
  }
}

/** Re-reads a cycle's status (after another path may have settled it). */
async function statusOf(ctx: EngineContext, shopId: string, cycleId: string): Promise<CycleStatus | null> {
  return (await findCycle(ctx.db, shopId, cycleId))?.status ?? null
}

/**
 * The polling fallback for one cycle: finishes a create cut off by a crash, then reads the
 * attempt and applies it when ready. 'pending' means: ask again later.
 */
export async function pollCycle(
  ctx: EngineContext,
  shop: ShopRow,
  cycleId: string,
  options: { now?: Date } = {},
): Promise<OutcomeResult> {
  let row = await findCycle(ctx.db, shop.id, cycleId)
  if (!row) return 'ignored'
  if (row.status !== 'attempting') return row.status
  if (row.attempt_id === null) {
    const started = await attemptOf(ctx, shop, row)
    if (started.kind === 'refused') return (await statusOf(ctx, shop.id, cycleId)) ?? 'ignored'
    row = started.row
  }
  const [attempt] = await fetchBillingAttempts(ctx.clientFor(shop), [
    toGid('SubscriptionBillingAttempt', row.attempt_id!),
  ])
  if (!attempt) return 'pending'
  return onAttemptOutcome(ctx, shop, attempt, options)
}

export type AwaitOptions = {
  now?: Date
  /** How often the cycles are looked up in the database (a webhook may have settled them). */
  intervalMs?: number
  /** An attempt is first read from the platform this long after the wait began (default intervalMs). */
  pollAfterMs?: number
  /** The longest gap between two platform reads of one attempt (reads back off by doubling). */
  maxIntervalMs?: number
  timeoutMs?: number
  concurrency?: number
}

/** When each cycle's attempt is next read from the platform, and the gap before that read. */
type PollSchedule = Map<string, { at: number; gapMs: number }>

/**
 * Waits for the outcomes of `cycleIds`, applying each as it becomes ready. Every `intervalMs`
 * the cycles are looked up in the database, where webhooks settle most of them; an attempt
 * still open is read from the platform (batched `nodes` reads) `pollAfterMs` after the wait
 * began, then again after gaps doubling up to `maxIntervalMs`: a read costs points, so an
 * attempt the platform is still settling is not asked about every interval. Stops when all
 * are settled or after `timeoutMs`. Answers each cycle's final status.
 */
export async function awaitOutcomes(
  ctx: EngineContext,
  shop: ShopRow,
  cycleIds: string[],
  options: AwaitOptions = {},
): Promise<Map<string, OutcomeResult>> {
  const result = new Map<string, OutcomeResult>()
  let pending = [...new Set(cycleIds)]
  const interval = options.intervalMs ?? 500
  const firstPoll = options.pollAfterMs ?? interval
  const maxGap = options.maxIntervalMs ?? 5_000
  const deadline = Date.now() + (options.timeoutMs ?? 10 * 60_000)
  const outcomeOptions = options.now ? { now: options.now } : {}
  const schedule: PollSchedule = new Map(
    pending.map((id) => [id, { at: Date.now() + firstPoll, gapMs: Math.max(firstPoll, interval) }]),
  )
  while (pending.length > 0) {
    const watched = await attemptsToRead(ctx, shop, pending, result)
    if (watched.length === 0) break
    const due = watched.filter((r) => (schedule.get(r.id)?.at ?? 0) <= Date.now())
    if (due.length > 0) {
      const attempts = await fetchBillingAttempts(
        ctx.clientFor(shop),
        due.map((r) => toGid('SubscriptionBillingAttempt', r.attempt_id!)),
      )
      const byId = new Map(due.map((r) => [r.attempt_id!, r]))
      await eachLimited(
        attempts.filter((a) => attemptOutcome(a).kind !== 'pending'),
        options.concurrency ?? 8,
        async (attempt) => {
          const row = byId.get(idFromGid(attempt.id))
          const outcome = await onAttemptOutcome(ctx, shop, attempt, outcomeOptions)
          if (row && outcome !== 'pending') result.set(row.id, outcome)
        },
      )
      for (const r of due) {
        const gapMs = Math.min(maxGap, (schedule.get(r.id)?.gapMs ?? interval) * 2)
        schedule.set(r.id, { at: Date.now() + gapMs, gapMs })
      }
    }
    pending = watched.filter((r) => !result.has(r.id)).map((r) => r.id)
    if (pending.length === 0) break
    if (Date.now() >= deadline) {
      for (const id of pending) result.set(id, 'pending')
      break
    }
    await new Promise((r) => setTimeout(r, interval))
  }
  return result
}

/**
 * One round of awaitOutcomes: settled and unknown cycles go into `result`; the ones still
 * attempting come back to be read from the platform.
 */
async function attemptsToRead(
  ctx: EngineContext,
  shop: ShopRow,
  pending: string[],
  result: Map<string, OutcomeResult>,
): Promise<CycleRow[]> {
  const rows = await findCycles(ctx.db, shop.id, pending)
  for (const id of pending) if (!rows.some((r) => r.id === id)) result.set(id, 'ignored')
  const watched: CycleRow[] = []
  for (const row of rows) {
    if (row.status !== 'attempting') {
      result.set(row.id, row.status)
    } else if (row.attempt_id === null) {
      // A create cut off before its attempt id was stored: finish it (same key, same attempt).
      const started = await attemptOf(ctx, shop, row)
      if (started.kind === 'created') watched.push(started.row)
      else result.set(row.id, (await statusOf(ctx, shop.id, row.id)) ?? 'ignored')
    } else {
      watched.push(row)
    }
  }
  return watched
}
