import { type DbClient, queryRow, queryRows } from '../../db/pool.ts'
import { jobTable } from '../../runs/job-rows.ts'
import type { SegmentWhere } from './segment-sql.ts'
import { FROM_CUSTOMERS } from './segments-repo.ts'
import { TAG_JOB_COLUMNS, type TagJobRow } from './tag-jobs-repo.ts'

// The tag batch runner's SQL (the batch feature's design, features/batch/run-repo.ts): claiming a
// job, its snapshot of customers, recording each customer once with the job's counts, and
// finding jobs whose worker died.

/** The tag jobs' rows as the runner claims them (runs/job-rows.ts, runs/tracked-run.ts). */
export const tagJobRows = jobTable<TagJobRow>({
  table: 'cdp_tag_jobs',
  columns: TAG_JOB_COLUMNS,
  orphanOrder: 'id',
})

/**
 * The snapshot: every customer of the segment now, one pending row each, and the job's total,
 * in the caller's transaction (a worker killed mid-way leaves no half snapshot). Done once: a
 * job with a total keeps its rows.
 */
export async function snapshotTagJob(
  db: DbClient,
  shopId: string,
  jobId: string,
  where: (firstParam: number) => SegmentWhere,
): Promise<number> {
  const w = where(3)
  const { rows } = await db.query<{ n: number }>(
    `with job as (select id from cdp_tag_jobs where shop_id = $1 and id = $2 and total is null for update),
     ins as (
       insert into cdp_tag_job_items (shop_id, job_id, customer_id)
       select $1, (select id from job), cu.id ${FROM_CUSTOMERS}
       where exists (select 1 from job) and cu.shop_id = $1 and ${w.sql}
       returning 1)
     update cdp_tag_jobs set total = (select count(*)::int from ins), updated_at = now()
     where id = (select id from job) returning total as n`,
    [shopId, jobId, ...w.params],
  )
  return rows[0]?.n ?? -1
}

export type PendingCustomer = { customer_id: string; attempted: boolean }

/** The next undecided customers after `afterId` ('applying': asked for by a worker that died). */
export function pendingCustomers(db: DbClient, jobId: string, afterId: string, limit: number) {
  return queryRows<PendingCustomer>(
    db,
    `select customer_id::text, status = 'applying' as attempted from cdp_tag_job_items
     where job_id = $1 and status in ('pending', 'applying') and customer_id > $2
     order by customer_id limit $3`,
    [jobId, afterId, limit],
  )
}

/** Marks the row before the platform is asked: after a crash it is read first, not re-tagged. */
export async function markApplying(db: DbClient, jobId: string, customerId: string): Promise<void> {
  await db.query(
    `update cdp_tag_job_items set status = 'applying' where job_id = $1 and customer_id = $2 and status = 'pending'`,
    [jobId, customerId],
  )
}

/**
 * Records one customer's outcome and counts it on the job, in one statement: a row already
 * decided (by a worker before a crash, or another worker) is neither changed nor counted again.
 */
export async function recordCustomer(
  db: DbClient,
  jobId: string,
  customerId: string,
  result: 'done' | 'failed',
  reason: string | null,
): Promise<void> {
  await db.query(
    `with decided as (
       update cdp_tag_job_items set status = $3, reason = $4
       where job_id = $1 and customer_id = $2 and status in ('pending', 'applying')
       returning 1)
     update cdp_tag_jobs set ${result} = ${result} + (select count(*)::int from decided),
       heartbeat_at = now(), updated_at = now()
     where id = $1`,
    [jobId, customerId, result, reason],
  )
}

/** Ends the job (only once); null when it had ended. */
export function finishTagJob(db: DbClient, id: string, status: 'done' | 'failed', error: string | null) {
  return queryRow<TagJobRow>(
    db,
    `update cdp_tag_jobs set status = $2, error = $3, finished_at = now(), updated_at = now(), owner = null
     where id = $1 and status in ('queued', 'running') returning ${TAG_JOB_COLUMNS}`,
    [id, status, error],
  )
}
