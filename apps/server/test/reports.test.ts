import {
  ZCurrencyList,
  ZCurrentCount,
  ZDailyCounts,
  ZErrorResponse,
  ZPersistenceRate,
  ZSalesSeries,
} from '@teiki/contract'
import {
  activeBefore,
  activeSeries,
  cumulativeSeries,
  dailyMeasures,
  dailySales,
  dailySeries,
  type HistoryEvent,
  isCountedOrder,
  type OrderFact,
  reachedCounts,
  toZonedDate,
} from '@teiki/domain'
import { beforeAll, describe, expect, it } from 'vitest'
import { appendContractEvent } from '../src/sync/contracts-repo.ts'
import { upsertOrders } from '../src/sync/mirror-repo.ts'
import { createShop, useTestApp } from './support/fixtures.ts'

type Shop = Awaited<ReturnType<typeof createShop>>
let shop: Shop
let other: Shop

type Schema = { parse: (value: unknown) => unknown }
async function get(path: string, query: Record<string, string>, schema?: Schema, as: Shop = shop) {
  const q = new URLSearchParams({ shop: as.domain, secret: as.secret, ...query })
  const res = await env.app.inject({ method: 'GET', url: `/app-admin${path}?${q}` })
  const body = res.json()
  if (res.statusCode >= 400) ZErrorResponse.parse(body)
  else schema?.parse(body)
  return { status: res.statusCode, body }
}

async function event(
  s: Shop,
  contractId: string,
  type: string,
  at: string,
  payload: Record<string, unknown> = {},
) {
  await appendContractEvent(env.pool, s.id, 'app', { contractId, type, occurredAt: at, payload })
}
let orderId = 5_000_000
async function order(s: Shop, o: Partial<OrderFact> & { createdAt: string; contractId: string | null }) {
  const id = String(orderId++)
  const row = {
    id,
    name: `#${id}`,
    contract_id: o.contractId,
    customer_id: null,
    total_amount: String(o.amount ?? 1980),
    refunded_amount: null,
    currency_code: o.currencyCode ?? 'JPY',
    test: o.test ?? false,
    created_at: o.createdAt,
    cancelled_at: (o.cancelledAt as string | null) ?? null,
  }
  await upsertOrders(env.pool, s.id, [row])
  // A refund comes later, as its webhook's read of the order does: the row is updated.
  if (o.refunded) await upsertOrders(env.pool, s.id, [{ ...row, refunded_amount: String(o.refunded) }])
  return id
}

const env = useTestApp()
beforeAll(async () => {
  shop = await createShop(env.pool, { prefix: 'reports' })
  other = await createShop(env.pool, { prefix: 'reports-other' })
  // Contract 1: started 3/1 (Tokyo), paused and resumed on 3/5, cancelled 3/10.
  await event(shop, '1', 'created', '2026-02-28T15:00:00Z') // 00:00 on 3/1 in Tokyo
  await event(shop, '1', 'status_changed', '2026-03-05T01:00:00Z', { from: 'ACTIVE', to: 'PAUSED' })
  await event(shop, '1', 'status_changed', '2026-03-05T02:00:00Z', { from: 'PAUSED', to: 'ACTIVE' })
  await event(shop, '1', 'status_changed', '2026-03-10T01:00:00Z', { from: 'ACTIVE', to: 'CANCELLED' })
  // Contract 2: started 2/28 23:59 Tokyo, a failed charge 3/2, billed in JPY and USD.
  await event(shop, '2', 'created', '2026-02-28T14:59:59Z')
  await event(shop, '2', 'billing_failed', '2026-03-02T00:00:00Z', { attemptId: '9' })
  await order(shop, { contractId: '2', createdAt: '2026-02-28T14:59:59Z', amount: 1980 })
  await order(shop, { contractId: '2', createdAt: '2026-03-02T03:00:00Z', amount: 1980 })
  await order(shop, { contractId: '2', createdAt: '2026-03-02T03:00:00Z', amount: 12.5, currencyCode: 'USD' })
  await order(shop, { contractId: '2', createdAt: '2026-03-02T03:00:00Z', amount: 500, test: true })
  await order(shop, {
    contractId: '2',
    createdAt: '2026-03-02T03:00:00Z',
    amount: 700,
    cancelledAt: '2026-03-03T00:00:00Z',
  })
  // The other shop: must never show up.
  await event(other, '1', 'created', '2026-03-01T01:00:00Z')
  await order(other, { contractId: '1', createdAt: '2026-03-02T03:00:00Z', amount: 99999 })
})

