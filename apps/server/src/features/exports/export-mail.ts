import { type ExportFilter, exportStatuses, type SubscriptionStatus } from '@teiki/contract'
import { billingIntervalLabel, formatDateTimeJa, statusLabel } from '@teiki/domain'
import type { DbClient } from '../../db/pool.ts'
import type { MailMessage } from '../../mail/mailer.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { composeMail } from '../mail-templates/service.ts'
import { csvContentType } from './csv.ts'
import { exportFileName } from './file-name.ts'
import type { ExportJobRow } from './repo.ts'

/** Files up to this size are attached to the mail; larger ones are only downloadable. */
export const MAIL_ATTACHMENT_LIMIT = 10 * 1024 * 1024

export const EXPORT_FAILED_MESSAGE = 'CSVの作成に失敗しました。時間をおいてもう一度お試しください。'

/**
 * The mail about an ended export (done or failed) for the job's address; null without one.
 * One mail per export (`export:<id>`), however many times the job's end is reached. A done
 * export is written with the shop's `export_ready` template (メールテンプレート); a failed one
 * with the fixed text below.
 */
export async function exportMail(
  db: DbClient,
  shop: ShopRow,
  job: ExportJobRow,
  attachmentLimit = MAIL_ATTACHMENT_LIMIT,
): Promise<MailMessage | null> {
  if (!job.email) return null
  const fileName = exportFileName(job, shop.iana_timezone)
  if (job.status === 'done') {
    const size = Number(job.byte_size ?? 0)
    const attach = size <= attachmentLimit && job.file_path
    const details = [
      `作成日時: ${formatDateTimeJa(job.created_at, shop.iana_timezone)}`,
      `絞り込み条件: ${describeFilter(job.filter)}`,
      '',
      ...(attach
        ? ['CSVファイルを添付しました。']
        : [
            `ファイルが大きいため（${sizeText(size)}）メールには添付していません。`,
            'Teiki の「定期購買契約」画面の「CSVエクスポート」からダウンロードしてください。',
          ]),
    ]
    return composeMail(db, shop, {
      type: 'export_ready',
      to: job.email,
      values: {
        exportCount: job.done_rows,
        exportFileName: `${fileName}（${sizeText(size)}、${encodingText(job)}）`,
        exportDetails: details.join('\n'),
      },
      dedupeKey: `export:${job.id}`,
      attachments: attach
        ? [{ filename: fileName, path: job.file_path!, contentType: csvContentType(job.encoding) }]
        : [],
    })
  }
  const lines = [
    `${shop.name || shop.domain} ご担当者様`,
    '',
    '定期購買契約のCSVエクスポートに失敗しました。',
    job.error ?? EXPORT_FAILED_MESSAGE,
    '',
    `絞り込み条件: ${describeFilter(job.filter)}`,
    '',
    '--',
    'Teiki（定期）',
    'このメールは送信専用です。',
  ]
  return {
    shopId: shop.id,
    to: job.email,
    subject: '【Teiki】定期購買契約のCSVエクスポートに失敗しました',
    text: lines.join('\n'),
    dedupeKey: `export:${job.id}`,
  }
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
  if (filter.interval)
    parts.push(`請求間隔 ${billingIntervalLabel(filter.interval, filter.intervalCount ?? 1)}`)
  else if (filter.intervalCount !== undefined) parts.push(`請求間隔の数 ${filter.intervalCount}`)
  return parts.length > 0 ? parts.join(' / ') : 'なし（すべての契約）'
}
