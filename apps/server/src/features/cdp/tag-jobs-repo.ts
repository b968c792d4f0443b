import type { TagJob } from '@teiki/contract'
import type { SegmentConditions } from '@teiki/domain'
import { type DbClient, queryRow, queryRows } from '../../db/pool.ts'

// The tag batches' rows as the routes read and write them (the runner's SQL: tag-run-repo.ts).

export type TagJobRow = {
  id: string
  shop_id: string
  segment_id: string
  tag: string
  conditions: SegmentConditions | null
  status: TagJob['status']
  total: number | null
  done: number
  failed: number
  error: string | null
  created_at: Date
  finished_at: Date | null
}

export const TAG_JOB_COLUMNS = `id::text, shop_id::text, segment_id::text, tag, conditions, status, total, done,
  failed, error, created_at, finished_at`

/** Failed customers the screen lists under the result. */
export const FAILURES_LISTED = 20

export async function insertTagJob(
  db: DbClient,
  shopId: string,
  segmentId: string,
  tag: string,
  conditions: SegmentConditions,
): Promise<TagJobRow> {
  const { rows } = await db.query<TagJobRow>(
    `insert into cdp_tag_jobs (shop_id, segment_id, tag, conditions) values ($1, $2, $3, $4)
     returning ${TAG_JOB_COLUMNS}`,
    [shopId, segmentId, tag, JSON.stringify(conditions)],
  )
  return rows[0]!
}

export function latestTagJob(db: DbClient, shopId: string, segmentId: string) {
  return queryRow<TagJobRow>(
    db,
    `select ${TAG_JOB_COLUMNS} from cdp_tag_jobs where shop_id = $1 and segment_id = $2 order by id desc limit 1`,
    [shopId, segmentId],
  )
}

/**
 * A batch of the segment still queued or running (one at a time per segment). A batch whose
 * worker died stays open: the sweep (jobs/cdp-jobs.ts) hands it to another worker.
 */
export function activeTagJob(db: DbClient, shopId: string, segmentId: string) {
  return queryRow<TagJobRow>(
    db,
    `select ${TAG_JOB_COLUMNS} from cdp_tag_jobs
     where shop_id = $1 and segment_id = $2 and status in ('queued', 'running')
     order by id desc limit 1`,
    [shopId, segmentId],
  )
}

export type TagFailure = { customer_id: string; name: string; reason: string | null }

/** The first failed customers of a batch with the platform's reason. */
export function tagJobFailures(db: DbClient, shopId: string, jobId: string, limit = FAILURES_LISTED) {
  return queryRows<TagFailure>(
    db,
    `select i.customer_id::text, coalesce(c.display_name, '') as name, i.reason
     from cdp_tag_job_items i
     left join customers c on c.shop_id = i.shop_id and c.id = i.customer_id
     where i.job_id = $2 and i.shop_id = $1 and i.status = 'failed'
     order by i.customer_id limit $3`,
    [shopId, jobId, limit],
  )
}

export function toApiTagJob(row: TagJobRow, failures: TagFailure[] = []): TagJob {
  return {
    id: row.id,
    tag: row.tag,
    status: row.status,
    total: row.total,
    done: row.done,
    failed: row.failed,
    error: row.error,
    failures: failures.map((f) => ({ customerId: f.customer_id, name: f.name, reason: f.reason ?? '' })),
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at ? row.finished_at.toISOString() : null,
  }
}
