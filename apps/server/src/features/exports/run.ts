import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { mkdir, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { finished } from 'node:stream/promises'
import type { ExportEncoding } from '@teiki/contract'
import { type Db, withTransaction } from '../../db/pool.ts'
import { AppError } from '../../http/app-error.ts'
import type { Mailer } from '../../mail/mailer.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { runTracked, type TrackedRun } from '../../runs/tracked-run.ts'
import { CSV_HEADER, createCsvEncoder, csvLine, csvRecord } from './csv.ts'
import { EXPORT_FAILED_MESSAGE, exportMail } from './export-mail.ts'
import { toQuery } from './filter-query.ts'
import {
  countContracts,
  type ExportJobRow,
  type ExportQuery,
  exportRows,
  findJob,
  streamContractBatch,
  updateJob,
} from './repo.ts'

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

/** The job is being run by another worker right now (its heartbeat is fresh): try later. */
export class ExportBusy extends Error {
  constructor(id: string) {
    super(`export ${id} is running in another worker`)
    this.name = 'ExportBusy'
  }
}

/**
 * Runs an export job to the end, once: the job is claimed first as a tracked run
 * (runs/tracked-run.ts: queued, or running under a worker that died: its owner gone, or its
 * heartbeat 2 minutes old), so a second worker or a retried queue job never runs it twice at
 * once, and a crashed run is run again from the start (the file is written under `.part` and
 * renamed at the end). Counts the matching contracts, streams them as CSV into the
 * job's file (one batch in memory at a time), records progress after every batch, then ends
 * the job and decides its mail in one transaction (mail_outbox), and sends the mail. A failure
 * is recorded on the job (status `failed`, a Japanese message) rather than thrown. Answers the
 * job as it ended; throws ExportBusy when another worker is running it.
 */
export async function runExport(deps: ExportDeps, shop: ShopRow, jobId: string): Promise<ExportJobRow> {
  const { db } = deps
  const ran = await runTracked({ db, rows: exportRows, shopId: shop.id, id: jobId }, (run) =>
    writeAndEnd(deps, shop, run),
  )
  if (ran) return ran.value
  const current = await findJob(db, shop.id, jobId)
  if (current?.status === 'running') throw new ExportBusy(jobId)
  if (!current) throw new AppError('NOT_FOUND', 'エクスポートが見つかりません。')
  return current
}

/** The claimed job: its file, then its end (done, or failed with a Japanese message). */
async function writeAndEnd(deps: ExportDeps, shop: ShopRow, run: TrackedRun<ExportJobRow>) {
  const { db } = deps
  const job = run.row
  const dir = join(deps.dataDir, 'exports', shop.id)
  const filePath = join(dir, `${job.id}.csv`)
  const partPath = `${filePath}.part`
  let done = 0
  try {
    const query = toQuery(shop, job.filter)
    await updateJob(db, shop.id, job.id, { total_rows: await countContracts(db, query), done_rows: 0 })
    await mkdir(dir, { recursive: true })
    const bytes = await writeCsv(deps, query, job.encoding, partPath, async (rows) => {
      // Taken over by another worker (this one was silent too long): the file is its own now.
      run.throwIfLost()
      done += rows
      await updateJob(db, shop.id, job.id, { done_rows: done })
    })
    await rename(partPath, filePath)
    // Contracts created or changed while the export ran: the file is the truth.
    return await end(deps, shop, job.id, {
      status: 'done',
      done_rows: done,
      total_rows: done,
      file_path: filePath,
      byte_size: bytes,
    })
  } catch (error) {
    run.throwIfLost()
    deps.log?.error({ err: error, exportId: job.id, shopId: shop.id }, 'contract export failed')
    await rm(partPath, { force: true }).catch(() => {})
    const message = error instanceof AppError ? error.message : EXPORT_FAILED_MESSAGE
    return end(deps, shop, job.id, { status: 'failed', done_rows: done, error: message })
  }
}

/**
 * Ends the job and decides its mail in one transaction, so a crash can neither end a job
 * without its mail nor mail about a job that did not end; then sends the mail. A mail that
 * could not go out at once is retried by the outbox; the job says so, and the file stays
 * downloadable.
 */
async function end(
  deps: ExportDeps,
  shop: ShopRow,
  id: string,
  patch: Parameters<typeof updateJob>[3] & { status: 'done' | 'failed' },
): Promise<ExportJobRow> {
  const { db, mailer } = deps
  const { ended, mailId } = await withTransaction(db, async (tx) => {
    await updateJob(tx, shop.id, id, { ...patch, finished: true })
    const ended = (await findJob(tx, shop.id, id))!
    const mail = mailer && (await exportMail(tx, shop, ended, deps.mailAttachmentLimit))
    return { ended, mailId: mail ? await mailer.enqueue(tx, mail) : null }
  })
  if (!mailId || !mailer) return ended
  const [result] = await mailer.deliver([mailId])
  if (!result || result.status === 'sent' || result.status === 'stored') return ended
  deps.log?.error({ exportId: id, mailId, error: result.error }, 'export mail not sent yet')
  const error =
    ended.status === 'done'
      ? `CSVは作成できましたが、${ended.email} へのメール送信に失敗しました（自動で再送します）。ダウンロードしてご利用ください。`
      : ended.error
  await updateJob(db, shop.id, id, { error })
  return (await findJob(db, shop.id, id))!
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
