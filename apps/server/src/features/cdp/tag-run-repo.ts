import type { DbClient } from '../../db/pool.ts'
import type { SegmentWhere } from './segment-sql.ts'
import { FROM_CUSTOMERS } from './segments-repo.ts'
import { TAG_JOB_COLUMNS, type TagJobRow } from './tag-jobs-repo.ts'

// The tag batch runner's SQL (the batch feature's design, features/batch/run-repo.ts): claiming a
// job, its snapshot of customers, recording each customer once with the job's counts, and
// finding jobs whose worker died.

/** A running job whose worker has written nothing for this long counts as abandoned. */
export const TAG_STALE_SECONDS = 120

/**
 * Takes the job for `owner`: a queued one, or a running one whose worker is gone (its owner
 * among `deadOwners`, or silent for TAG_STALE_SECONDS). Null when it is not there to take.
 */
export async function claimTagJob(
  db: DbClient,
  shopId: string,
  id: string,
  owner: string,
  deadOwners: string[],
): Promise<TagJobRow | null> {
  const { rows } = await db.query<TagJobRow>(
    `update cdp_tag_jobs set status = 'running', owner = $3, heartbeat_at = now(), updated_at = now()
     where shop_id = $1 and id = $2
       and (status = 'queued' or (status = 'running'
         and (owner = any($4::text[]) or heartbeat_at < now() - make_interval(secs => $5))))
     returning ${TAG_JOB_COLUMNS}`,
    [shopId, id, owner, deadOwners, TAG_STALE_SECONDS],
  )
  return rows[0] ?? null
}

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
export async function pendingCustomers(
  db: DbClient,
  jobId: string,
  afterId: string,
  limit: number,
): Promise<PendingCustomer[]> {
  const { rows } = await db.query<PendingCustomer>(
    `select customer_id::text, status = 'applying' as attempted from cdp_tag_job_items
     where job_id = $1 and status in ('pending', 'applying') and customer_id > $2
     order by customer_id limit $3`,
    [jobId, afterId, limit],
  )
  return rows
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

/** Says the worker is alive. */
export async function touchTagJob(db: DbClient, id: string): Promise<void> {
  await db.query('update cdp_tag_jobs set heartbeat_at = now() where id = $1', [id])
}

/** Ends the job (only once); null when it had ended. */
export async function finishTagJob(
  db: DbClient,
  id: string,
  status: 'done' | 'failed',
  error: string | null,
): Promise<TagJobRow | null> {
  const { rows } = await db.query<TagJobRow>(
    `update cdp_tag_jobs set status = $2, error = $3, finished_at = now(), updated_at = now(), owner = null
     where id = $1 and status in ('queued', 'running') returning ${TAG_JOB_COLUMNS}`,
    [id, status, error],
  )
  return rows[0] ?? null
}

/** Hands a job back to the queue (its worker hit trouble): the next claim takes it at once. */
export async function releaseTagJob(db: DbClient, id: string): Promise<void> {
  await db.query(
    `update cdp_tag_jobs set status = 'queued', owner = null where id = $1 and status = 'running'`,
    [id],
  )
}

/** Owners of running jobs (to tell which of them are dead processes). */
export async function runningTagOwners(db: DbClient): Promise<string[]> {
  const { rows } = await db.query<{ owner: string }>(
    `select distinct owner from cdp_tag_jobs where status = 'running' and owner is not null`,
  )
  return rows.map((r) => r.owner)
}

/** Jobs that need a worker: queued ones not started for a minute, running ones whose worker is gone. */
export async function orphanTagJobs(
  db: DbClient,
  deadOwners: string[],
): Promise<Array<{ shop_id: string; id: string }>> {
  const { rows } = await db.query<{ shop_id: string; id: string }>(
    `select shop_id::text, id::text from cdp_tag_jobs
     where (status = 'queued' and updated_at < now() - interval '1 minute')
        or (status = 'running' and (owner = any($1::text[])
          or heartbeat_at < now() - make_interval(secs => $2)))
     order by id limit 100`,
    [deadOwners, TAG_STALE_SECONDS],
  )
  return rows
}
