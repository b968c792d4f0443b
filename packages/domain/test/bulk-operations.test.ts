import { describe, expect, it } from 'vitest'
import { bulkOperationStatusLabel } from '../src/index.ts'

describe('bulkOperationStatusLabel', () => {
  it.each([
    ['CREATED', '開始待ち'],
    ['RUNNING', '実行中'],
    ['COMPLETED', '完了'],
    ['CANCELING', '中止中'],
    ['CANCELED', '中止'],
    ['FAILED', '失敗'],
    ['EXPIRED', '期限切れ'],
    ['PAUSED', 'PAUSED'], // a state the platform adds later, shown as it comes
  ])('%s is %s', (status, label) => {
    expect(bulkOperationStatusLabel(status)).toBe(label)
  })
})
