import { ZSalesSeries } from '@teiki/contract'
import { dailySales, eachDay, type OrderFact } from '@teiki/domain'
import { expect, it } from 'vitest'
import { upsertOrders } from '../src/sync/mirror-repo.ts'
import { createShop, useTestApp } from './support/fixtures.ts'

const env = useTestApp()

it('every day × every currency of the range, equal to the definition', async () => {
  const s = await createShop(env.pool, { prefix: 'reports-sales' })
  const orders: OrderFact[] = []
  let seed = 5
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    return seed / 2 ** 31
  }
  for (let k = 0; k < 40; k++) {
    const currencyCode = ['JPY', 'USD', 'EUR'][Math.floor(rand() * 3)]!
    orders.push({
      contractId: String(1 + (k % 5)),
      createdAt: new Date(Date.UTC(2026, 3, 1) + Math.floor(rand() * 20 * 86_400_000)).toISOString(),
      currencyCode,
      amount: currencyCode === 'JPY' ? Math.floor(rand() * 5000) : Math.floor(rand() * 5000) / 100,
      test: false,
      cancelledAt: rand() < 0.1 ? '2026-05-01T00:00:00Z' : null,
    })
  }
  await upsertOrders(
    env.pool,
    s.id,
    orders.map((o, k) => ({
      id: String(8_000_000 + k),
      name: `#${k}`,
      contract_id: o.contractId,
      customer_id: null,
      total_amount: String(o.amount),
      refunded_amount: null,
      currency_code: o.currencyCode,
      test: false,
      created_at: o.createdAt as string,
      cancelled_at: o.cancelledAt as string | null,
    })),
  )
  const q = new URLSearchParams({
    shop: s.domain,
    secret: s.secret,
    startDate: '2026-4-3',
    endDate: '2026-4-25',
  })
  const res = await env.app.inject({ method: 'GET', url: `/app-admin/daily-report/subtotal?${q}` })
  const got = ZSalesSeries.parse(res.json())
  const want = dailySales(orders, 'Asia/Tokyo')
  const days = eachDay('2026-04-03', '2026-04-25')
  const codes = [
    ...new Set([...want.keys()].filter((k) => days.includes(k.slice(0, 10))).map((k) => k.slice(11))),
  ]
  expect(codes.length).toBe(3)
  expect(got.map((p) => [p.date, p.currency, Number(p.sales), p.orders])).toEqual(
    days.flatMap((date) =>
      codes.sort().map((code) => {
        const w = want.get(`${date}|${code}`) ?? { amount: 0, orders: 0 }
        return [date, code, Math.round(w.amount * 100) / 100, w.orders]
      }),
    ),
  )
})
