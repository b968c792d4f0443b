import type { BillingRunSummary } from '@teiki/contract'
import { type DbClient, queryRows } from '../db/pool.ts'
import { PROCESS_OWNER } from '../process/owner.ts'
import { abandonedSql } from '../runs/heartbeat.ts'
import { CYCLE_COLUMNS, type CycleRow, liveRuns } from './cycles-repo.ts'

// billing_runs and billing_schedule (which shop-local day each shop last ran), and what a run
// picks up: the due contracts, the retries that have come, the creates a crash cut off.

export type RunTrigger = 'schedule' | 'cli' | 'manual' | 'resume'

export async function createRun(
  db: DbClient,
  shopId: string,
  trigger: RunTrigger,
  now: Date,
  resumedFrom: string | null = null,
): Promise<string> {
  const run = await db.query<{ id: string }>(
    `insert into billing_runs (shop_id, trigger, run_at, owner, resumed_from) values ($1, $2, $3, $4, $5)
     returning id::text`,
    [shopId, trigger, now, PROCESS_OWNER, resumedFrom],
  )
  return run.rows[0]!.id
}

/** The running run is alive (run-heartbeat.ts). */
export async function touchRun(db: DbClient, shopId: string, runId: string): Promise<void> {
  await db.query(
    'update billing_runs set heartbeat_at = now() where shop_id = $1 and id = $2 and finished_at is null',
    [shopId, runId],
  )
}

/**
 * The run's counts of what it did (succeeded/failed are counted as outcomes settle). A run
 * marked aborted meanwhile (its heartbeat stalled past the limit) keeps its 中断 and its error.
 */
export async function finishRun(
  db: DbClient,
  shopId: string,
  runId: string,
  summary: BillingRunSummary,
  error: string | null,
): Promise<void> {
  await db.query(
    `update billing_runs set finished_at = coalesce(finished_at, now()), due = $3, attempted = $4, skipped = $5,
       already_billed = $6, error = case when aborted_at is null then $7 else error end
     where shop_id = $1 and id = $2`,
    [shopId, runId, summary.due, summary.attempted, summary.skipped, summary.alreadyBilled, error],
  )
}

export type RunRow = {
  id: string
  trigger: RunTrigger
  run_at: Date
  started_at: Date
  finished_at: Date | null
  due: number
  attempted: number
  succeeded: number
  failed: number
  skipped: number
  already_billed: number
  error: string | null
  aborted_at: Date | null
}

/** The shop's last `limit` runs, newest first. */
export function listRuns(db: DbClient, shopId: string, limit: number) {
  return queryRows<RunRow>(
    db,
    `select id::text, trigger, run_at, started_at, finished_at, due, attempted, succeeded, failed, skipped,
       already_billed, error, aborted_at
     from billing_runs where shop_id = $1 order by started_at desc, id desc limit $2`,
    [shopId, limit],
  )
}

/** ACTIVE contracts whose next billing date lies in [from, to], earliest first. */
export async function dueContracts(db: DbClient, shopId: string, from: Date, to: Date) {
  const { rows } = await db.query<{ id: string; next_billing_date: Date }>(
    `select c.id::text, c.next_billing_date from subscription_contracts c
     where c.shop_id = $1 and c.status = 'ACTIVE' and c.next_billing_date >= $2 and c.next_billing_date <= $3
     order by c.next_billing_date, c.id`,
    [shopId, from, to],
  )
  return rows
}

/** ACTIVE contracts due before `before`, not in dunning nor awaiting 3-D Secure: reported, never charged late. */
export async function countOverdueContracts(db: DbClient, shopId: string, before: Date): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    `select count(*)::int as count from subscription_contracts c
     where c.shop_id = $1 and c.status = 'ACTIVE' and c.next_billing_date < $2
       and not exists (select 1 from billing_cycles b where b.shop_id = c.shop_id and b.contract_id = c.id
                       and b.status in ('retry_scheduled', 'attempting', 'challenged'))`,
    [shopId, before],
  )
  return rows[0]?.count ?? 0
}

/** Cycles in dunning whose retry has come by `now`. */
export function dueRetries(db: DbClient, shopId: string, now: Date) {
  return queryRows<CycleRow>(
    db,
    `select ${CYCLE_COLUMNS} from billing_cycles
     where shop_id = $1 and status = 'retry_scheduled' and next_retry_at <= $2 order by next_retry_at, id`,
    [shopId, now],
  )
}

/**
 * Cycles whose create was cut off before the attempt id was stored: not the ones a live run
 * (another process's, billing the shop at the same time) is creating right now.
 */
