import { DEFAULT_BILLING_SETTINGS, ZUpcomingChargesResponse } from '@teiki/contract'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { buildApp } from '../src/http/app.ts'
import { buildTestApp, createShop, seedContracts, testPool } from './support/fixtures.ts'

/** 10:00 on 25 November in Tokyo: "today" of the upcoming charges. */
const NOW = new Date('2026-11-25T01:00:00Z')

let pool: pg.Pool
let app: Awaited<ReturnType<typeof buildApp>>
let shop: Awaited<ReturnType<typeof createShop>>
let other: Awaited<ReturnType<typeof createShop>>

beforeAll(async () => {
  pool = testPool()
  app = await buildTestApp(pool, { now: () => NOW })
  await app.ready()
  shop = await createShop(pool, { prefix: 'bill-api' })
  other = await createShop(pool, { prefix: 'bill-api-other' })
})
afterAll(async () => {
  await app?.close()
  await pool?.end()
})

function call(method: 'GET' | 'PUT', path: string, body?: unknown, who = shop) {
  const sep = path.includes('?') ? '&' : '?'
  return app.inject({
    method,
    url: `/app-admin${path}${sep}shop=${who.domain}&secret=${who.secret}`,
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}

describe('billing settings', () => {
  const custom = {
    billingHour: 9,
    lookbackDays: 3,
    retryAttempts: 4,
    retryIntervalDays: 5,
    finalAction: 'PAUSE',
    inventoryRetryAttempts: 2,
    inventoryRetryIntervalDays: 2,
    inventoryFinalAction: 'CANCEL',
    deliveryPrepDays: 4,
  }

  it('answers the defaults until the shop saves its own, then what it saved', async () => {
    const before = await call('GET', '/billing-settings')
    expect(before.statusCode).toBe(200)
    expect(before.json()).toEqual(DEFAULT_BILLING_SETTINGS)

    const put = await call('PUT', '/billing-settings', custom)
    expect(put.statusCode).toBe(200)
    expect(put.json()).toEqual(custom)
    expect((await call('GET', '/billing-settings')).json()).toEqual(custom)
    // Another shop keeps its own (the defaults).
    expect((await call('GET', '/billing-settings', undefined, other)).json()).toEqual(
      DEFAULT_BILLING_SETTINGS,
    )

    const again = await call('PUT', '/billing-settings', { ...custom, retryAttempts: 0, finalAction: 'SKIP' })
    expect(again.json()).toMatchObject({ retryAttempts: 0, finalAction: 'SKIP' })
  })

  it.each([
    ['an hour past 23', { billingHour: 24 }, '請求時刻は23以下で指定してください'],
    ['a fractional interval', { retryIntervalDays: 1.5 }, '再試行の間隔は整数で指定してください'],
    ['no interval', { retryIntervalDays: 0 }, '再試行の間隔は1以上で指定してください'],
    ['too many retries', { retryAttempts: 11 }, '再試行回数は10以下で指定してください'],
    [
      'an unknown final action',
      { finalAction: 'DELETE' },
      '最終処理は 解約・一時停止・スキップ のいずれかを指定してください',
    ],
    ['a text where a number goes', { deliveryPrepDays: '3' }, 'お届け準備期間を数値で指定してください'],
    ['a missing field', { lookbackDays: undefined }, 'さかのぼる日数を数値で指定してください'],
  ])('refuses %s with a Japanese 400 and stores nothing', async (_name, change, message) => {
    const before = (await call('GET', '/billing-settings')).json()
    const res = await call('PUT', '/billing-settings', { ...custom, ...change })
    expect(res.statusCode).toBe(400)
    expect(res.json().error.code).toBe('INVALID_INPUT')
    expect(res.json().error.message).toContain(message)
    expect((await call('GET', '/billing-settings')).json()).toEqual(before)
  })
})

describe('upcoming charges', () => {
  const customer = (id: string) => ({
    id,
    firstName: '花子',
    lastName: `山田${id}`,
    email: `hanako${id}@example.jp`,
  })
  const base = 9_100_000_000

  beforeAll(async () => {
    const id = (n: number) => String(base + n)
    await seedContracts(pool, shop.id, [
      // Today before the billing hour: still to be charged today.
      { id: id(1), customer: customer(id(1)), nextBillingDate: '2026-11-25T00:30:00Z' },
      // The last minute of the range (23:59 on the 27th in Tokyo).
      { id: id(2), customer: customer(id(2)), nextBillingDate: '2026-11-27T14:59:00Z' },
      // Midnight of the 28th in Tokyo: after the range.
      { id: id(3), customer: customer(id(3)), nextBillingDate: '2026-11-27T15:00:00Z' },
      { id: id(4), status: 'PAUSED', customer: customer(id(4)), nextBillingDate: '2026-11-26T01:00:00Z' },
      // In dunning: shows as its retry, once.
      { id: id(5), customer: customer(id(5)), nextBillingDate: '2026-11-20T01:00:00Z' },
      { id: id(6), customer: customer(id(6)), nextBillingDate: '2026-11-26T03:00:00Z' },
      // In dunning with the retry after the range: not listed.
      { id: id(7), customer: customer(id(7)), nextBillingDate: '2026-11-26T01:00:00Z' },
    ])
    await pool.query(
      `update subscription_contracts set delivery_price = v.price::numeric, currency_code = v.currency
       from (values ($2::bigint, '500', 'JPY'), ($3, '0', 'JPY'), ($4, null, 'JPY'), ($5, '5.5', 'USD'))
         as v(id, price, currency)
       where shop_id = $1 and subscription_contracts.id = v.id`,
      [shop.id, id(1), id(2), id(5), id(6)],
    )
    const lines: Array<[string, string, number]> = [
      [id(1), '1200', 2],
      [id(1), '800', 1],
      [id(2), '3980', 1],
      [id(3), '1000', 1],
      [id(4), '1000', 1],
      [id(5), '2000', 3],
      [id(6), '19.99', 2],
      [id(7), '1000', 1],
    ]
    for (const [position, [contract, price, quantity]] of lines.entries()) {
      await pool.query(
        `insert into subscription_lines (shop_id, contract_id, id, title, quantity, current_price, position)
         values ($1, $2, $3, '定期便コーヒー', $4, $5, $6)`,
        [
          shop.id,
          contract,
          `gid://shopify/SubscriptionLine/${contract}-${position}`,
          quantity,
          price,
          position,
        ],
      )
    }
    for (const [contract, retryAt] of [
      [id(5), '2026-11-26T01:00:00Z'],
      [id(7), '2026-12-05T01:00:00Z'],
    ] as const) {
      await pool.query(
        `insert into billing_cycles (shop_id, contract_id, cycle_date, due_at, origin, status, attempt_no,
           idempotency_key, next_retry_at, failure_kind, error_code)
         values ($1, $2, '2026-11-20', '2026-11-20T01:00:00Z', 'schedule', 'retry_scheduled', 0, $3, $4,
           'payment', 'INSUFFICIENT_FUNDS')`,
        [shop.id, contract, `billing:${contract}:2026-11-20:0`, retryAt],
      )
    }
    // Two orders so far: the next charge is the third cycle.
    for (const n of [1, 2]) {
      await pool.query(
        `insert into orders (shop_id, id, contract_id, total_amount, currency_code, created_at)
         values ($1, $2, $3, 3700, 'JPY', '2026-10-25T01:00:00Z')`,
        [shop.id, base * 10 + n, id(1)],
      )
    }
  })

  it('lists the charges of the next N shop-local days with per-currency totals', async () => {
    const res = await call('GET', '/billing/upcoming?days=3')
    expect(res.statusCode).toBe(200)
    const body = ZUpcomingChargesResponse.parse(res.json())
    expect(body.from).toBe('2026-11-25')
    expect(body.to).toBe('2026-11-27')
    expect(body.total).toBe(4)
    expect(body.totals).toEqual([
      { currencyCode: 'JPY', amount: '13680', count: 3 },
      { currencyCode: 'USD', amount: '45.48', count: 1 },
    ])
    expect(body.charges.map((c) => [c.contractId, c.nextBillingDate, c.amount.amount, c.isRetry])).toEqual([
      [String(base + 1), '2026-11-25T00:30:00.000Z', '3700', false],
      [String(base + 5), '2026-11-26T01:00:00.000Z', '6000', true],
      [String(base + 6), '2026-11-26T03:00:00.000Z', '45.48', false],
      [String(base + 2), '2026-11-27T14:59:00.000Z', '3980', false],
    ])
    expect(body.charges[0]).toMatchObject({
      cycle: 3,
      displayName: expect.stringContaining('山田'),
      amount: { currencyCode: 'JPY' },
    })
    expect(body.charges[1]!.cycle).toBe(1)
  })

  it('pages through the charges; totals cover the whole range', async () => {
    const page = (await call('GET', '/billing/upcoming?days=3&limit=2&offset=2')).json()
    expect(page.charges.map((c: { contractId: string }) => c.contractId)).toEqual([
      String(base + 6),
      String(base + 2),
    ])
    expect(page.total).toBe(4)
    expect(page.totals).toHaveLength(2)
    // One day: today only.
    const today = (await call('GET', '/billing/upcoming?days=1')).json()
    expect(today.charges.map((c: { contractId: string }) => c.contractId)).toEqual([String(base + 1)])
    expect(today.to).toBe('2026-11-25')
  })

  it('refuses a range outside 1-31 days in Japanese, and shows another shop nothing of this one', async () => {
    const zero = await call('GET', '/billing/upcoming?days=0')
    expect(zero.statusCode).toBe(400)
    expect(zero.json().error.message).toContain('日数は1以上で指定してください')
    expect((await call('GET', '/billing/upcoming?days=32')).json().error.message).toContain('日数は31以下')
    const foreign = (await call('GET', '/billing/upcoming?days=31', undefined, other)).json()
    expect(foreign).toMatchObject({ total: 0, charges: [], totals: [] })
  })
})

describe('billing runs', () => {
  it('lists the latest runs of the shop, newest first', async () => {
    for (const [n, started] of [
      '2026-11-23T01:00:00Z',
      '2026-11-24T01:00:00Z',
      '2026-11-25T01:00:00Z',
    ].entries()) {
      await pool.query(
        `insert into billing_runs (shop_id, trigger, run_at, started_at, finished_at, due, attempted, succeeded, failed,
           skipped, already_billed)
         values ($1, 'schedule', $2, $2, $2, $3, $3, $3, 0, 1, 0)`,
        [shop.id, started, n + 1],
      )
    }
    const res = await call('GET', '/billing/runs?limit=2')
    expect(res.statusCode).toBe(200)
    expect(res.json().runs).toEqual([
      expect.objectContaining({
        shop: shop.domain,
        now: '2026-11-25T01:00:00.000Z',
        due: 3,
        succeeded: 3,
        skipped: 1,
      }),
      expect.objectContaining({ now: '2026-11-24T01:00:00.000Z', due: 2, trigger: 'schedule', error: null }),
    ])
    expect((await call('GET', '/billing/runs', undefined, other)).json().runs).toEqual([])
    expect((await call('GET', '/billing/runs?limit=0')).statusCode).toBe(400)
  })
})
