/**
 * The state of the shop's bulk operation on the platform (GET /bulk-query, 一括更新) as the
 * merchant reads it; a state the platform adds later is shown as it comes.
 */
export function bulkOperationStatusLabel(status: string): string {
  switch (status) {
    case 'CREATED':
      return '開始待ち'
    case 'RUNNING':
      return '実行中'
    case 'COMPLETED':
      return '完了'
    case 'CANCELING':
      return '中止中'
    case 'CANCELED':
      return '中止'
    case 'FAILED':
      return '失敗'
    case 'EXPIRED':
      return '期限切れ'
    default:
      return status
  }
}