const range = { startDate: '2026-2-28', endDate: '2026-3-11' }
const counts = (body: Array<{ count: number }>) => body.map((d) => d.count)

describe('daily and cumulative counts', () => {
  it('new contracts per Tokyo day, one entry per day of the range', async () => {
    const { status, body } = await get('/daily-report/new-contract', range, ZDailyCounts)
    expect(status).toBe(200)
    expect(body).toHaveLength(12)
    expect(body[0]).toEqual({ date: '2026-02-28', count: 1 })
    expect(body[1]).toEqual({ date: '2026-03-01', count: 1 })
    const cumulative = await get('/cumulative/new-contract', range, ZDailyCounts)
    expect(counts(cumulative.body).slice(0, 3)).toEqual([1, 2, 2])
  })

  it('pauses, cancellations and failures on their days', async () => {
    const pause = await get('/daily-report/pause', range, ZDailyCounts)
    expect(pause.body.find((d: { date: string }) => d.date === '2026-03-05')).toEqual({
      date: '2026-03-05',
      count: 1,
    })
    expect(counts(pause.body).reduce((a: number, b: number) => a + b, 0)).toBe(1)
    const cancel = await get('/cumulative/cancel', range, ZDailyCounts)
    expect(cancel.body.at(-1).count).toBe(1)
    const failure = await get('/cumulative/failure', range, ZDailyCounts)
    expect(counts(failure.body).slice(0, 4)).toEqual([0, 0, 1, 1]) // 3/2 09:00 in Tokyo
  })

  it('active contracts at the end of each day, counting what came before the range', async () => {
    const all = await get('/daily-report/active-contract', range, ZDailyCounts)
    // 2/28: contract 2; 3/1: both; paused and resumed on 3/5: still 2; cancelled 3/10: 1.
    expect(counts(all.body)).toEqual([1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1])
    const later = await get(
      '/daily-report/active-contract',
      { startDate: '2026-3-9', endDate: '2026-3-10' },
      ZDailyCounts,
    )
    expect(counts(later.body)).toEqual([2, 1])
  })

  it('a late fact updates its own past day', async () => {
    await event(shop, '3', 'created', '2026-03-03T01:00:00Z')
    const { body } = await get('/daily-report/new-contract', { startDate: '2026-3-3', endDate: '2026-3-3' })
    expect(body).toEqual([{ date: '2026-03-03', count: 1 }])
    await event(shop, '3', 'status_changed', '2026-03-04T01:00:00Z', { from: 'ACTIVE', to: 'CANCELLED' })
  })
})

