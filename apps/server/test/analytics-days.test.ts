import { beforeAll, describe, expect, it } from 'vitest'
import { upsertOrders } from '../src/sync/mirror-repo.ts'
import { createShop, useTestApp } from './support/fixtures.ts'

let shop: Awaited<ReturnType<typeof createShop>>

const env = useTestApp()
beforeAll(async () => {
  shop = await createShop(env.pool, { prefix: 'analytics-days' })
  // A few orders in early January (Japan time), so the sums and LTV rows are not all empty.
  await upsertOrders(
    env.pool,
    shop.id,
    [3, 5, 9].map((day, i) => ({
      id: String(9_100_000 + i),
      name: null,
      contract_id: String(70 + i),
      customer_id: String(800 + (i % 2)),
      total_amount: String(1980 * (i + 1)),
      refunded_amount: null,
      currency_code: 'JPY',
      test: false,
      created_at: new Date(Date.UTC(2026, 0, day, 3)).toISOString(),
      cancelled_at: null,
    })),
  )
})

const RANGE = { startDate: '2026-1-1', endDate: '2026-1-9' }
const PADDED = { startDate: '2026-01-01', endDate: '2026-01-09' }

/** Every analytics and LTV path of spec §7 with its date parameters (unpadded, padded). */
const PATHS: Array<[string, Record<string, string>, Record<string, string>]> = [
  ...[
    'daily-report/active-contract',
    'daily-report/new-contract',
    'daily-report/cancel',
    'daily-report/pause',
    'daily-report/subtotal',
    'daily-report/subtotal/currency',
    'cumulative/new-contract',
    'cumulative/cancel',
    'cumulative/pause',
    'cumulative/subtotal',
    'cumulative/subtotal/currency',
    'cumulative/failure',
    'current/active-contract',
    'traffic-actuation',
    'ltv/cdp-customer-list',
    'ltv/cdp-customer-list-export',
    'subscription-contracts/cancellation-reasons-grouped-by',
  ].map((path): [string, Record<string, string>, Record<string, string>] => [path, RANGE, PADDED]),
  ['subscriptions/persistence-rate', { baseDate: '2026-1-1' }, { baseDate: '2026-01-01' }],
]

async function get(path: string, params: Record<string, string>) {
  const query = new URLSearchParams({ shop: shop.domain, secret: shop.secret, ...params })
  return env.app.inject({ method: 'GET', url: `/app-admin/${path}?${query}` })
}

describe('unpadded days on every analytics and LTV path', () => {
  it.each(PATHS)('%s reads 2026-1-1 as 2026-01-01', async (path, unpadded, padded) => {
    const a = await get(path, unpadded)
    expect(a.statusCode, a.body).toBe(200)
    const b = await get(path, padded)
    expect(b.statusCode, b.body).toBe(200)
    expect(a.body).toBe(b.body)
  })

  it('LTV counts the orders of the unpadded range', async () => {
    const res = await get('ltv/cdp-customer-list', RANGE)
    const body = res.json() as { list: Array<{ customerId: string; ltv: number; orderCount: number }> }
    expect(body.list.map((r) => [r.customerId, r.ltv, r.orderCount])).toEqual([
      ['800', 1980 + 5940, 2],
      ['801', 3960, 1],
    ])
  })

  it.each([
    ['ltv/cdp-customer-list', { startDate: '2026-2-30', endDate: '2026-3-1' }, '開始日に存在しない日付'],
    ['ltv/cdp-customer-list', { startDate: '2026/1/1', endDate: '2026-3-1' }, '開始日は 2026-1-5 の形'],
    ['daily-report/new-contract', { startDate: '2026-1-1', endDate: '2026-13-1' }, '終了日に存在しない日付'],
    ['ltv/cdp-customer-list', { startDate: '2026-3-1', endDate: '2026-1-1' }, '開始日は終了日以前'],
    ['subscription-contracts/cancellation-reasons-grouped-by', { startDate: '1-1-2026' }, '2026-1-5 の形'],
  ])('%s refuses %o in Japanese', async (path, params, message) => {
    const res = await get(path, params)
    expect(res.statusCode).toBe(400)
    expect((res.json() as { error: { message: string } }).error.message).toContain(message)
  })
})
