import { describeConditions, formatNumber } from '@teiki/domain'
import type { MailMessage } from '../../mail/mailer.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import type { SegmentExportRow } from './export-jobs-repo.ts'

const SIGNATURE = ['', '--', 'Teiki（定期）', 'このメールは送信専用です。']

/** `segment-<id>-20261125-1605.csv`: the segment and the request's time in the shop's zone. */
export function exportFileName(job: SegmentExportRow, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(job.created_at)
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
  return `segment-${job.segment_id}-${get('year')}${get('month')}${get('day')}-${get('hour')}${get('minute')}.csv`
}

/** The mail that carries the file (one per export: `cdp-export:<id>`). */
export function exportMail(
  shop: ShopRow,
  job: SegmentExportRow,
  file: { rows: number; fileName: string; attach: boolean; path: string; contentType: string },
): MailMessage {
  const text = [
    `${shop.name || shop.domain} ご担当者様`,
    '',
    `セグメント「${job.segment_name}」の顧客リスト（CSV）をお送りします。`,
    '',
    `件数: ${formatNumber(file.rows)}件`,
    `条件: ${describeConditions(job.conditions, shop.currency_code).join(' / ')}`,
    `ファイル: ${file.fileName}（${job.encoding === 'utf-8' ? 'UTF-8（BOM付き）' : 'Shift_JIS'}）`,
    '',
    file.attach
      ? 'CSVファイルを添付しました。'
      : 'ファイルが大きいため（10 MB超）添付していません。条件を絞ってもう一度お試しください。',
    ...SIGNATURE,
  ].join('\n')
  return {
    shopId: shop.id,
    to: job.email,
    subject: `【Teiki】セグメント「${job.segment_name}」の顧客リスト（${formatNumber(file.rows)}件）`,
    text,
    attachments: file.attach
      ? [{ filename: file.fileName, path: file.path, contentType: file.contentType }]
      : [],
    dedupeKey: `cdp-export:${job.id}`,
  }
}

/** The mail about an export that could not be made (the same key: one mail per export). */
export function exportFailedMail(shop: ShopRow, job: SegmentExportRow): MailMessage {
  return {
    shopId: shop.id,
    to: job.email,
    subject: `【Teiki】セグメント「${job.segment_name}」の顧客リストを作成できませんでした`,
    text: [
      `${shop.name || shop.domain} ご担当者様`,
      '',
      `セグメント「${job.segment_name}」の顧客リスト（CSV）の作成に失敗しました。`,
      '時間をおいて、セグメントの画面からもう一度お試しください。',
      ...SIGNATURE,
    ].join('\n'),
    dedupeKey: `cdp-export:${job.id}`,
  }
}
