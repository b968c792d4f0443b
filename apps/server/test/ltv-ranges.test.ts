import { type LtvOrder, lifetimeValues } from '@teiki/domain'
import { beforeAll, expect, it } from 'vitest'
import { upsertOrders } from '../src/sync/mirror-repo.ts'
import { createShop, useTestApp } from './support/fixtures.ts'

let shop: Awaited<ReturnType<typeof createShop>>
const orders: LtvOrder[] = []

const env = useTestApp()
beforeAll(async () => {
  shop = await createShop(env.pool, { prefix: 'ltv-ranges' })
  let seed = 11
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    return seed / 2 ** 31
  }
  const rows = []
  const later = []
  for (let i = 0; i < 160; i++) {
    const usd = rand() < 0.15
    const amount = usd ? Math.floor(rand() * 10000) / 100 : Math.floor(rand() * 9000) + 100
    const refund = rand()
    const half = usd ? Math.floor(amount * 50) / 100 : Math.floor(amount / 2)
    const refunded = refund < 0.15 ? half : refund < 0.2 ? amount : 0
    const cancelled = rand() < 0.08
    const o: LtvOrder = {
      customerId: String(900 + Math.floor(rand() * 8)),
      contractId: rand() < 0.9 ? String(50 + Math.floor(rand() * 8)) : null,
      amount,
      refunded,
      currencyCode: usd ? 'USD' : 'JPY',
      test: rand() < 0.08,
      cancelledAt: cancelled ? new Date('2026-05-01T00:00:00Z') : null,
      // 2025-10-01 to 2026-04-30, any hour (Japan-time days cross UTC midnight)
      createdAt: new Date(Date.UTC(2025, 9, 1) + Math.floor(rand() * 212 * 24) * 3_600_000 - 9 * 3_600_000),
    }
    orders.push(o)
    const row = {
      id: String(8_000_000 + i),
      name: null,
      contract_id: o.contractId,
      customer_id: o.customerId,
      total_amount: String(o.amount),
      refunded_amount: null,
      currency_code: o.currencyCode,
      test: o.test,
      created_at: o.createdAt.toISOString(),
      cancelled_at: null,
    }
    rows.push(row)
    // Refunds and cancellations arrive later, as their webhooks' reads of the order do.
    if (refunded > 0 || cancelled)
      later.push({
        ...row,
        refunded_amount: String(refunded),
        cancelled_at: cancelled ? '2026-05-01T00:00:00Z' : null,
      })
  }
  for (let i = 0; i < rows.length; i += 40) await upsertOrders(env.pool, shop.id, rows.slice(i, i + 40))
  for (const row of later) await upsertOrders(env.pool, shop.id, [row])
})

const RANGES: Array<[string, string]> = [
  ['2025-10-01', '2026-04-30'], // every whole month
  ['2025-11-01', '2026-03-01'], // whole months and one edge day (the bench's shape)
  ['2025-10-15', '2026-02-10'], // edges at both ends
  ['2025-12-31', '2026-01-01'], // two edge days across the year
  ['2026-02-01', '2026-02-28'], // one whole month
  ['2026-02-02', '2026-02-27'], // inside a month
  ['2026-01-20', '2026-01-20'], // one day
  ['2024-01-01', '2025-09-30'], // before every order
  ['2025-09-15', '2026-12-31'], // beyond both ends
]

it.each(RANGES)('LTV %s … %s equals the domain definition', async (from, to) => {
  const q = new URLSearchParams({
    shop: shop.domain,
    secret: shop.secret,
    startDate: from,
    endDate: to,
    count: '50',
  })
  const res = await env.app.inject({ method: 'GET', url: `/app-admin/ltv/cdp-customer-list?${q}` })
  expect(res.statusCode, res.body).toBe(200)
  const body = res.json() as {
    total: number
    list: Array<{ customerId: string; currencyCode: string; ltv: number; orderCount: number }>
  }
  const want = lifetimeValues(orders, { from, to }, 'Asia/Tokyo').totals
  const key = (r: { customerId: string; currencyCode: string }) => `${r.currencyCode}|${r.customerId}`
  const got = body.list
    .map((r) => ({
      customerId: r.customerId,
      currencyCode: r.currencyCode,
      amount: r.ltv,
      orderCount: r.orderCount,
    }))
    .sort((a, b) => key(a).localeCompare(key(b)))
  expect(got).toEqual([...want].sort((a, b) => key(a).localeCompare(key(b))))
  expect(body.total).toBe(want.length)
})