describe('sales', () => {
  it('per day and currency, never mixed; test and cancelled orders left out', async () => {
    const { body } = await get(
      '/daily-report/subtotal',
      { startDate: '2026-3-2', endDate: '2026-3-2' },
      ZSalesSeries,
    )
    expect(body).toEqual([
      { date: '2026-03-02', currency: 'JPY', sales: '1980', orders: 1 },
      { date: '2026-03-02', currency: 'USD', sales: '12.5', orders: 1 },
    ])
    const jpy = await get('/daily-report/subtotal', { ...range, currency: 'JPY' }, ZSalesSeries)
    expect(jpy.body.every((p: { currency: string }) => p.currency === 'JPY')).toBe(true)
    expect(jpy.body[0]).toEqual({ date: '2026-02-28', currency: 'JPY', sales: '1980', orders: 1 })
    const cumulative = await get('/cumulative/subtotal', { ...range, currency: 'JPY' }, ZSalesSeries)
    expect(cumulative.body.at(-1)).toMatchObject({ sales: '3960', orders: 2 })
  })

  it('an order cancelled later leaves the sales of its day', async () => {
    const id = await order(shop, { contractId: '2', createdAt: '2026-03-06T03:00:00Z', amount: 3000 })
    const day = { startDate: '2026-3-6', endDate: '2026-3-6', currency: 'JPY' }
    expect((await get('/daily-report/subtotal', day)).body[0].sales).toBe('3000')
    await env.pool.query('update orders set cancelled_at = now() where shop_id = $1 and id = $2', [
      shop.id,
      id,
    ])
    expect((await get('/daily-report/subtotal', day)).body[0].sales).toBe('0')
  })

  it('a shop flagged test_shop counts its test orders (every order of a development store is one)', async () => {
    const s = await createShop(env.pool, { prefix: 'reports-testshop' })
    await order(s, { contractId: '1', createdAt: '2026-03-02T03:00:00Z', amount: 500, test: true })
    await event(s, '1', 'created', '2026-03-02T03:00:00Z')
    const day = { startDate: '2026-3-2', endDate: '2026-3-2' }
    expect((await get('/daily-report/subtotal', day, ZSalesSeries, s)).body[0].sales).toBe('0')
    const persistence = async () =>
      (await get('/subscriptions/persistence-rate', { baseDate: '2026-3-1' }, ZPersistenceRate, s)).body
        .rows[0].entries[0].count
    expect(await persistence()).toBe(0)
    await env.pool.query(`insert into shop_flags (shop_id, flag, enabled) values ($1, 'test_shop', true)`, [
      s.id,
    ])
    expect((await get('/daily-report/subtotal', day, ZSalesSeries, s)).body[0].sales).toBe('500')
    expect(await persistence()).toBe(1)
  })

  it('currencies of the range', async () => {
    const { body } = await get('/daily-report/subtotal/currency', range, ZCurrencyList)
    expect(body.map((c: { currency: string }) => c.currency)).toEqual(['JPY', 'USD'])
    expect((await get('/cumulative/subtotal/currency', range, ZCurrencyList)).status).toBe(200)
  })
})

describe('edges', () => {
  it('current active contracts from the mirror', async () => {
    const { status, body } = await get('/current/active-contract', {}, ZCurrentCount)
    expect(status).toBe(200)
    expect(body.count).toBe(0) // no contracts in this shop's mirror
  })

  it.each([
    [{ startDate: '2026-3-10', endDate: '2026-3-1' }, /開始日は終了日以前/],
    [{ startDate: '2026-2-30', endDate: '2026-3-1' }, /開始日/],
    [{ startDate: '2026-3-1' }, /終了日/],
    [{ startDate: '1999-1-1', endDate: '2026-3-1' }, /2000年1月1日以降/],
    [{ startDate: '2000-1-1', endDate: '2030-12-31' }, /日以内/],
    [{ startDate: '2026-03-01T00:00', endDate: '2026-3-1' }, /開始日/],
  ])('400 in Japanese for %o', async (query, message) => {
    for (const path of [
      '/daily-report/new-contract',
      '/cumulative/subtotal',
      '/daily-report/active-contract',
    ]) {
      const { status, body } = await get(path, query as Record<string, string>)
      expect(status).toBe(400)
      expect(body.error.message).toMatch(message)
    }
  })

  it('shops never see each other', async () => {
    const { body } = await get('/daily-report/new-contract', range, ZDailyCounts, other)
    expect(counts(body).reduce((a: number, b: number) => a + b, 0)).toBe(1)
    const sales = await get(
      '/daily-report/subtotal',
      { startDate: '2026-3-2', endDate: '2026-3-2' },
      ZSalesSeries,
      other,
    )
    expect(sales.body).toEqual([{ date: '2026-03-02', currency: 'JPY', sales: '99999', orders: 1 }])
  })
})

