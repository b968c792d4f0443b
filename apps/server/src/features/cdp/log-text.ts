import type { CustomerLog } from '@teiki/contract'
import { formatDateJa, type SubscriptionStatus, statusLabel } from '@teiki/domain'
import type { LogRow } from './customers-repo.ts'

/** What each contract event says to the merchant (contract_events.type → Japanese). */
const CONTRACT_EVENT_TITLES: Record<string, string> = {
  created: '契約が作成されました',
  status_changed: '契約のステータスが変わりました',
  billed: '請求が成功しました',
  billing_failed: '請求に失敗しました',
  billing_challenged: '3Dセキュア認証待ちになりました',
  next_billing_date_changed: '次回請求日を変更しました',
  next_delivery_date_changed: '次回お届け日を変更しました',
  next_order_skipped: '次回のお届けをスキップしました',
  delivery_time_changed: 'お届け時間帯を変更しました',
  delivery_address_changed: 'お届け先を変更しました',
  interval_changed: '請求間隔を変更しました',
  note_changed: 'メモを変更しました',
  order_count_set: '購入回数を変更しました',
  order_now_requested: '今すぐ注文を作成しました',
  line_added: '商品を追加しました',
  line_removed: '商品を削除しました',
  line_quantity_changed: '商品の数量を変更しました',
  line_variant_swapped: '商品のバリエーションを変更しました',
  line_price_changed: '商品の価格を変更しました',
  price_marked_manual: '価格を手動変更済みにしました',
  payment_method_changed: '支払い方法を変更しました',
  payment_update_email_sent: '支払い方法の更新メールを送信しました',
  discount_applied: '割引コードを適用しました',
  discount_added: '割引を追加しました',
  discount_removed: '割引を削除しました',
}

const BILLING_TITLES: Record<string, string> = {
  success: '請求（課金）が成功しました',
  failure: '請求（課金）が失敗しました',
  pending: '請求（課金）を処理中です',
}

const MAIL_TITLES: Record<string, string> = {
  sent: 'メールを送信しました',
  stored: 'メールを作成しました（送信サーバー未設定のため保存）',
  pending: 'メールの送信待ちです',
  sending: 'メールを送信中です',
  failed: 'メールの送信に失敗しました',
}

const isStatus = (v: unknown): v is SubscriptionStatus => typeof v === 'string' && v in statusLabel

function contractDetail(row: LogRow, timeZone: string): string | null {
  const p = row.payload
  if (row.type === 'status_changed' && isStatus(p.from) && isStatus(p.to))
    return `${statusLabel[p.from]} → ${statusLabel[p.to]}`
  if (row.type === 'next_order_skipped' && typeof p.to === 'string') {
    const cycles = typeof p.cycles === 'number' && p.cycles > 1 ? `${p.cycles}回分・` : ''
    return `${cycles}次回請求日: ${formatDateJa(p.to, timeZone)}`
  }
  if (row.type === 'status_changed' && typeof p.reason === 'string' && p.to === 'CANCELLED')
    return `${statusLabel.CANCELLED}（${p.reason}）`
  if (row.type === 'next_billing_date_changed' && typeof p.to === 'string')
    return `変更後: ${formatDateJa(p.to, timeZone)}`
  if (row.type === 'billing_failed' && typeof p.errorMessage === 'string') return p.errorMessage
  if (row.type === 'discount_added' && typeof p.title === 'string') return p.title
  return null
}

/** One log row as the merchant reads it. */
export function logEntry(row: LogRow, timeZone: string): CustomerLog['entries'][number] {
  const p = row.payload
  let title: string
  let detail: string | null = null
  switch (row.kind) {
    case 'contract':
      title = CONTRACT_EVENT_TITLES[row.type] ?? '契約が更新されました'
      detail = contractDetail(row, timeZone)
      break
    case 'billing':
      title = BILLING_TITLES[row.type] ?? BILLING_TITLES.pending!
      detail = typeof p.errorMessage === 'string' ? p.errorMessage : null
      break
    case 'mail':
      title = MAIL_TITLES[row.type] ?? MAIL_TITLES.pending!
      detail = typeof p.subject === 'string' ? p.subject : null
      break
    default: {
      const tags = Array.isArray(p.tags) ? (p.tags as string[]).join('、') : ''
      title = row.type === 'added' ? `タグを追加しました: ${tags}` : `タグを削除しました: ${tags}`
      detail = p.source === 'segment' ? 'セグメントの一括追加' : null
    }
  }
  return {
    at: row.at.toISOString(),
    kind: row.kind,
    title,
    detail,
    contractId: row.contract_id,
    by: byOf(row),
  }
}

/** お客様 for a subscriber's change on マイページ, ストア for the app's own; null for the rest. */
function byOf(row: LogRow): string | null {
  if (row.kind !== 'contract') return null
  if (row.payload.actor === 'customer') return 'お客様'
  return row.source === 'app' ? 'ストア' : null
}
