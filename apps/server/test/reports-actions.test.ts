import { toZonedDate } from '@teiki/domain'
import { beforeAll, expect, it } from 'vitest'
import { chargeableContracts } from './support/billing.ts'
import { useEmulatedApp } from './support/emulated-app.ts'
import { testDomain } from './support/fixtures.ts'

// Issue 14 "must show": reports tied to actions. A contract paused and another billed through
// the app move that day's pause count and subtotal by exactly that, and nothing else moves.

const DOMAIN = testDomain('reports-act')
const SECRET = 's3cret-reports'
const env = useEmulatedApp(
  { shops: [{ domain: DOMAIN, contracts: 12 }], secret: SECRET, webhooks: true },
  120_000,
)
beforeAll(async () => {
  await env.sync(DOMAIN, { bulk: false })
  // The emulator is a development store: every charge it makes is a test order, which the
  // reports count only for a shop flagged as a test shop (docs/analytics.md).
  await env.pool.query(`insert into shop_flags (shop_id, flag, enabled) values ($1, 'test_shop', true)`, [
    env.shopIds[DOMAIN],
  ])
}, 120_000)

const range = { startDate: '2026-1-1', endDate: '2027-12-31' }
async function report(path: string, extra: Record<string, string> = {}) {
  const q = new URLSearchParams({ shop: DOMAIN, secret: SECRET, ...range, ...extra })
  const res = await env.app.inject({ method: 'GET', url: `/app-admin/${path}?${q}` })
  expect(res.statusCode).toBe(200)
  return res.json() as Array<{ date: string; count?: number; sales?: string }>
}
const byDay = (points: Array<{ date: string; count?: number; sales?: string }>) =>
  new Map(points.map((p) => [p.date, p.count ?? Number(p.sales)]))
function changed(before: Map<string, number>, after: Map<string, number>) {
  return [...after].filter(([d, v]) => before.get(d) !== v).map(([d, v]) => [d, v - (before.get(d) ?? 0)])
}
function post(path: string, body: Record<string, unknown>) {
  return env.app.inject({
    method: 'POST',
    url: `/app-admin/${path}?shop=${DOMAIN}&secret=${SECRET}`,
    payload: body,
  })
}

it('a pause and a charge through the app move their day by exactly that', async () => {
  // The contract billed has a card the emulator charges (the generated shop has declined, expired
  // and 3-D Secure cards: a charge on one of those never made an order, and the test waited out
  // its two minutes on CI), the one paused any other ACTIVE contract.
  const [billedId] = chargeableContracts(env.emulator, DOMAIN, 1)
  const contracts = env.emulator.store.shop(DOMAIN)!.contracts
  const toBill = contracts.find((c) => c.id === billedId)!
  const toPause = contracts.find((c) => c.status === 'ACTIVE' && c.id !== billedId)!
  const pausesBefore = byDay(await report('daily-report/pause'))
  const salesBefore = byDay(await report('daily-report/subtotal', { currency: 'JPY' }))
  const activeBefore = byDay(await report('daily-report/active-contract'))

  const paused = await post('pause', {
    contractId: String(toPause.id),
    customerId: String(toPause.customerId),
  })
  expect(paused.statusCode).toBe(200)
  const billed = await post('create-order-now', { contractId: String(toBill.id) })
  expect(billed.statusCode).toBe(200)

  // The charge completes on the platform and its webhook writes the order.
  let order: { total_amount: string; created_at: Date } | undefined
  // The outcome webhook can miss its deadline on a loaded machine and be redelivered.
  for (let i = 0; i < 1200 && !order; i++) {
    const { rows } = await env.pool.query(
      `select o.total_amount::text, o.created_at from orders o join shops s on s.id = o.shop_id
       where s.domain = $1 and o.contract_id = $2 and o.created_at >= (select max(created_at) from billing_attempts b
         where b.shop_id = o.shop_id and b.contract_id = $2)`,
      [DOMAIN, toBill.id],
    )
    order = rows[0]
    if (!order) await new Promise((r) => setTimeout(r, 50))
  }
  if (!order) {
    const dump = await env.pool.query(
      `select 'attempt' as k, id::text, created_at, order_id::text as x from billing_attempts where contract_id = $1
       union all select 'order', id::text, created_at, test::text from orders where contract_id = $1`,
      [toBill.id],
    )
    console.log(billed.json(), dump.rows)
  }
  expect(order, 'the order of the charge reached the mirror').toBeDefined()

  const pauseEvent = await env.pool.query<{ occurred_at: Date }>(
    `select e.occurred_at from contract_events e join shops s on s.id = e.shop_id
     where s.domain = $1 and e.contract_id = $2 and e.type = 'status_changed' and e.payload->>'to' = 'PAUSED'`,
    [DOMAIN, toPause.id],
  )
  const pauseDay = toZonedDate(pauseEvent.rows[0]!.occurred_at, 'Asia/Tokyo')
  const orderDay = toZonedDate(order!.created_at, 'Asia/Tokyo')

  expect(changed(pausesBefore, byDay(await report('daily-report/pause')))).toEqual([[pauseDay, 1]])
  expect(changed(salesBefore, byDay(await report('daily-report/subtotal', { currency: 'JPY' })))).toEqual([
    [orderDay, Number(order!.total_amount)],
  ])
  // The paused contract leaves the active count from its day on.
  const activeAfter = byDay(await report('daily-report/active-contract'))
  for (const [day, before] of activeBefore)
    expect(activeAfter.get(day)).toBe(day >= pauseDay ? before - 1 : before)
}, 240_000)
