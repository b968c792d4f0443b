import { describe, expect, it } from 'vitest'
import {
  orderHistoryMessage,
  orderHistoryNotice,
  ordersCompleteFrom,
  ordersReadableFrom,
} from '../src/orders/order-history.ts'

describe('order history without read_all_orders', () => {
  it('a sync reads the orders of the 60 days before it ended', () => {
    expect(ordersReadableFrom(new Date('2026-11-27T10:00:00Z')).toISOString()).toBe(
      '2026-09-28T10:00:00.000Z',
    )
  })

  it('figures are complete from the first whole shop-local day', () => {
    // 2026-09-28T10:00Z is 19:00 in Tokyo: the 28th is partly read, the 29th whole.
    expect(ordersCompleteFrom(new Date('2026-09-28T10:00:00Z'), 'Asia/Tokyo')).toBe('2026-09-29')
    // 2026-09-27T15:30Z is 00:30 on the 28th in Tokyo: the 28th is partly read.
    expect(ordersCompleteFrom(new Date('2026-09-27T15:30:00Z'), 'Asia/Tokyo')).toBe('2026-09-29')
    // Exactly the 28th's midnight in Tokyo: the 28th is whole.
    expect(ordersCompleteFrom(new Date('2026-09-27T15:00:00Z'), 'Asia/Tokyo')).toBe('2026-09-28')
    // The same instant is another day in another zone.
    expect(ordersCompleteFrom(new Date('2026-09-27T15:00:00Z'), 'America/New_York')).toBe('2026-09-28')
  })

  it('says from which date, in Japanese, where a screen shows days before it', () => {
    expect(orderHistoryMessage('2026-09-28')).toBe('2026年9月28日以降の注文に基づく集計です')
    expect(orderHistoryNotice('2026-09-28', '2026-09-01')).toBe('2026年9月28日以降の注文に基づく集計です')
    expect(orderHistoryNotice('2026-09-28', null)).toBe('2026年9月28日以降の注文に基づく集計です')
    expect(orderHistoryNotice('2026-09-28', '2026-09-28')).toBeNull()
    expect(orderHistoryNotice('2026-09-28', '2026-11-01')).toBeNull()
    expect(orderHistoryNotice(null, '2022-11-01')).toBeNull()
  })
})
