import { formatDateTimeJa } from '@teiki/domain'
import type { SyncSummary } from './full-sync.ts'

/**
 * The start-up line that says what a sync of the shop did. A first sync counts what it read; a
 * later one reads only what was updated since `syncedBefore` (less a safety margin), so it says
 * how much that was, or that nothing was (rather than 「契約 0 件」, which reads as an empty shop).
 */
export function syncSummaryLine(
  domain: string,
  summary: Pick<SyncSummary, 'contracts' | 'customers' | 'orders' | 'ms'>,
  syncedBefore: Date | null,
): string {
  const took = `(${summary.ms} ms)`
  if (syncedBefore === null) {
    return `${domain} を同期しました: 契約 ${summary.contracts} 件, 顧客 ${summary.customers} 件 ${took}`
  }
  const since = `前回の同期（${formatDateTimeJa(syncedBefore)}）以降`
  if (summary.contracts === 0 && summary.customers === 0 && summary.orders === 0) {
    return `${domain} を確認しました: ${since}、契約・顧客・注文に変更はありませんでした ${took}`
  }
  return (
    `${domain} の${since}の更新を読み込みました: ` +
    `契約 ${summary.contracts} 件, 顧客 ${summary.customers} 件, 注文 ${summary.orders} 件 ${took}`
  )
}
