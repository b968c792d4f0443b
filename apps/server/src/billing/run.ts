import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BillingRunSummary, BillingSettings } from '@teiki/contract'
import { addCalendarDays, toZonedDate, zonedDayStart } from '@teiki/domain'
import type { Db } from '../db/pool.ts'
import type { ShopRow } from '../features/shops/repo.ts'
import type { ShopClients } from '../features/subscriptions/shop-client.ts'
import { createMailer } from '../mail/mailer.ts'
import type { CreatedBillingAttempt } from '../platform/operations/subscription-billing-attempt-create.ts'
import { billingKey, CYCLE_COLUMNS, type CycleRow, claimCycle } from './cycles.ts'
import { type BillingEngine, createBillingEngine, eachLimited, type OutcomeResult } from './engine.ts'
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
  trigger?: 'schedule' | 'cli' | 'manual'
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
  const engine =
    opts.engine ??
    createBillingEngine({
      db,
      clients: opts.clients,
      mailer: createMailer({
        db,
        outboxDir: join(tmpdir(), 'teiki', 'outbox'),
        from: 'Teiki <no-reply@teiki.invalid>',
      }),
    })
  const tz = shop.iana_timezone
  const today = toZonedDate(now, tz)
  const windowStart = zonedDayStart(addCalendarDays(today, -settings.lookbackDays), tz)

  const run = await db.query<{ id: string }>(
    `insert into billing_runs (shop_id, trigger, run_at) values ($1, $2, $3) returning id::text`,
    [shop.id, opts.trigger ?? 'manual', now],
  )
  const runId = run.rows[0]!.id

  const due = await db.query<{ id: string; next_billing_date: Date }>(
    `select c.id::text, c.next_billing_date from subscription_contracts c
     where c.shop_id = $1 and c.status = 'ACTIVE' and c.next_billing_date >= $2 and c.next_billing_date <= $3
     order by c.next_billing_date, c.id`,
    [shop.id, windowStart, now],
  )
  // Due before the window and not in dunning: reported, not charged.
  const older = await db.query<{ count: number }>(
    `select count(*)::int as count from subscription_contracts c
     where c.shop_id = $1 and c.status = 'ACTIVE' and c.next_billing_date < $2
       and not exists (select 1 from billing_cycles b where b.shop_id = c.shop_id and b.contract_id = c.id
                       and b.status in ('retry_scheduled', 'attempting'))`,
    [shop.id, windowStart],
  )
  const retries = await db.query<CycleRow>(
    `select ${CYCLE_COLUMNS} from billing_cycles
     where shop_id = $1 and status = 'retry_scheduled' and next_retry_at <= $2 order by next_retry_at, id`,
    [shop.id, now],
  )
  // Creates cut off by a crash whose contract is no longer in the due window (retries, order now).
  const dueIds = new Set(due.rows.map((r) => r.id))
  const stuck = await db.query<CycleRow>(
    `select ${CYCLE_COLUMNS} from billing_cycles
     where shop_id = $1 and status = 'attempting' and attempt_id is null order by id`,
    [shop.id],
  )

  // A contract whose dunning retry is due is charged by that retry, not a second time as due.
  const retrying = new Set(retries.rows.map((r) => r.contract_id))
  const work: Work[] = [
    ...due.rows
      .filter((r) => !retrying.has(r.id))
      .map((r): Work => ({ kind: 'due', contractId: r.id, dueAt: r.next_billing_date })),
    ...retries.rows.map((row): Work => ({ kind: 'retry', row })),
    ...stuck.rows.filter((row) => !dueIds.has(row.contract_id)).map((row): Work => ({ kind: 'resume', row })),
  ]
  const summary: BillingRunSummary = {
    shop: shop.domain,
    now: now.toISOString(),
    due: work.length,
    attempted: 0,
    succeeded: 0,
    failed: 0,
    skipped: older.rows[0]?.count ?? 0,
    alreadyBilled: 0,
  }
  /** Cycles this run made an attempt for (their outcomes are its succeeded/failed). */
  const attempted: string[] = []
  let created = 0
  const beforeStore = (contractId: string) => async (attempt: CreatedBillingAttempt) => {
    created++
    await opts.hooks?.afterAttemptCreated?.({ contractId, attempt, n: created })
  }

  let aborted: unknown = null
  try {
    await eachLimited(work, opts.concurrency ?? BILLING_CONCURRENCY, async (item) => {
      if (opts.signal?.aborted) throw new BillingRunAborted(opts.signal.reason)
      if (item.kind === 'retry') {
        const started = await engine.retryCycle(shop, item.row.id, item.row.attempt_no, {
          runId,
          dueBy: now,
          beforeStore: beforeStore(item.row.contract_id),
        })
        if (!started) {
          summary.alreadyBilled++
          return
        }
        if (started.kind === 'refused') {
          summary.skipped++
          return
        }
        summary.attempted++
        attempted.push(started.row.id)
        return
      }
      let row: CycleRow
      if (item.kind === 'resume') {
        row = item.row
      } else {
        const cycleDate = toZonedDate(item.dueAt, tz)
        const claim = await claimCycle(db, {
          shopId: shop.id,
          contractId: item.contractId,
          cycleDate,
          dueAt: item.dueAt,
          origin: 'schedule',
          idempotencyKey: billingKey(item.contractId, cycleDate, 0),
          runId,
        })
        if (claim.kind === 'existing') {
          summary.alreadyBilled++
          return
        }
        row = claim.row
        // Only the run that claimed the cycle, and before the charge is asked for.
        if (claim.kind === 'new') await engine.priceCharge(shop, row)
        if (claim.kind === 'resume' && row.run_id !== runId) {
          await db.query('update billing_cycles set run_id = $3 where shop_id = $1 and id = $2', [
            shop.id,
            row.id,
            runId,
          ])
          row = { ...row, run_id: runId }
        }
      }
      const started = await engine.attemptOf(shop, row, beforeStore(row.contract_id))
      if (started.kind === 'refused') {
        summary.skipped++
        return
      }
      summary.attempted++
      attempted.push(started.row.id)
    })
  } catch (error) {
    aborted = error
  }

  if (!aborted && opts.wait) {
    // Also settles attempts earlier runs left open (a run that was killed, a missed webhook):
    // they are not this run's charges (alreadyBilled), but a synchronous run leaves none behind.
    const open = await db.query<{ id: string }>(
      `select id::text from billing_cycles where shop_id = $1 and status = 'attempting' and attempt_id is not null`,
      [shop.id],
    )
    try {
      const outcomes = await engine.awaitOutcomes(shop, [...attempted, ...open.rows.map((r) => r.id)], {
        now,
        ...opts.wait,
      })
      for (const id of attempted) count(summary, outcomes.get(id))
    } catch (error) {
      // The attempts exist; their outcomes come by webhook or by the next poll.
      aborted = error
    }
  }
  await db.query(
    `update billing_runs set finished_at = now(), due = $3, attempted = $4, skipped = $5, already_billed = $6,
       error = $7
     where shop_id = $1 and id = $2`,
    [
      shop.id,
      runId,
      summary.due,
      summary.attempted,
      summary.skipped,
      summary.alreadyBilled,
      aborted ? String((aborted as Error).message ?? aborted) : null,
    ],
  )
  if (aborted) throw aborted
  return summary
}

function count(summary: BillingRunSummary, outcome: OutcomeResult | undefined): void {
  if (outcome === 'succeeded') summary.succeeded++
  else if (outcome === 'failed' || outcome === 'retry_scheduled') summary.failed++
}
