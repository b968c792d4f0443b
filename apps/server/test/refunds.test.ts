import { toZonedDate } from '@teiki/domain'
import { beforeAll, describe, expect, it } from 'vitest'
import { upsertOrders } from '../src/sync/mirror-repo.ts'
import { useEmulatedApp } from './support/emulated-app.ts'
import { testDomain } from './support/fixtures.ts'

// Issues 14 and 15: a refund made on the platform (refundCreate in the emulator) reaches the
// app by its webhooks, and the LTV table, the customer's lifetime totals and the daily subtotal
// move by exactly the refunded amount, on the order's day (ADR 0023), and nothing else moves.

const DOMAIN = testDomain('refunds')
const SECRET = 's3cret-refunds'
const TZ = 'Asia/Tokyo'
let shopId: string

const env = useEmulatedApp(
  { shops: [{ domain: DOMAIN, contracts: 12 }], secret: SECRET, webhooks: true },
  120_000,
)
beforeAll(async () => {
  shopId = env.shopIds[DOMAIN]!
  await env.sync(DOMAIN, { bulk: false })
}, 120_000)

async function get(path: string, query: Record<string, string>) {
  const q = new URLSearchParams({ shop: DOMAIN, secret: SECRET, ...query })
  const res = await env.app.inject({ method: 'GET', url: `/app-admin/${path}?${q}` })
  expect(res.statusCode, res.body).toBe(200)
  return res.json()
}

/** The customer's LTV over one day, and its order count (undefined when they have none). */
async function ltvOn(day: string, customerId: string) {
  const page = await get('ltv/cdp-customer-list', { startDate: day, endDate: day, count: '100' })
  const row = page.list.find((r: { customerId: string }) => r.customerId === customerId)
  return row as { ltv: number; orderCount: number } | undefined
}

/** Every day's JPY subtotal of the month around `day`. */
async function subtotals(day: string): Promise<Map<string, number>> {
  const [y, m] = day.split('-')
  const points = await get('daily-report/subtotal', {
    startDate: `${y}-${Number(m)}-1`,
    endDate: `${y}-${Number(m)}-28`,
    currency: 'JPY',
  })
  return new Map(points.map((p: { date: string; sales: string }) => [p.date, Number(p.sales)]))
}
const moved = (before: Map<string, number>, after: Map<string, number>) =>
  [...after].filter(([d, v]) => before.get(d) !== v).map(([d, v]) => [d, v - (before.get(d) ?? 0)])

async function lifetime(customerId: string): Promise<{ amount: number; orders: number }> {
  const { rows } = await env.pool.query(
    `select (amounts->'JPY'->>'amount')::numeric::float8 as amount, (amounts->'JPY'->>'orders')::int as orders
     from customer_totals where shop_id = $1 and customer_id = $2`,
    [shopId, customerId],
  )
  return rows[0]
}

async function refundOnPlatform(orderId: number, amount: number) {
  const gid = `gid://shopify/Order/${orderId}`
  const res = await env.emulator.graphql(DOMAIN, {
    query: `mutation($input: RefundInput!) { refundCreate(input: $input) { refund { id } userErrors { field message } } }`,
    variables: {
      input: {
        orderId: gid,
        transactions: [{ orderId: gid, amount: String(amount), gateway: 'manual', kind: 'REFUND' }],
      },
    },
  })
  expect(res.errors).toBeUndefined()
  expect((res.data as { refundCreate: { userErrors: unknown[] } }).refundCreate.userErrors).toEqual([])
}

/** Waits until the webhook has written the refunded amount into the mirror. */
async function mirroredRefund(orderId: number, expected: number): Promise<number> {
  let refunded = -1
  for (let i = 0; i < 600 && refunded !== expected; i++) {
    const { rows } = await env.pool.query(
      'select refunded_amount::float8 as r from orders where shop_id = $1 and id = $2',
      [shopId, orderId],
    )
    refunded = rows[0]?.r ?? -1
    if (refunded !== expected) await new Promise((r) => setTimeout(r, 50))
  }
  return refunded
}

describe('a refund on the platform → webhook → LTV, lifetime totals and subtotal', () => {
  it('a partial then a full refund move them by exactly the refunded amounts, on the order’s day', async () => {
    // A counted order (of a contract, not a test, not cancelled) of a customer, from the synced history.
    const { rows } = await env.pool.query(
      `select id::text, customer_id::text, total_amount::float8 as total, created_at from orders
       where shop_id = $1 and contract_id is not null and customer_id is not null and not test
         and cancelled_at is null and total_amount > 1000 and refunded_amount = 0
       order by created_at desc limit 1`,
      [shopId],
    )
    const order = rows[0] as { id: string; customer_id: string; total: number; created_at: Date }
    expect(order).toBeDefined()
    const day = toZonedDate(order.created_at, TZ)
    const ltvBefore = (await ltvOn(day, order.customer_id))!
    const salesBefore = await subtotals(day)
    const lifetimeBefore = await lifetime(order.customer_id)
    expect(ltvBefore.ltv).toBeGreaterThanOrEqual(order.total)

    await refundOnPlatform(Number(order.id), 500)
    expect(await mirroredRefund(Number(order.id), 500)).toBe(500)
    expect(await ltvOn(day, order.customer_id)).toEqual({ ...ltvBefore, ltv: ltvBefore.ltv - 500 })
    expect(moved(salesBefore, await subtotals(day))).toEqual([[day, -500]])
    expect(await lifetime(order.customer_id)).toEqual({
      ...lifetimeBefore,
      amount: lifetimeBefore.amount - 500,
    })

    // The rest: the order brings nothing in, but it was placed (its count stays).
    await refundOnPlatform(Number(order.id), order.total - 500)
    expect(await mirroredRefund(Number(order.id), order.total)).toBe(order.total)
    expect(await ltvOn(day, order.customer_id)).toEqual({ ...ltvBefore, ltv: ltvBefore.ltv - order.total })
    expect(moved(salesBefore, await subtotals(day))).toEqual([[day, -order.total]])
    expect(await lifetime(order.customer_id)).toEqual({
      ...lifetimeBefore,
      amount: lifetimeBefore.amount - order.total,
    })
  }, 120_000)

  it('a sync run again, or a stale read written late, keeps the refund (it only grows)', async () => {
    const { rows } = await env.pool.query(
      `select id::text, name, contract_id::text, customer_id::text, total_amount::text, currency_code, test,
         created_at, refunded_amount::float8 as refunded
       from orders where shop_id = $1 and refunded_amount > 0 limit 1`,
      [shopId],
    )
    const held = rows[0]
    expect(held.refunded).toBeGreaterThan(0)
    await upsertOrders(env.pool, shopId, [
      {
        id: held.id,
        name: held.name,
        contract_id: held.contract_id,
        customer_id: held.customer_id,
        total_amount: held.total_amount,
        refunded_amount: '0',
        currency_code: held.currency_code,
        test: held.test,
        created_at: held.created_at.toISOString(),
        cancelled_at: null,
      },
    ])
    await env.sync(DOMAIN, { bulk: false })
    expect(await mirroredRefund(Number(held.id), held.refunded)).toBe(held.refunded)
  }, 120_000)
})