describe('the rollups equal the domain definitions on a generated history', () => {
  it('every measure, every day', async () => {
    const s = await createShop(env.pool, { prefix: 'reports-gen' })
    let seed = 7
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed / 2 ** 31
    }
    const statuses = ['ACTIVE', 'PAUSED', 'CANCELLED', 'FAILED']
    const events: HistoryEvent[] = []
    const orders: OrderFact[] = []
    const at = () => new Date(Date.UTC(2026, 0, 1) + Math.floor(rand() * 60 * 86_400_000)).toISOString()
    for (let c = 1; c <= 40; c++) {
      const id = String(c)
      events.push({ contractId: id, type: 'created', occurredAt: at() })
      let status = 'ACTIVE'
      for (let k = 0; k < 3; k++) {
        const to = statuses[Math.floor(rand() * 4)]!
        if (to !== status)
          events.push({
            contractId: id,
            type: 'status_changed',
            occurredAt: at(),
            payload: { from: status, to },
          })
        status = to
        if (rand() < 0.3) events.push({ contractId: id, type: 'billing_failed', occurredAt: at() })
        const amount = Math.floor(rand() * 5000)
        const refund = rand()
        orders.push({
          contractId: rand() < 0.9 ? id : null,
          createdAt: at(),
          currencyCode: rand() < 0.8 ? 'JPY' : 'USD',
          amount,
          // Some refunded in part, some in full (issue 14: refunds excluded from the subtotal).
          refunded: refund < 0.2 ? Math.floor(amount * refund * 4) : refund < 0.3 ? amount : 0,
          test: rand() < 0.1,
          cancelledAt: rand() < 0.1 ? at() : null,
        })
      }
    }
    for (const e of events) await event(s, e.contractId, e.type, e.occurredAt as string, e.payload ?? {})
    for (const o of orders) await order(s, { ...o, createdAt: o.createdAt as string })
    const days = dailyMeasures(events, 'Asia/Tokyo')
    const [from, to] = ['2026-01-10', '2026-02-20']
    const q = { startDate: from, endDate: to }
    const paths = { created: 'new-contract', cancelled: 'cancel', paused: 'pause' } as const
    for (const [measure, path] of Object.entries(paths)) {
      const expected = dailySeries(days, measure as 'created', from, to)
      expect((await get(`/daily-report/${path}`, q, undefined, s)).body).toEqual(expected)
      expect((await get(`/cumulative/${path}`, q, undefined, s)).body).toEqual(cumulativeSeries(expected))
    }
    expect((await get('/cumulative/failure', q, undefined, s)).body).toEqual(
      cumulativeSeries(dailySeries(days, 'failed', from, to)),
    )
    const deltas = new Map([...days].map(([d, m]) => [d, m.activeDelta]))
    expect((await get('/daily-report/active-contract', q, undefined, s)).body).toEqual(
      activeSeries(activeBefore(days, from), deltas, from, to),
    )
    // Persistence: the histogram (no filter) and the per contract path (a filter every contract
    // passes: none has a source) both equal the cohort rule applied to the same history.
    const startMonth = new Map(
      events
        .filter((e) => e.type === 'created')
        .map((e) => [e.contractId, toZonedDate(e.occurredAt, 'Asia/Tokyo').slice(0, 7)]),
    )
    const counted = new Map<string, number>()
    for (const o of orders)
      if (isCountedOrder(o)) counted.set(o.contractId!, (counted.get(o.contractId!) ?? 0) + 1)
    for (const query of [{ baseDate: '2026-1-1' }, { baseDate: '2026-1-1', source: '(direct)' }] as Array<
      Record<string, string>
    >) {
      const rows = (await get('/subscriptions/persistence-rate', query, ZPersistenceRate, s)).body
        .rows as Array<{
        targetDate: string
        contracts: number
        entries: Array<{ count: number }>
      }>
      for (const row of rows) {
        const cohort = [...startMonth]
          .filter(([, m]) => m === row.targetDate.slice(0, 7))
          .map(([id]) => counted.get(id) ?? 0)
        expect([row.targetDate, row.contracts, row.entries.map((e) => e.count)]).toEqual([
          row.targetDate,
          cohort.length,
          reachedCounts(cohort),
        ])
      }
    }
    const sales = dailySales(orders, 'Asia/Tokyo')
    const got = (await get('/daily-report/subtotal', { ...q, currency: 'JPY' }, undefined, s)).body as Array<{
      date: string
      sales: string
      orders: number
    }>
    for (const point of got) {
      const want = sales.get(`${point.date}|JPY`) ?? { amount: 0, orders: 0 }
      expect([point.date, Number(point.sales), point.orders]).toEqual([point.date, want.amount, want.orders])
    }
  })
})

