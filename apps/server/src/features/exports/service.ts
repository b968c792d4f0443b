import { randomUUID } from 'node:crypto'
import { stat } from 'node:fs/promises'
import type { ExportJob, ExportRequestParsed } from '@teiki/contract'
import { type Db, type DbClient, withTransaction } from '../../db/pool.ts'
import { AppError, notFound } from '../../http/app-error.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { csvContentType } from './csv.ts'
import { exportFileName } from './file-name.ts'
import { toQuery } from './filter-query.ts'
import { type ExportJobRow, findJob, insertJob, latestJobs } from './repo.ts'

export const EXPORT_PATH = '/app-admin/export-subscription-contracts'

/** Puts a recorded job on the job queue, in the transaction that records it. */
export type EnqueueExport = (tx: DbClient, job: { shopId: string; exportId: string }) => Promise<void>

/**
 * Records a queued job for the request and, in the same transaction, its run on the job queue
 * (when the app has one): the job and its run exist together or not at all.
 */
export async function createExportJob(
  db: Db,
  shop: ShopRow,
  request: ExportRequestParsed,
  enqueue?: EnqueueExport,
): Promise<ExportJobRow> {
  const { email, encoding, ...filter } = request
  // Fail now (400) rather than in the job for a day the zone does not have.
  toQuery(shop, filter)
  return withTransaction(db, async (tx) => {
    const job = await insertJob(tx, {
      shopId: shop.id,
      id: randomUUID(),
      filter,
      encoding,
      email: email ?? null,
    })
    await enqueue?.(tx, { shopId: shop.id, exportId: job.id })
    return job
  })
}

export function toApiJob(job: ExportJobRow, timeZone: string): ExportJob {
  return {
    id: job.id,
    status: job.status,
    encoding: job.encoding,
    email: job.email,
    totalRows: job.total_rows,
    doneRows: job.done_rows,
    byteSize: job.byte_size === null ? null : Number(job.byte_size),
    error: job.error,
    createdAt: job.created_at.toISOString(),
    finishedAt: job.finished_at ? job.finished_at.toISOString() : null,
    fileName: exportFileName(job, timeZone),
    downloadPath: job.status === 'done' ? `${EXPORT_PATH}/${job.id}/download` : null,
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The shop's job, or 404 (another shop's id and a malformed id alike). */
export async function getExportJob(db: Db, shop: ShopRow, id: string): Promise<ExportJobRow> {
  if (!UUID.test(id)) throw notFound('エクスポートが見つかりません。')
  const job = await findJob(db, shop.id, id)
  if (!job) throw notFound('エクスポートが見つかりません。')
  return job
}

export async function listExportJobs(db: Db, shop: ShopRow, limit = 10): Promise<ExportJobRow[]> {
  return latestJobs(db, shop.id, limit)
}

/** The finished file of a job: 409 while it runs or when it failed, 404 when it is gone. */
export async function exportFile(
  db: Db,
  shop: ShopRow,
  id: string,
): Promise<{ path: string; size: number; fileName: string; contentType: string }> {
  const job = await getExportJob(db, shop, id)
  if (job.status === 'failed') {
    throw new AppError(
      'CONFLICT',
      'このエクスポートは失敗したためダウンロードできません。もう一度エクスポートしてください。',
    )
  }
  if (job.status !== 'done' || !job.file_path) {
    throw new AppError(
      'CONFLICT',
      'エクスポートはまだ完了していません。完了してからダウンロードしてください。',
    )
  }
  const size = await stat(job.file_path).then(
    (s) => s.size,
    () => null,
  )
  if (size === null)
    throw notFound('エクスポートのファイルが見つかりません。もう一度エクスポートしてください。')
  return {
    path: job.file_path,
    size,
    fileName: exportFileName(job, shop.iana_timezone),
    contentType: csvContentType(job.encoding),
  }
}