export async function unfinishedCreates(db: DbClient, shopId: string): Promise<CycleRow[]> {
  const { rows } = await db.query<CycleRow>(
    `select ${CYCLE_COLUMNS} from billing_cycles
     where shop_id = $1 and status = 'attempting' and attempt_id is null order by id`,
    [shopId],
  )
  const live = await liveRuns(db, shopId, [...new Set(rows.flatMap((r) => (r.run_id ? [r.run_id] : [])))])
  return rows.filter((r) => r.run_id === null || !live.has(r.run_id))
}

/** Cycles whose attempt exists and has no outcome applied yet (a resumed run has them polled). */
export function openAttempts(db: DbClient, shopId: string) {
  return queryRows<CycleRow>(
    db,
    `select ${CYCLE_COLUMNS} from billing_cycles
     where shop_id = $1 and status = 'attempting' and attempt_id is not null order by id`,
    [shopId],
  )
}

/** Cycles whose attempt exists and has no outcome applied yet. */
export async function openAttemptCycleIds(db: DbClient, shopId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `select id::text from billing_cycles where shop_id = $1 and status = 'attempting' and attempt_id is not null`,
    [shopId],
  )
  return rows.map((r) => r.id)
}

/** A resumed create counts on the run that finishes it. */
export async function moveToRun(db: DbClient, shopId: string, cycleId: string, runId: string): Promise<void> {
  await db.query('update billing_cycles set run_id = $3 where shop_id = $1 and id = $2', [
    shopId,
    cycleId,
    runId,
  ])
}

/** Installed shops with their billing hour and the shop-local date of their last daily run. */
export async function shopsToTick(db: DbClient, defaultBillingHour: number, shopIds?: string[]) {
  const { rows } = await db.query<{
    id: string
    iana_timezone: string
    billing_hour: number
    last_run_date: string | null
  }>(
    `select s.id::text, s.iana_timezone, coalesce(bs.billing_hour, $1)::int as billing_hour,
       sch.last_run_date::text
     from shops s
     left join billing_settings bs on bs.shop_id = s.id
     left join billing_schedule sch on sch.shop_id = s.id
     where s.uninstalled_at is null and s.access_token is not null
       and ($2::bigint[] is null or s.id = any($2::bigint[]))`,
    [defaultBillingHour, shopIds ?? null],
  )
  return rows
}

/** Claims the shop's daily run for `date`; false when a worker claimed that day (or a later one). */
export async function claimRunDay(db: DbClient, shopId: string, date: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `insert into billing_schedule (shop_id, last_run_date, last_run_at) values ($1, $2, now())
     on conflict (shop_id) do update set last_run_date = excluded.last_run_date, last_run_at = now()
     where billing_schedule.last_run_date < excluded.last_run_date`,
    [shopId, date],
  )
  return rowCount === 1
}

/** A run marked aborted: what its resume needs. */
export type AbortedRun = { shop_id: string; id: string; run_at: Date; run_date: string; trigger: RunTrigger }

/** Owners (`host:pid`) of the unfinished runs, to tell which of them are gone. */
export async function unfinishedRunOwners(db: DbClient, shopIds?: string[]): Promise<string[]> {
  const { rows } = await db.query<{ owner: string }>(
    `select distinct owner from billing_runs
     where finished_at is null and owner is not null and ($1::bigint[] is null or shop_id = any($1::bigint[]))`,
    [shopIds ?? null],
  )
  return rows.map((r) => r.owner)
}

/**
 * Marks aborted (finished, 中断) the unfinished runs whose heartbeat is older than
 * `staleSeconds` or whose owner is one of `deadOwners`, and answers them. The update claims
 * each row once: of several processes sweeping at once, one gets it (and resumes it).
 */
export function abortRuns(
  db: DbClient,
  opts: { staleSeconds: number; deadOwners: string[]; message: string; shopIds?: string[] },
) {
  return queryRows<AbortedRun>(
    db,
    `update billing_runs r set finished_at = now(), aborted_at = now(), error = $3
     from shops s
     where s.id = r.shop_id and r.finished_at is null
       and ${abandonedSql('$2', '$1', 'r.')}
       and ($4::bigint[] is null or r.shop_id = any($4::bigint[]))
     returning r.shop_id::text, r.id::text, r.run_at, (r.run_at at time zone s.iana_timezone)::date::text as run_date,
       r.trigger`,
    [opts.staleSeconds, opts.deadOwners, opts.message, opts.shopIds ?? null],
  )
}