describe('persistence rate', () => {
  it('cohorts by start month with the share that reached each order count', async () => {
    const s = await createShop(env.pool, { prefix: 'reports-persist' })
    // January cohort: 4 contracts with 1, 2, 2, 5 orders; February: 1 contract, no orders.
    const plan = [1, 2, 2, 5]
    for (const [i, n] of plan.entries()) {
      const id = String(100 + i)
      await event(s, id, 'created', '2026-01-10T01:00:00Z')
      for (let k = 0; k < n; k++)
        await order(s, { contractId: id, createdAt: `2026-0${1 + Math.min(k, 8)}-15T01:00:00Z` })
    }
    await order(s, { contractId: '100', createdAt: '2026-02-15T01:00:00Z', test: true })
    await event(s, '200', 'created', '2026-02-01T01:00:00Z')
    const { status, body } = await get(
      '/subscriptions/persistence-rate',
      { baseDate: '2026-1-1' },
      ZPersistenceRate,
      s,
    )
    expect(status).toBe(200)
    const [jan, feb] = body.rows
    expect(jan.targetDate).toBe('2026-01-01')
    expect(jan.contracts).toBe(4)
    expect(
      jan.entries.slice(0, 3).map((e: { count: number; percent: string }) => [e.count, e.percent]),
    ).toEqual([
      [4, '100%'],
      [3, '75%'],
      [1, '25%'],
    ])
    expect(jan.entries).toHaveLength(12)
    expect(feb).toMatchObject({ targetDate: '2026-02-01', contracts: 1 })
    expect(feb.entries[0].percent).toBe('0%')
  })

  it('split by source: only contracts attributed to it; (direct) for none', async () => {
    const s = await createShop(env.pool, { prefix: 'reports-split' })
    await event(s, '1', 'created', '2026-01-10T01:00:00Z')
    await event(s, '2', 'created', '2026-01-10T01:00:00Z')
    await order(s, { contractId: '1', createdAt: '2026-01-10T01:00:00Z' })
    await env.pool.query(
      `insert into contract_attributions (shop_id, contract_id, source, medium, touched_at) values ($1, 1, 'instagram', 'social', now())`,
      [s.id],
    )
    const insta = await get(
      '/subscriptions/persistence-rate',
      { baseDate: '2026-1-1', source: 'instagram' },
      ZPersistenceRate,
      s,
    )
    expect(insta.body.rows[0]).toMatchObject({ contracts: 1 })
    expect(insta.body.rows[0].entries[0].count).toBe(1)
    const direct = await get(
      '/subscriptions/persistence-rate',
      { baseDate: '2026-1-1', source: '(direct)' },
      ZPersistenceRate,
      s,
    )
    expect(direct.body.rows[0]).toMatchObject({ contracts: 1 })
    expect(direct.body.rows[0].entries[0].count).toBe(0)
    const medium = await get(
      '/subscriptions/persistence-rate',
      { baseDate: '2026-1-1', medium: 'social' },
      ZPersistenceRate,
      s,
    )
    expect(medium.body.rows[0]).toMatchObject({ contracts: 1 })
  })

  it('400 for a bad base date or plan id', async () => {
    expect((await get('/subscriptions/persistence-rate', { baseDate: '2026-13-1' })).status).toBe(400)
    expect(
      (await get('/subscriptions/persistence-rate', { baseDate: '2026-1-1', sellingPlanId: 'x' })).status,
    ).toBe(400)
  })
})
