import { createWriteStream } from 'node:fs'
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { finished } from 'node:stream/promises'
import type { ExportEncoding, SegmentExportJob } from '@teiki/contract'
import { formatDateJa } from '@teiki/domain'
import { type Db, type DbClient, withTransaction } from '../../db/pool.ts'
import type { Mailer } from '../../mail/mailer.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { runTracked, type TrackedRun } from '../../runs/tracked-run.ts'
import { amountText, createCsvEncoder, csvContentType, csvLine, csvText } from '../exports/csv.ts'
import { MAIL_ATTACHMENT_LIMIT } from '../exports/export-mail.ts'
import {
  exportsWithFileDone,
  finishSegmentExport,
  insertSegmentExport,
  type SegmentExportRow,
  segmentExportRows,
  toApiSegmentExport,
} from './export-jobs-repo.ts'
import { exportFailedMail, exportFileName, exportMail } from './segment-export-mail.ts'
import { type SegmentCustomerRow, segmentCustomersAfter } from './segments-repo.ts'
import type { SegmentService } from './segments-service.ts'
import { NAMELESS, whereOf } from './segments-service.ts'

export const SEGMENT_CSV_HEADER = [
  '顧客ID',
  '顧客名',
  'メールアドレス',
  'タグ',
  '購入回数',
  'LTV',
  '通貨',
  '初回購入日',
] as const
const BATCH = 2000
/** Files a crash left behind are removed after this long (a mail's retries end within 3 hours). */
export const EXPORT_FILE_LIFETIME_MS = 24 * 3600 * 1000

export type EnqueueSegmentExport = (tx: DbClient, data: { shopId: string; exportId: string }) => Promise<void>
export type SegmentExportDeps = {
  db: Db
  mailer: Mailer
  dataDir: string
  log?: { error(obj: unknown, msg?: string): void }
}

const exportDir = (dataDir: string) => join(dataDir, 'cdp-exports')

/**
 * The request (issue 15): the segment must be this shop's (404); its name and conditions as
 * they are now are recorded with the address and encoding, with the pg-boss run in the same
 * transaction, and the answer is at once (202).
 */
export async function startSegmentExport(
  deps: { db: Db; segments: SegmentService; enqueue?: EnqueueSegmentExport },
  shop: ShopRow,
  request: { segmentId: string; email: string; encoding: ExportEncoding },
): Promise<SegmentExportJob> {
  const segment = await deps.segments.stored(shop, request.segmentId)
  const row = await withTransaction(deps.db, async (tx) => {
    const row = await insertSegmentExport(tx, {
      shopId: shop.id,
      segmentId: segment.id,
      segmentName: segment.name,
      conditions: segment.conditions,
      email: request.email,
      encoding: request.encoding,
    })
    await deps.enqueue?.(tx, { shopId: shop.id, exportId: row.id })
    return row
  })
  return toApiSegmentExport(row)
}

/**
 * Runs an export once (a dead worker's is run again from the start): the customers the recorded
 * conditions select now, as CSV (one batch of 2,000 in memory) to `cdp-exports/<id>.csv.part`,
 * renamed when complete; then the export's end and its mail in one transaction (the mail carries
 * the file when it is at most 10 MB); after the send, the file is removed unless the mail still
 * waits for a retry (the sweep removes it once the outbox is done with it).
 */
export async function runSegmentExport(deps: SegmentExportDeps, shop: ShopRow, id: string): Promise<boolean> {
  const spec = { db: deps.db, rows: segmentExportRows, shopId: shop.id, id }
  const ran = await runTracked(spec, (run) => makeOrFail(deps, shop, run))
  if (!ran?.value) return ran !== null
  const { ended, path } = ran.value
  // Decided: from here on the outbox owns the mail, and it reads the file when it sends. The file
  // goes once this send ended it (sent, stored, failed for good) or nothing was attached; while
  // a retry is due, or another sender took the mail first, the sweep removes it later.
  const [sent] = ended.mailId ? await deps.mailer.deliver([ended.mailId]) : []
  if (!ended.attach || (sent && sent.status !== 'pending')) await rm(path, { force: true })
  return true
}

type Made = { ended: { mailId: string | null; attach: boolean }; path: string }

/**
 * The claimed export: its file and end, or, when that fails, its end as failed with its mail
 * (null). A failed end throws: the tracked run hands the export back to the queue.
 */
async function makeOrFail(
  deps: SegmentExportDeps,
  shop: ShopRow,
  run: TrackedRun<SegmentExportRow>,
): Promise<Made | null> {
  const job = run.row
  const path = join(exportDir(deps.dataDir), `${job.id}.csv`)
  try {
    return { ended: await writeAndEnd(deps, shop, run, path), path }
  } catch (error) {
    // Taken over by another worker: the export (and its file) are its own now.
    run.throwIfLost()
    deps.log?.error({ err: error, exportId: job.id, shopId: shop.id }, 'segment export failed')
    await rm(`${path}.part`, { force: true }).catch(() => {})
    await rm(path, { force: true }).catch(() => {})
    await failExport(deps, shop, job)
    return null
  }
}

