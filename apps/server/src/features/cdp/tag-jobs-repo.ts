import type { TagJob } from '@teiki/contract'
import type { DbClient } from '../../db/pool.ts'

export type TagJobRow = {
  id: string
  segment_id: string
  tag: string
  status: TagJob['status']
  total: number | null
  done: number
  failed: number
  error: string | null
  created_at: Date
  finished_at: Date | null
}

/** A queued or running job not moved on for this long died with its process (a batch of 50 takes seconds). */
const STALE = `interval '10 minutes'`

// A dead job reads as failed (its process cannot end it), so the merchant may start it again.
const COLUMNS = `id::text, segment_id::text, tag,
  case when status in ('queued', 'running') and updated_at < now() - ${STALE} then 'failed' else status end as status,
  total, done, failed,
  case when status in ('queued', 'running') and updated_at < now() - ${STALE}
    then 'タグの一括追加が中断されました。もう一度実行すると、残りの顧客に追加します。' else error end as error,
  created_at, finished_at`

export async function insertTagJob(
  db: DbClient,
  shopId: string,
  segmentId: string,
  tag: string,
): Promise<TagJobRow> {
  const { rows } = await db.query<TagJobRow>(
    `insert into cdp_tag_jobs (shop_id, segment_id, tag) values ($1, $2, $3) returning ${COLUMNS}`,
    [shopId, segmentId, tag],
  )
  return rows[0]!
}

export async function latestTagJob(
  db: DbClient,
  shopId: string,
  segmentId: string,
): Promise<TagJobRow | null> {
  const { rows } = await db.query<TagJobRow>(
    `select ${COLUMNS} from cdp_tag_jobs where shop_id = $1 and segment_id = $2 order by id desc limit 1`,
    [shopId, segmentId],
  )
  return rows[0] ?? null
}

/** A batch of the segment still queued or running (one at a time per segment). */
export async function activeTagJob(
  db: DbClient,
  shopId: string,
  segmentId: string,
): Promise<TagJobRow | null> {
  const { rows } = await db.query<TagJobRow>(
    `select ${COLUMNS} from cdp_tag_jobs where shop_id = $1 and segment_id = $2 and status in ('queued', 'running')
       and updated_at >= now() - ${STALE}
     order by id desc limit 1`,
    [shopId, segmentId],
  )
  return rows[0] ?? null
}

export async function startTagJob(db: DbClient, id: string, total: number): Promise<void> {
  await db.query(`update cdp_tag_jobs set status = 'running', total = $2, updated_at = now() where id = $1`, [
    id,
    total,
  ])
}

export async function addTagJobProgress(
  db: DbClient,
  id: string,
  done: number,
  failed: number,
): Promise<void> {
  await db.query('update cdp_tag_jobs set done = done + $2, failed = failed + $3 where id = $1', [
    id,
    done,
    failed,
  ])
}

export async function finishTagJob(db: DbClient, id: string, error: string | null): Promise<void> {
  await db.query(
    `update cdp_tag_jobs set status = case when $2::text is null then 'done' else 'failed' end, error = $2,
       finished_at = now(), updated_at = now() where id = $1`,
    [id, error],
  )
}

export function toApiTagJob(row: TagJobRow): TagJob {
  return {
    id: row.id,
    tag: row.tag,
    status: row.status,
    total: row.total,
    done: row.done,
    failed: row.failed,
    error: row.error,
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at ? row.finished_at.toISOString() : null,
  }
}
