import { describe, expect, it } from 'vitest'
import { syncSummaryLine } from '../src/sync/sync-message.ts'

const DEMO = 'teiki-demo.myshopify.com'
const nothing = { contracts: 0, customers: 0, orders: 0, ms: 120 }

describe('syncSummaryLine', () => {
  it('the first sync counts what it read', () => {
    expect(syncSummaryLine(DEMO, { contracts: 320, customers: 272, orders: 2900, ms: 3101 }, null)).toBe(
      `${DEMO} を同期しました: 契約 320 件, 顧客 272 件 (3101 ms)`,
    )
  })

  it('a later sync with nothing new says so, with when it last synced (Japan time)', () => {
    const line = syncSummaryLine(DEMO, nothing, new Date('2026-11-24T01:05:00Z'))
    expect(line).toBe(
      `${DEMO} を確認しました: 前回の同期（2026年11月24日 10:05）以降、契約・顧客・注文に変更はありませんでした (120 ms)`,
    )
    expect(line).not.toMatch(/契約 0 件/)
  })

  it.each([
    [{ ...nothing, contracts: 1 }, '契約 1 件, 顧客 0 件, 注文 0 件'],
    [{ ...nothing, customers: 2 }, '契約 0 件, 顧客 2 件, 注文 0 件'],
    [{ ...nothing, orders: 3 }, '契約 0 件, 顧客 0 件, 注文 3 件'], // an order cancelled on its own
  ])('a later sync with changes says what it took in: %o', (summary, counts) => {
    expect(syncSummaryLine(DEMO, summary, new Date('2026-11-24T01:05:00Z'))).toBe(
      `${DEMO} の前回の同期（2026年11月24日 10:05）以降の更新を読み込みました: ${counts} (120 ms)`,
    )
  })

  it('a sync that could read 60 days of orders says from when, and what the screens will say', () => {
    const summary = { contracts: 320, customers: 272, orders: 300, ms: 3101 }
    // 2026-09-28T10:00Z is 19:00 in Tokyo: the figures are complete from the 29th.
    const from = new Date('2026-09-28T10:00:00Z')
    expect(syncSummaryLine(DEMO, { ...summary, ordersReadableFrom: from }, null)).toBe(
      `${DEMO} を同期しました: 契約 320 件, 顧客 272 件 (3101 ms)。` +
        '注文は2026年9月28日 19:00以降の分を読み込みました（全期間の注文の読み取り read_all_orders が許可されていないため、Shopify は直近60日の注文だけを渡します）。' +
        '分析・継続率・LTV・顧客詳細は「2026年9月29日以降の注文に基づく集計です」と表示します',
    )
    expect(syncSummaryLine(DEMO, { ...summary, ordersReadableFrom: null }, null)).toBe(
      `${DEMO} を同期しました: 契約 320 件, 顧客 272 件 (3101 ms)`,
    )
    expect(
      syncSummaryLine(DEMO, { ...nothing, olderOrdersRead: true }, new Date('2026-11-24T01:05:00Z')),
    ).toContain('全期間の注文の読み取りが許可されたため、それより前の注文も読み込みました')
  })
})
