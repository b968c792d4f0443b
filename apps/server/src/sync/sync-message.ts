import { formatDateTimeJa, orderHistoryMessage, ordersCompleteFrom } from '@teiki/domain'
import type { SyncSummary } from './full-sync.ts'

type Summary = Pick<
  SyncSummary,
  'contracts' | 'customers' | 'orders' | 'ms' | 'ordersReadableFrom' | 'olderOrdersRead'
>

/**
 * The start-up line that says what a sync of the shop did. A first sync counts what it read; a
 * later one reads only what was updated since `syncedBefore` (less a safety margin), so it says
 * how much that was, or that nothing was (rather than 「契約 0 件」, which reads as an empty shop).
 * A sync that read every contract's orders also says how far back it could read them.
 */
export function syncSummaryLine(
  domain: string,
  summary: Summary,
  syncedBefore: Date | null,
  timeZone = 'Asia/Tokyo',
): string {
  const took = `(${summary.ms} ms)`
  const history = orderHistoryLine(summary, timeZone)
  const tail = history ? `。${history}` : ''
  if (syncedBefore === null) {
    return `${domain} を同期しました: 契約 ${summary.contracts} 件, 顧客 ${summary.customers} 件 ${took}${tail}`
  }
  const since = `前回の同期（${formatDateTimeJa(syncedBefore)}）以降`
  if (summary.contracts === 0 && summary.customers === 0 && summary.orders === 0) {
    return `${domain} を確認しました: ${since}、契約・顧客・注文に変更はありませんでした ${took}${tail}`
  }
  return (
    `${domain} の${since}の更新を読み込みました: ` +
    `契約 ${summary.contracts} 件, 顧客 ${summary.customers} 件, 注文 ${summary.orders} 件 ${took}${tail}`
  )
}

/**
 * What a sync that read every contract's orders could read of them: from when (the platform
 * gives the last 60 days without read_all_orders), or that it read the older ones too.
 */
export function orderHistoryLine(summary: Summary, timeZone: string): string | null {
  if (summary.olderOrdersRead)
    return '全期間の注文の読み取りが許可されたため、それより前の注文も読み込みました'
  const from = summary.ordersReadableFrom
  if (!from) return null
  return (
    `注文は${formatDateTimeJa(from, timeZone)}以降の分を読み込みました` +
    `（全期間の注文の読み取り read_all_orders が許可されていないため、Shopify は直近60日の注文だけを渡します）。` +
    `分析・継続率・LTV・顧客詳細は「${orderHistoryMessage(ordersCompleteFrom(from, timeZone))}」と表示します`
  )
}
