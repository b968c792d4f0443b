import { formatDateTimeJa, formatNumber } from '@teiki/domain'
import type { MailMessage } from '../../mail/mailer.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import type { BatchRow } from './repo.ts'
import type { unchangedForMail } from './run-repo.ts'

/** Contracts listed by name in the mail (skipped and failed ones); the rest are on the screen. */
export const MAIL_LISTED = 200

const ENDED: Record<'done' | 'cancelled' | 'failed', string> = {
  done: '完了しました',
  cancelled: '中止しました',
  failed: '途中で失敗しました',
}

/**
 * The result mail of an ended batch (changed, skipped and failed with the reasons), one per
 * batch (`batch:<id>`); null when the batch has no address.
 */
export function batchMail(
  shop: ShopRow,
  batch: BatchRow & { status: 'done' | 'cancelled' | 'failed' },
  unchanged: Awaited<ReturnType<typeof unchangedForMail>>,
): MailMessage | null {
  if (!batch.notify_email) return null
  const pending = Math.max(0, batch.total - batch.changed - batch.skipped - batch.failed)
  const lines = [
    `${shop.name || shop.domain} ご担当者様`,
    '',
    `一括更新「${batch.params.summary ?? ''}」を${ENDED[batch.status]}。`,
    '',
    `対象の契約: ${formatNumber(batch.total)}件`,
    `変更した契約: ${formatNumber(batch.changed)}件`,
    `スキップした契約: ${formatNumber(batch.skipped)}件`,
    `失敗した契約: ${formatNumber(batch.failed)}件`,
  ]
  if (pending > 0) lines.push(`未処理（変更していません）: ${formatNumber(pending)}件`)
  lines.push(`開始日時: ${formatDateTimeJa(batch.executed_at ?? batch.created_at, shop.iana_timezone)}`)
  if (batch.finished_at) lines.push(`終了日時: ${formatDateTimeJa(batch.finished_at, shop.iana_timezone)}`)
  if (batch.error) lines.push('', batch.error)
  if (unchanged.length > 0) {
    lines.push('', '■ 変更しなかった契約と理由')
    for (const item of unchanged) {
      const what = item.status === 'failed' ? '失敗' : 'スキップ'
      lines.push(`・契約 ${item.contract_id}（${item.name || 'お客様名なし'}）${what}: ${item.reason ?? ''}`)
    }
    if (batch.skipped + batch.failed > unchanged.length) {
      lines.push(
        `ほか${formatNumber(batch.skipped + batch.failed - unchanged.length)}件は Teiki の「一括更新」画面でご確認ください。`,
      )
    }
  }
  lines.push('', '--', 'Teiki（定期）', 'このメールは送信専用です。')
  return {
    shopId: shop.id,
    to: batch.notify_email,
    subject: `【Teiki】一括更新を${ENDED[batch.status]}（変更${formatNumber(batch.changed)}件・スキップ${formatNumber(batch.skipped)}件・失敗${formatNumber(batch.failed)}件）`,
    text: lines.join('\n'),
    dedupeKey: `batch:${batch.id}`,
  }
}
