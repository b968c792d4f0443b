import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BillingRunSummary, BillingSettings } from '@teiki/contract'
import { addCalendarDays, toZonedDate, zonedDayStart } from '@teiki/domain'
import type { Db } from '../db/pool.ts'
import { createMailer } from '../mail/mailer.ts'
import type { CreatedBillingAttempt } from '../platform/operations/subscription-billing-attempt-create.ts'
import type { ShopClients } from '../platform/shop-clients.ts'
import type { ShopRow } from '../platform/shops-repo.ts'
import { eachLimited } from '../runs/each-limited.ts'
import type { BeforeStore } from './charge.ts'
import { billingKey, type CycleRow, claimCycle, cycleExists } from './cycles-repo.ts'
import { type BillingEngine, createBillingEngine } from './engine.ts'
import type { OutcomeResult } from './engine-context.ts'
import { startRunHeartbeat } from './run-heartbeat.ts'
import {
  countOverdueContracts,
  createRun,
  dueContracts,
  dueRetries,
  finishRun,
  moveToRun,
  openAttemptCycleIds,
  type RunTrigger,
  unfinishedCreates,
} from './runs-repo.ts'
import { getBillingSettings } from './settings.ts'

/** Creates in flight at once: enough to keep a 2,000-point bucket busy at 10 points a create. */
export const BILLING_CONCURRENCY = 12

export type RunBillingOptions = {
  db: Db
  clients: ShopClients
  shop: ShopRow
  /** The run's clock: contracts due up to here are charged (never the wall clock in tests). */
  now: Date
  /** Default: the shop's stored settings. */
  settings?: BillingSettings
  /** Applies outcomes; default: an engine mailing to `<tmpdir>/teiki/outbox`. */
  engine?: BillingEngine
  trigger?: RunTrigger
  /** The aborted run this one continues (trigger `resume`). */
  resumedFrom?: string
  /**
   * Wait for every attempt's outcome by polling the platform (the CLI, tests). Without it the
   * run returns once the attempts exist; webhooks and poll jobs settle them and count them
   * on the run's billing_runs row.
   */
  wait?: false | { intervalMs?: number; maxIntervalMs?: number; timeoutMs?: number }
  concurrency?: number
  /** Stops taking contracts; the run rejects once the ones in flight are done. */
  signal?: AbortSignal
  hooks?: {
    /**
     * Between the platform's answer to a create and storing the attempt id on the cycle row:
     * the worst moment to die. Throwing here aborts the run like a killed worker (tests).
     */
    afterAttemptCreated?: (info: {
      contractId: string
      attempt: CreatedBillingAttempt
      n: number
    }) => void | Promise<void>
  }
}

type Work =
  | { kind: 'due'; contractId: string; dueAt: Date }
  | { kind: 'retry'; row: CycleRow }
  | { kind: 'resume'; row: CycleRow }

export class BillingRunAborted extends Error {
  constructor(cause?: unknown) {
    super('billing run aborted', { cause })
    this.name = 'BillingRunAborted'
  }
}

/**
 * One billing run of one shop at `now`:
 * - due: ACTIVE contracts (mirror) whose next billing date lies in [start of the shop-local day
 *   `lookbackDays` before today, now]; ACTIVE contracts due before that window are reported as
 *   skipped (a merchant decision, never a silent late charge), unless they are in dunning;
 * - dunning retries whose next_retry_at has come, and cycles whose create was cut off;
 * - each due contract: claim its cycle row (insert … on conflict do nothing; a row already there
 *   is alreadyBilled, unless it is an unfinished create, which is resumed with its key), then
 *   subscriptionBillingAttemptCreate with billing:{contract}:{cycleDate}:{attemptNo}.
 * Creates run `concurrency` at a time; the shop's paced Admin client spaces them to the bucket.
 */
export async function runBilling(opts: RunBillingOptions): Promise<BillingRunSummary> {
  const { shop, now } = opts
  const { db } = opts
  const settings = opts.settings ?? (await getBillingSettings(db, shop.id))
  const engine = opts.engine ?? defaultEngine(db, opts.clients)
  const tz = shop.iana_timezone
  const today = toZonedDate(now, tz)
  const windowStart = zonedDayStart(addCalendarDays(today, -settings.lookbackDays), tz)
  const runId = await createRun(db, shop.id, opts.trigger ?? 'manual', now, opts.resumedFrom ?? null)
  // 3-D Secure challenges: completed ones whose webhook was lost, and expired ones (dunning).
  await engine.reviewChallenges(shop, now)
  const { work, overdue } = await collectWork(db, shop.id, windowStart, now)
  const summary: BillingRunSummary = {
    shop: shop.domain,
    now: now.toISOString(),
    due: work.length,
    attempted: 0,
    succeeded: 0,
    failed: 0,
    skipped: overdue,
    alreadyBilled: 0,
  }
  /** Cycles this run made an attempt for (their outcomes are its succeeded/failed). */
  const attempted: string[] = []
  let created = 0
  const charging: Charging = {
    db,
    shop,
    engine,
    runId,
    now,
    beforeStore: (contractId) => async (attempt) => {
      created++
      await opts.hooks?.afterAttemptCreated?.({ contractId, attempt, n: created })
    },
  }

  // Until it finishes, the run says it is alive: a killed one is then marked 中断 and resumed
  // (one that failed before here stops beating at once, so it is taken for dead too).
  const heartbeat = startRunHeartbeat(db, shop.id, runId)
  let aborted: unknown = null
  try {
    await eachLimited(work, opts.concurrency ?? BILLING_CONCURRENCY, async (item) => {
      if (opts.signal?.aborted) throw new BillingRunAborted(opts.signal.reason)
      const charged = await chargeOne(charging, item)
      if (charged === 'alreadyBilled') summary.alreadyBilled++
      else if (charged === 'skipped') summary.skipped++
      else {
        summary.attempted++
        attempted.push(charged.id)
      }
    })
  } catch (error) {
    aborted = error
  }

  if (!aborted && opts.wait) {
    // Also settles attempts earlier runs left open (a run that was killed, a missed webhook):
    // they are not this run's charges (alreadyBilled), but a synchronous run leaves none behind.
    const open = await openAttemptCycleIds(db, shop.id)
    try {
      const outcomes = await engine.awaitOutcomes(shop, [...attempted, ...open], { now, ...opts.wait })
      for (const id of attempted) count(summary, outcomes.get(id))
    } catch (error) {
      // The attempts exist; their outcomes come by webhook or by the next poll.
      aborted = error
    }
  }
  await heartbeat.stop()
  await finishRun(db, shop.id, runId, summary, aborted ? String((aborted as Error).message ?? aborted) : null)
  if (aborted) throw aborted
  return summary
}

