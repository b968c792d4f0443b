import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { finished } from 'node:stream/promises'
import type { ExportEncoding } from '@teiki/contract'
import { describeConditions, formatDateJa, formatNumber } from '@teiki/domain'
import { type Db, withTransaction } from '../../db/pool.ts'
import type { Mailer } from '../../mail/mailer.ts'
import { amountText, createCsvEncoder, csvContentType, csvLine, csvText } from '../exports/csv.ts'
import { MAIL_ATTACHMENT_LIMIT } from '../exports/export-mail.ts'
import type { ShopRow } from '../shops/repo.ts'
import type { SegmentRow } from './segments-repo.ts'
import { segmentCustomersAfter } from './segments-repo.ts'
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

/** `segment-<id>-20261125-1605.csv` in the shop's zone. */
function fileNameOf(segmentId: string, now: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now)
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
  return `segment-${segmentId}-${get('year')}${get('month')}${get('day')}-${get('hour')}${get('minute')}.csv`
}

/**
 * The segment's customers as CSV (one batch in memory at a time) into the data folder, then the
 * mail that carries it decided in the outbox and sent (the contract export's way: a mail that
 * cannot be sent now is retried by the outbox drain). Answers the rows written.
 */
export async function exportSegment(
  deps: { db: Db; mailer: Mailer; dataDir: string },
  shop: ShopRow,
  segment: SegmentRow,
  to: string,
  encoding: ExportEncoding,
): Promise<{ rows: number; fileName: string }> {
  const dir = join(deps.dataDir, 'cdp-exports')
  await mkdir(dir, { recursive: true })
  const now = new Date()
  const fileName = fileNameOf(segment.id, now, shop.iana_timezone)
  const path = join(dir, `${randomUUID()}.csv`)
  const encoder = createCsvEncoder(encoding)
  const out = createWriteStream(path)
  out.write(Buffer.concat([encoder.preamble, encoder.encode(csvLine(SEGMENT_CSV_HEADER))]))
  const where = whereOf(shop, segment.conditions)
  let rows = 0
  let after: string | null = null
  for (;;) {
    const batch = await segmentCustomersAfter(deps.db, shop.id, where, after, BATCH)
    let text = ''
    for (const r of batch) {
      const amount = r.amounts?.[shop.currency_code]?.amount
      text += `${r.id},${csvText(r.display_name || NAMELESS)},${csvText(r.email)},${csvText(r.tags.join(' '))},${r.order_count},${amount === undefined ? '0' : amountText(String(amount), shop.currency_code)},${shop.currency_code},${r.first_order_at ? formatDateJa(r.first_order_at, shop.iana_timezone) : ''}\r\n`
    }
    if (!out.write(encoder.encode(text)))
      await new Promise<void>((resolve) => out.once('drain', () => resolve()))
    rows += batch.length
    if (batch.length < BATCH) break
    after = batch[batch.length - 1]!.id
  }
  out.end()
  await finished(out)
  const size = (await stat(path)).size
  const attach = size <= MAIL_ATTACHMENT_LIMIT
  const text = [
    `${shop.name || shop.domain} ご担当者様`,
    '',
    `セグメント「${segment.name}」の顧客リスト（CSV）をお送りします。`,
    '',
    `件数: ${formatNumber(rows)}件`,
    `条件: ${describeConditions(segment.conditions, shop.currency_code).join(' / ')}`,
    `ファイル: ${fileName}（${encoding === 'utf-8' ? 'UTF-8（BOM付き）' : 'Shift_JIS'}）`,
    '',
    attach
      ? 'CSVファイルを添付しました。'
      : 'ファイルが大きいため（10 MB超）添付していません。条件を絞ってもう一度お試しください。',
    '',
    '--',
    'Teiki（定期）',
    'このメールは送信専用です。',
  ].join('\n')
  const mailId = await withTransaction(deps.db, (tx) =>
    deps.mailer.enqueue(tx, {
      shopId: shop.id,
      to,
      subject: `【Teiki】セグメント「${segment.name}」の顧客リスト（${formatNumber(rows)}件）`,
      text,
      attachments: attach ? [{ filename: fileName, path, contentType: csvContentType(encoding) }] : [],
      dedupeKey: `cdp-export:${randomUUID()}`,
    }),
  )
  if (mailId) await deps.mailer.deliver([mailId])
  return { rows, fileName }
}
