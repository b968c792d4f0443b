import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { mkdir, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { finished } from 'node:stream/promises'
import {
  type ExportEncoding,
  type ExportFilter,
  type ExportJob,
  type ExportRequestParsed,
  exportStatuses,
  type SubscriptionStatus,
} from '@teiki/contract'
import { formatDateTimeJa, formatNumber, statusLabel, zonedDayRange } from '@teiki/domain'
import type { Db } from '../../db/pool.ts'
import { AppError, notFound } from '../../http/app-error.ts'
import type { Mailer } from '../../mail/mailer.ts'
import type { ShopRow } from '../shops/repo.ts'
import { CSV_HEADER, createCsvEncoder, csvContentType, csvLine, csvRecord, intervalText } from './csv.ts'
import {
  countContracts,
  type ExportJobRow,
  type ExportQuery,
  failAbandonedJobs,
  findJob,
  insertJob,
  latestJobs,
  streamContractBatch,
  updateJob,
} from './repo.ts'

export const EXPORT_PATH = '/app-admin/export-subscription-contracts'
/** Files up to this size are attached to the mail; larger ones are only downloadable. */
export const MAIL_ATTACHMENT_LIMIT = 10 * 1024 * 1024
export const DEFAULT_BATCH_SIZE = 2_000

export type ExportDeps = {
  db: Db
  /** Files go to `<dataDir>/exports/<shop id>/<job id>.csv`. */
  dataDir: string
  mailer?: Mailer
  log?: { error(obj: unknown, msg?: string): void }
  batchSize?: number
  /** Largest file attached to the mail (default 10 MB). */
  mailAttachmentLimit?: number
}

const FAILED_MESSAGE = 'CSVの作成に失敗しました。時間をおいてもう一度お試しください。'

/** Records a queued job for the request (the caller runs it). */
export async function createExportJob(
  db: Db,
  shop: ShopRow,
  request: ExportRequestParsed,
): Promise<ExportJobRow> {
  const { email, encoding, ...filter } = request
  // Fail now (400) rather than in the job for a day the zone does not have.
  toQuery(shop, filter)
  return insertJob(db, { shopId: shop.id, id: randomUUID(), filter, encoding, email: email ?? null })
}

/**
 * Runs a queued export job to the end: counts the matching contracts, streams them as CSV
 * into the job's file through the encoder (one batch in memory at a time; the next batch is
 * read while the current one is written), records progress after every batch, then mails the
 * file when the job has an address. A failure is recorded on the job (status `failed`, a
 * Japanese message) rather than thrown. Answers the job as it ended.
 */
export async function runExport(deps: ExportDeps, shop: ShopRow, jobId: string): Promise<ExportJobRow> {
  const { db } = deps
  const job = await findJob(db, shop.id, jobId)
  if (!job) throw notFound('エクスポートが見つかりません。')
  if (job.status !== 'queued') return job

  const dir = join(deps.dataDir, 'exports', shop.id)
  const filePath = join(dir, `${job.id}.csv`)
  const partPath = `${filePath}.part`
  let done = 0
  try {
    await updateJob(db, shop.id, job.id, { status: 'running' })
    const query = toQuery(shop, job.filter)
    const total = await countContracts(db, query)
    await updateJob(db, shop.id, job.id, { total_rows: total })

    await mkdir(dir, { recursive: true })
    const bytes = await writeCsv(deps, query, job.encoding, partPath, async (rows) => {
      done += rows
      await updateJob(db, shop.id, job.id, { done_rows: done })
    })
    await rename(partPath, filePath)
    // Contracts created or changed while the export ran: the file is the truth. The job
    // stays `running` (at 100%) while the mail goes out, so `done` means all of it is done.
    await updateJob(db, shop.id, job.id, {
      done_rows: done,
      total_rows: done,
      file_path: filePath,
      byte_size: bytes,
    })
  } catch (error) {
    deps.log?.error({ err: error, exportId: job.id, shopId: shop.id }, 'contract export failed')
    await rm(partPath, { force: true }).catch(() => {})
    const message = error instanceof AppError ? error.message : FAILED_MESSAGE
    await updateJob(db, shop.id, job.id, { done_rows: done, error: message })
    await sendMail(deps, shop, { ...(await findJob(db, shop.id, job.id))!, status: 'failed' })
    await updateJob(db, shop.id, job.id, { status: 'failed', finished: true })
    return (await findJob(db, shop.id, job.id))!
  }

  const mailError = await sendMail(deps, shop, { ...(await findJob(db, shop.id, job.id))!, status: 'done' })
  await updateJob(db, shop.id, job.id, {
    status: 'done',
    finished: true,
    ...(mailError ? { error: mailError } : {}),
  })
  return (await findJob(db, shop.id, job.id))!
}

/** Mails the ended job when it has an address; answers the error text for the job, or null. */
async function sendMail(deps: ExportDeps, shop: ShopRow, job: ExportJobRow): Promise<string | null> {
  if (!job.email || !deps.mailer) return null
  try {
    return await mailResult(deps, shop, job)
  } catch (error) {
    deps.log?.error({ err: error, exportId: job.id }, 'export mail crashed')
    return `${job.email} へのメール送信に失敗しました。`
  }
}

/**
 * Streams the matching contracts as CSV into `path` (header first). Each row is formatted as
 * it arrives from the database and the text is encoded every ~64 KB, so memory holds about
 * one batch of encoded bytes (external, not heap) however many contracts there are; the file's
 * backpressure is honoured between batches. The batches run on one connection with parallel
 * query off: a 2,000-row index range scan gains nothing from workers and would start them
 * 50 times per 100k rows. `onBatch` gets each batch's row count. Answers the bytes written.
 */
async function writeCsv(
  deps: ExportDeps,
  query: ExportQuery,
  encoding: ExportEncoding,
  path: string,
  onBatch: (rows: number) => Promise<void>,
): Promise<number> {
  const size = deps.batchSize ?? DEFAULT_BATCH_SIZE
  const encoder = createCsvEncoder(encoding)
  const client = await deps.db.connect()
  const out = createWriteStream(path)
  let bytes = 0
  // A file error (disk full, folder gone) is kept and thrown at the next write or at the end.
  let failure: Error | null = null
  out.on('error', (error) => {
    failure = error
  })
  const write = async (chunk: Buffer) => {
    if (failure) throw failure
    bytes += chunk.length
    if (!out.write(chunk)) await once(out, 'drain')
    if (failure) throw failure
  }
  let progress: Promise<void> = Promise.resolve()
  let clean = false
  try {
    await client.query('set max_parallel_workers_per_gather = 0')
    await write(Buffer.concat([encoder.preamble, encoder.encode(csvLine(CSV_HEADER))]))
    for (let afterId = '0'; ; ) {
      const chunks: Buffer[] = []
      let text = ''
      const batch = await streamContractBatch(client, query, afterId, size, (row) => {
        text += csvRecord(row)
        if (text.length >= CHUNK_CHARS) {
          chunks.push(encoder.encode(text))
          text = ''
        }
      })
      if (text) chunks.push(encoder.encode(text))
      for (const chunk of chunks) await write(chunk)
      // The progress update (another connection) runs while the next batch is read.
      await progress
      if (batch.count > 0) {
        progress = onBatch(batch.count)
        progress.catch(() => {}) // awaited before the next one; not an unhandled rejection meanwhile
      }
      if (batch.count < size || !batch.lastId) break
      afterId = batch.lastId
    }
    await progress
    out.end()
    await finished(out)
    await client.query('reset max_parallel_workers_per_gather')
    clean = true
    return bytes
  } catch (error) {
    out.destroy()
    await progress.catch(() => {})
    throw error
  } finally {
    if (!clean) await client.query('reset max_parallel_workers_per_gather').catch(() => {})
    client.release()
  }
}

/** Text encoded at a time (characters): big enough for few calls, small enough to stay young. */
const CHUNK_CHARS = 64 * 1024

/** The job's filter as SQL values; a day the zone does not have is a 400. */
function toQuery(shop: ShopRow, filter: ExportFilter): ExportQuery {
  const zone = shop.iana_timezone
  let nextBilling: ReturnType<typeof zonedDayRange>
  let created: ReturnType<typeof zonedDayRange>
  try {
    nextBilling = zonedDayRange(filter.nextBillingDateStartDate, filter.nextBillingDateEndDate, zone)
    created = zonedDayRange(filter.createdDateStartDate, filter.createdDateEndDate, zone)
  } catch {
    throw new AppError(
      'INVALID_INPUT',
      '日付の指定が正しくありません（存在しない日付か、開始日が終了日より後です）。',
    )
  }
  return {
    shopId: shop.id,
    timeZone: zone,
    statuses: exportStatuses(filter),
    nextBillingFrom: nextBilling.start,
    nextBillingBefore: nextBilling.endExclusive,
    createdFrom: created.start,
    createdBefore: created.endExclusive,
    purchaseCountMin: filter.purchaseCountMin,
    purchaseCountMax: filter.purchaseCountMax,
    interval: filter.interval,
    intervalCount: filter.intervalCount,
  }
}

/** Sends the finished (or failed) export to the job's address; answers an error text for the job, or null. */
async function mailResult(deps: ExportDeps, shop: ShopRow, job: ExportJobRow): Promise<string | null> {
  const fileName = exportFileName(job, shop.iana_timezone)
  const shopName = shop.name || shop.domain
  const lines = [`${shopName} ご担当者様`, '']
  let subject: string
  const attachments = []
  if (job.status === 'done') {
    const size = Number(job.byte_size ?? 0)
    subject = `【Teiki】定期購買契約のCSVエクスポートが完了しました（${formatNumber(job.done_rows)}件）`
    lines.push(
      '定期購買契約のCSVエクスポートが完了しました。',
      '',
      `件数: ${formatNumber(job.done_rows)}件`,
      `ファイル: ${fileName}（${sizeText(size)}、${encodingText(job)}）`,
      `作成日時: ${formatDateTimeJa(job.created_at, shop.iana_timezone)}`,
      `絞り込み条件: ${describeFilter(job.filter)}`,
      '',
    )
    if (size <= (deps.mailAttachmentLimit ?? MAIL_ATTACHMENT_LIMIT) && job.file_path) {
      lines.push('CSVファイルを添付しました。')
      attachments.push({ filename: fileName, path: job.file_path, contentType: csvContentType(job.encoding) })
    } else {
      lines.push(
        `ファイルが大きいため（${sizeText(size)}）メールには添付していません。`,
        'Teiki の「定期購買契約」画面の「CSVエクスポート」からダウンロードしてください。',
      )
    }
  } else {
    subject = '【Teiki】定期購買契約のCSVエクスポートに失敗しました'
    lines.push(
      '定期購買契約のCSVエクスポートに失敗しました。',
      job.error ?? FAILED_MESSAGE,
      '',
      `絞り込み条件: ${describeFilter(job.filter)}`,
    )
  }
  lines.push('', '--', 'Teiki（定期）', 'このメールは送信専用です。')
  const result = await deps.mailer!.send({
    shopId: shop.id,
    to: job.email!,
    subject,
    text: lines.join('\n'),
    attachments,
  })
  if (result.status !== 'failed') return null
  deps.log?.error({ exportId: job.id, mailId: result.id, error: result.error }, 'export mail failed')
  return `CSVは作成できましたが、${job.email} へのメール送信に失敗しました。ダウンロードしてご利用ください。`
}

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

function encodingText(job: Pick<ExportJobRow, 'encoding'>): string {
  return job.encoding === 'utf-8' ? 'UTF-8（BOM付き）' : 'Shift_JIS'
}

/** The filter in the merchant's words, for the mail. */
export function describeFilter(filter: ExportFilter): string {
  const parts: string[] = []
  const statuses: SubscriptionStatus[] = exportStatuses(filter)
  if (statuses.length > 0) parts.push(`ステータス ${statuses.map((s) => statusLabel[s]).join('・')}`)
  const range = (label: string, from?: string, to?: string) => {
    if (from || to) parts.push(`${label} ${from ?? ''}〜${to ?? ''}`)
  }
  range('次回請求日', filter.nextBillingDateStartDate, filter.nextBillingDateEndDate)
  range('作成日', filter.createdDateStartDate, filter.createdDateEndDate)
  if (filter.purchaseCountMin !== undefined || filter.purchaseCountMax !== undefined) {
    parts.push(`購入回数 ${filter.purchaseCountMin ?? ''}〜${filter.purchaseCountMax ?? ''}回`)
  }
  if (filter.interval) parts.push(`請求間隔 ${intervalText(filter.interval, filter.intervalCount ?? 1)}`)
  else if (filter.intervalCount !== undefined) parts.push(`請求間隔の数 ${filter.intervalCount}`)
  return parts.length > 0 ? parts.join(' / ') : 'なし（すべての契約）'
}

const fileNameFormatters = new Map<string, Intl.DateTimeFormat>()

/** `subscriptions-20261122-1305.csv`: when the export was asked for, in the shop's zone. */
export function exportFileName(job: Pick<ExportJobRow, 'created_at'>, timeZone: string): string {
  let format = fileNameFormatters.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
    fileNameFormatters.set(timeZone, format)
  }
  const part: Record<string, string> = {}
  for (const { type, value } of format.formatToParts(job.created_at)) part[type] = value
  return `subscriptions-${part.year}${part.month}${part.day}-${part.hour}${part.minute}.csv`
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
  await failAbandonedJobs(db, shop.id)
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

/**
 * Runs jobs in this process, a few at a time (each holds a database connection or two and a
 * file); the rest wait as `queued`. `close()` waits for the running ones and marks the waiting
 * ones failed, so a stopping server leaves no job that looks alive.
 */
export function createExportRunner(deps: ExportDeps & { concurrency?: number }) {
  const limit = deps.concurrency ?? 2
  const waiting: Array<{ shop: ShopRow; id: string }> = []
  const running = new Set<Promise<unknown>>()
  let closed = false

  const pump = () => {
    while (!closed && running.size < limit && waiting.length > 0) {
      const { shop, id } = waiting.shift()!
      const run = runExport(deps, shop, id)
        .catch((error) => deps.log?.error({ err: error, exportId: id }, 'contract export crashed'))
        .finally(() => {
          running.delete(run)
          pump()
        })
      running.add(run)
    }
  }

  return {
    start(shop: ShopRow, id: string) {
      waiting.push({ shop, id })
      pump()
    },
    async close() {
      closed = true
      const dropped = waiting.splice(0)
      await Promise.all([
        ...running,
        ...dropped.map(({ shop, id }) =>
          updateJob(deps.db, shop.id, id, {
            status: 'failed',
            error: 'サーバーの停止により中断されました。もう一度エクスポートしてください。',
            finished: true,
          }).catch(() => {}),
        ),
      ])
    },
  }
}