/** Without an app's engine (a bare script): one that mails to `<tmpdir>/teiki/outbox`. */
function defaultEngine(db: Db, clients: ShopClients): BillingEngine {
  return createBillingEngine({
    db,
    clients,
    mailer: createMailer({
      db,
      outboxDir: join(tmpdir(), 'teiki', 'outbox'),
      from: 'Teiki <no-reply@teiki.invalid>',
    }),
  })
}

/** What the run charges, and how many due contracts it leaves to the merchant (overdue). */
async function collectWork(db: Db, shopId: string, windowStart: Date, now: Date) {
  const due = await dueContracts(db, shopId, windowStart, now)
  // Due before the window and not in dunning: reported, not charged.
  const overdue = await countOverdueContracts(db, shopId, windowStart)
  const retries = await dueRetries(db, shopId, now)
  // Creates cut off by a crash whose contract is no longer in the due window (retries, order now).
  const dueIds = new Set(due.map((r) => r.id))
  const stuck = await unfinishedCreates(db, shopId)

  // A contract whose dunning retry is due is charged by that retry, not a second time as due.
  const retrying = new Set(retries.map((r) => r.contract_id))
  const work: Work[] = [
    ...due
      .filter((r) => !retrying.has(r.id))
      .map((r): Work => ({ kind: 'due', contractId: r.id, dueAt: r.next_billing_date })),
    ...retries.map((row): Work => ({ kind: 'retry', row })),
    ...stuck.filter((row) => !dueIds.has(row.contract_id)).map((row): Work => ({ kind: 'resume', row })),
  ]
  return { work, overdue }
}

type Charging = {
  db: Db
  shop: ShopRow
  engine: BillingEngine
  runId: string
  now: Date
  beforeStore: (contractId: string) => BeforeStore
}

/** One item of the run: the cycle whose attempt it made, or why it made none. */
async function chargeOne(c: Charging, item: Work): Promise<CycleRow | 'alreadyBilled' | 'skipped'> {
  const { shop, engine } = c
  if (item.kind === 'retry') {
    const started = await engine.retryCycle(shop, item.row.id, item.row.attempt_no, {
      runId: c.runId,
      dueBy: c.now,
      beforeStore: c.beforeStore(item.row.contract_id),
    })
    if (!started) return 'alreadyBilled'
    return started.kind === 'refused' ? 'skipped' : started.row
  }
  const row = item.kind === 'resume' ? item.row : await claimDue(c, item.contractId, item.dueAt)
  if (row === 'skipped') return 'skipped'
  if (!row) return 'alreadyBilled'
  const started = await engine.attemptOf(shop, row, c.beforeStore(row.contract_id))
  return started.kind === 'refused' ? 'skipped' : started.row
}

/**
 * Claims a due contract's cycle; null when it is charged, being charged or in dunning, and
 * 'skipped' when the platform says it is not due (paused, cancelled or moved there while the
 * mirror did not hear of it: pre-charge.ts resynced it).
 */
async function claimDue(c: Charging, contractId: string, dueAt: Date): Promise<CycleRow | null | 'skipped'> {
  const { db, shop, runId } = c
  const cycleDate = toZonedDate(dueAt, shop.iana_timezone)
  // A cycle already claimed (charged, in dunning, or a create to resume) needs no check.
  const pre = (await cycleExists(db, shop.id, contractId, cycleDate))
    ? null
    : await c.engine.checkBeforeCharge(shop, contractId, dueAt)
  if (pre?.kind === 'skip') return 'skipped'
  const claim = await claimCycle(db, {
    shopId: shop.id,
    contractId,
    cycleDate,
    dueAt,
    origin: 'schedule',
    idempotencyKey: billingKey(contractId, cycleDate, 0),
    runId,
  })
  if (claim.kind === 'existing') return null
  const row = claim.row
  // Only the run that claimed the cycle, and before the charge is asked for.
  if (claim.kind === 'new') await c.engine.priceCharge(shop, row, pre?.check ?? null)
  if (claim.kind === 'resume' && row.run_id !== runId) {
    await moveToRun(db, shop.id, row.id, runId)
    return { ...row, run_id: runId }
  }
  return row
}

function count(summary: BillingRunSummary, outcome: OutcomeResult | undefined): void {
  if (outcome === 'succeeded') summary.succeeded++
  else if (outcome === 'failed' || outcome === 'retry_scheduled') summary.failed++
}