/** The CSV, then the export's end and its mail in one transaction. */
async function writeAndEnd(
  deps: SegmentExportDeps,
  shop: ShopRow,
  run: TrackedRun<SegmentExportRow>,
  path: string,
): Promise<{ mailId: string | null; attach: boolean }> {
  const job = run.row
  await mkdir(exportDir(deps.dataDir), { recursive: true })
  const rows = await writeSegmentCsv(deps.db, shop, run, `${path}.part`)
  await rename(`${path}.part`, path)
  const attach = (await stat(path)).size <= MAIL_ATTACHMENT_LIMIT
  const fileName = exportFileName(job, shop.iana_timezone)
  const contentType = csvContentType(job.encoding)
  const mail = exportMail(shop, job, { rows, fileName, attach, path, contentType })
  const mailId = await withTransaction(deps.db, async (tx) => {
    const mailId = await deps.mailer.enqueue(tx, mail)
    await finishSegmentExport(tx, job.id, { status: 'done', rows, fileName, mailId, error: null })
    return mailId
  })
  return { mailId, attach }
}

/** Ends an export that could not be made, with a mail that says so (once). */
async function failExport(deps: SegmentExportDeps, shop: ShopRow, job: SegmentExportRow): Promise<void> {
  const mail = exportFailedMail(shop, job)
  const mailId = await withTransaction(deps.db, async (tx) => {
    const mailId = await deps.mailer.enqueue(tx, mail)
    await finishSegmentExport(tx, job.id, {
      status: 'failed',
      rows: null,
      fileName: null,
      mailId,
      error: 'CSVの作成に失敗しました。時間をおいてもう一度お試しください。',
    })
    return mailId
  })
  if (mailId) await deps.mailer.deliver([mailId])
}

/** Writes the CSV (header, then the customers in id order); answers the rows written. */
async function writeSegmentCsv(
  db: Db,
  shop: ShopRow,
  run: TrackedRun<SegmentExportRow>,
  path: string,
): Promise<number> {
  const job = run.row
  const encoder = createCsvEncoder(job.encoding)
  const out = createWriteStream(path)
  const failed = new Promise<never>((_, reject) => out.once('error', reject))
  failed.catch(() => {})
  out.write(Buffer.concat([encoder.preamble, encoder.encode(csvLine(SEGMENT_CSV_HEADER))]))
  const where = whereOf(shop, job.conditions)
  const currency = shop.currency_code
  let rows = 0
  let after: string | null = null
  for (;;) {
    run.throwIfLost()
    const batch: SegmentCustomerRow[] = await Promise.race([
      segmentCustomersAfter(db, shop.id, where, after, BATCH),
      failed,
    ])
    let text = ''
    for (const r of batch) {
      const amount = r.amounts?.[currency]?.amount
      const ltv = amount === undefined ? '0' : amountText(String(amount), currency)
      const first = r.first_order_at ? formatDateJa(r.first_order_at, shop.iana_timezone) : ''
      text += `${r.id},${csvText(r.display_name || NAMELESS)},${csvText(r.email)},${csvText(r.tags.join(' '))},${r.order_count},${ltv},${currency},${first}\r\n`
    }
    if (!out.write(encoder.encode(text))) await new Promise<void>((resolve) => out.once('drain', resolve))
    rows += batch.length
    if (batch.length < BATCH) break
    after = batch[batch.length - 1]!.id
  }
  out.end()
  await finished(out)
  return rows
}

/**
 * The periodic sweep of `cdp-exports`: removes the files whose export has ended and whose mail
 * the outbox is done with (sent, stored or finally failed), and every file older than a day (a
 * crash between the file and its end). Answers the files removed.
 */
export async function sweepExportFiles(db: Db, dataDir: string, now = Date.now()): Promise<number> {
  const dir = exportDir(dataDir)
  const names = await readdir(dir).catch(() => [] as string[])
  const files = names.map((name) => ({ name, id: /^(\d+)\.csv(\.part)?$/.exec(name)?.[1] ?? null }))
  const done = new Set(
    await exportsWithFileDone(
      db,
      files.flatMap((f) => (f.id ? [f.id] : [])),
    ),
  )
  let removed = 0
  for (const f of files) {
    const path = join(dir, f.name)
    const old = await stat(path).then(
      (s) => now - s.mtimeMs > EXPORT_FILE_LIFETIME_MS,
      () => false,
    )
    if (old || (f.id !== null && done.has(f.id))) {
      await rm(path, { force: true })
      removed += 1
    }
  }
  return removed
}
