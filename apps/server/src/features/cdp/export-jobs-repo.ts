import type { ExportEncoding, SegmentExportJob } from '@teiki/contract'
import type { SegmentConditions } from '@teiki/domain'
import { type DbClient, queryRow } from '../../db/pool.ts'
import { jobTable } from '../../runs/job-rows.ts'

// The segment exports' rows (`cdp-customer-list-export` as a job, migration 0029).

export type SegmentExportRow = {
  id: string
  shop_id: string
  segment_id: string
  segment_name: string
  conditions: SegmentConditions
  email: string
  encoding: ExportEncoding
  status: SegmentExportJob['status']
  row_count: number | null
  file_name: string | null
  mail_id: string | null
  error: string | null
  created_at: Date
  finished_at: Date | null
}

const COLUMNS = `id::text, shop_id::text, segment_id::text, segment_name, conditions, email, encoding, status,
  row_count, file_name, mail_id::text, error, created_at, finished_at`

/** The segment exports' rows as the runner claims them (runs/job-rows.ts, runs/tracked-run.ts). */
export const segmentExportRows = jobTable<SegmentExportRow>({
  table: 'cdp_segment_exports',
  columns: COLUMNS,
  orphanOrder: 'id',
})

export async function insertSegmentExport(
  db: DbClient,
  e: {
    shopId: string
    segmentId: string
    segmentName: string
    conditions: SegmentConditions
    email: string
    encoding: ExportEncoding
  },
): Promise<SegmentExportRow> {
  const { rows } = await db.query<SegmentExportRow>(
    `insert into cdp_segment_exports (shop_id, segment_id, segment_name, conditions, email, encoding)
     values ($1, $2, $3, $4, $5, $6) returning ${COLUMNS}`,
    [e.shopId, e.segmentId, e.segmentName, JSON.stringify(e.conditions), e.email, e.encoding],
  )
  return rows[0]!
}

export function latestSegmentExport(db: DbClient, shopId: string, segmentId: string) {
  return queryRow<SegmentExportRow>(
    db,
    `select ${COLUMNS} from cdp_segment_exports where shop_id = $1 and segment_id = $2 order by id desc limit 1`,
    [shopId, segmentId],
  )
}

/** Ends the export (once; null when it had ended), in the caller's transaction with its mail. */
export async function finishSegmentExport(
  db: DbClient,
  id: string,
  end: {
    status: 'done' | 'failed'
    rows: number | null
    fileName: string | null
    mailId: string | null
    error: string | null
  },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `update cdp_segment_exports set status = $2, row_count = $3, file_name = $4, mail_id = $5, error = $6,
       owner = null, finished_at = now(), updated_at = now()
     where id = $1 and status in ('queued', 'running')`,
    [id, end.status, end.rows, end.fileName, end.mailId, end.error],
  )
  return (rowCount ?? 0) > 0
}

/**
 * Of these exports, the ones whose file is no longer needed: ended, and their mail sent, stored,
 * finally failed, or never decided (a failed export, an over-large file that was not attached).
 */
export async function exportsWithFileDone(db: DbClient, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return []
  const { rows } = await db.query<{ id: string }>(
    `select e.id::text from cdp_segment_exports e
     left join mail_outbox m on m.id = e.mail_id
     where e.id = any($1::bigint[]) and e.status in ('done', 'failed')
       and (m.id is null or m.status not in ('pending', 'sending'))`,
    [ids],
  )
  return rows.map((r) => r.id)
}

export function toApiSegmentExport(row: SegmentExportRow): SegmentExportJob {
  return {
    id: row.id,
    status: row.status,
    email: row.email,
    rows: row.row_count,
    fileName: row.file_name,
    error: row.error,
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at ? row.finished_at.toISOString() : null,
  }
}
