import { ZErrorResponse, ZPixelSettings, ZTrafficConditions, ZTrafficReport } from '@teiki/contract'
import { beforeAll, describe, expect, it } from 'vitest'
import { attributeAll } from '../src/features/traffic/attribution.ts'
import { appendContractEvent } from '../src/sync/contracts-repo.ts'
import { createShop, type SeedContract, seedContracts, useTestApp } from './support/fixtures.ts'

type Shop = Awaited<ReturnType<typeof createShop>>
let shop: Shop
let other: Shop
let key: string
let otherKey: string

async function admin(path: string, query: Record<string, string> = {}, as: Shop = shop) {
  const q = new URLSearchParams({ shop: as.domain, secret: as.secret, ...query })
  const res = await env.app.inject({ method: 'GET', url: `/app-admin${path}?${q}` })
  if (res.statusCode >= 400) ZErrorResponse.parse(res.json())
  return { status: res.statusCode, body: res.json() }
}

async function send(body: unknown, opts: { as?: Shop; key?: string; type?: string; raw?: string } = {}) {
  const q = new URLSearchParams({ shop: (opts.as ?? shop).domain, key: opts.key ?? key })
  const res = await env.app.inject({
    method: 'POST',
    url: `/pixel/events?${q}`,
    headers: { 'content-type': opts.type ?? 'text/plain' },
    payload: opts.raw ?? JSON.stringify(body),
  })
  return { status: res.statusCode, body: res.json(), headers: res.headers }
}

let n = 0
const view = (clientId: string, url: string) => ({
  id: `pv-${process.pid}-${n++}`,
  name: 'page_viewed',
  timestamp: new Date().toISOString(),
  clientId,
  url,
})
const checkout = (clientId: string, orderId: string) => ({
  id: `co-${process.pid}-${n++}`,
  name: 'checkout_completed',
  timestamp: new Date().toISOString(),
  clientId,
  orderId: `gid://shopify/Order/${orderId}`,
})

const env = useTestApp()
beforeAll(async () => {
  shop = await createShop(env.pool, { prefix: 'traffic' })
  other = await createShop(env.pool, { prefix: 'traffic-other' })
  key = ZPixelSettings.parse((await admin('/traffic/pixel-settings')).body).accountID
  otherKey = (await admin('/traffic/pixel-settings', {}, other)).body.accountID
})

describe('pixel ingest', () => {
  it('the key is made once and kept', async () => {
    expect((await admin('/traffic/pixel-settings')).body.accountID).toBe(key)
    expect(key).not.toBe(otherKey)
  })

  it('stores page views and checkouts, answers with CORS, counts a replayed event id once', async () => {
    const first = view('c1', 'https://shop.jp/?utm_source=instagram&utm_medium=social&utm_campaign=spring')
    const res = await send({ events: [first, view('c1', 'https://shop.jp/products/tea')] })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ accepted: 2, duplicates: 0 })
    expect(res.headers['access-control-allow-origin']).toBe('*')
    const replay = await send({ events: [first, first] }, { type: 'application/json' })
    expect(replay.body).toEqual({ accepted: 0, duplicates: 2 })
    const { rows } = await env.pool.query(
      'select count(*)::int as n from traffic_hits where shop_id = $1 and event_id = $2',
      [shop.id, first.id],
    )
    expect(rows[0].n).toBe(1)
  })

  it('concurrent requests carrying the same id store it once', async () => {
    const e = view('c9', 'https://shop.jp/?utm_source=line')
    const results = await Promise.all(Array.from({ length: 10 }, () => send({ events: [e] })))
    expect(results.every((r) => r.status === 200)).toBe(true)
    expect(results.reduce((s, r) => s + r.body.accepted, 0)).toBe(1)
  })

  it.each([
    ['a wrong key', { key: 'wrong' }, 401],
    ["another shop's key", { key: 'OTHER' }, 401],
    ['an empty key', { key: '' }, 401],
    ['broken JSON', { raw: '{"events": [' }, 400],
    ['a JSON array', { raw: '[]' }, 400],
    [
      'an oversize body',
      { raw: JSON.stringify({ events: [view('x', `https://a.jp/?q=${'a'.repeat(40_000)}`)] }) },
      413,
    ],
    [
      'an unknown field',
      { raw: JSON.stringify({ events: [{ ...view('x', 'https://a.jp'), extra: 1 }] }) },
      400,
    ],
    [
      'a bad event id',
      { raw: JSON.stringify({ events: [{ ...view('x', 'https://a.jp'), id: 'a b\u0000' }] }) },
      400,
    ],
    [
      'too many events',
      { raw: JSON.stringify({ events: Array.from({ length: 51 }, () => view('x', 'https://a.jp')) }) },
      400,
    ],
    ['no events', { raw: JSON.stringify({ events: [] }) }, 400],
    ['a bad order id', { raw: JSON.stringify({ events: [{ ...checkout('x', '1'), orderId: '-1' }] }) }, 400],
    ['another content type', { type: 'application/x-www-form-urlencoded', raw: 'a=1' }, 415],
  ])('refuses %s with a 4xx', async (_name, opts, status) => {
    const o = opts as { key?: string; raw?: string; type?: string }
    const res = await send(undefined, { ...o, ...(o.key === 'OTHER' ? { key: otherKey } : {}) })
    expect(res.status).toBe(status)
    ZErrorResponse.parse(res.body)
  })

  it('refuses a shop that is not a shop domain, or no key, before any lookup', async () => {
    const res = await env.app.inject({
      method: 'POST',
      url: '/pixel/events?shop=evil.com&key=x',
      payload: '{}',
    })
    expect(res.statusCode).toBe(401)
    const none = await env.app.inject({
      method: 'POST',
      url: `/pixel/events?shop=${shop.domain}`,
      payload: '{}',
    })
    expect(none.statusCode).toBe(401)
  })
})

describe('attribution and the traffic report', () => {
  it('a contract from a tracked checkout is attributed to the last non-direct touch; the report counts it', async () => {
    const s = await createShop(env.pool, { prefix: 'traffic-attr' })
    const k = (await admin('/traffic/pixel-settings', {}, s)).body.accountID
    const ok = (events: unknown[]) => send({ events }, { as: s, key: k })
    await ok([view('browser-1', 'https://shop.jp/?utm_source=google&utm_medium=cpc&utm_campaign=tea')])
    await ok([
      view(
        'browser-1',
        'https://shop.jp/?utm_source=instagram&utm_medium=social&utm_campaign=spring&utm_content=reel',
      ),
    ])
    await ok([view('browser-1', 'https://shop.jp/cart')]) // direct: does not take the credit
    await ok([
      view(
        'browser-2',
        'https://shop.jp/?utm_source=instagram&utm_medium=social&utm_campaign=spring&utm_content=reel',
      ),
    ])
    await ok([checkout('browser-1', '880001')])
    // The contract arrives after the checkout (its webhook), as on the platform.
    const contract: SeedContract = {
      id: '770001',
      customer: { id: '660001', firstName: '花子', lastName: '佐藤', email: 'h@example.jp' },
      nextBillingDate: null,
    }
    await seedContracts(env.pool, s.id, [contract])
    await env.pool.query(
      'update subscription_contracts set origin_order_id = 880001 where shop_id = $1 and id = 770001',
      [s.id],
    )
    await appendContractEvent(env.pool, s.id, 'webhook', {
      contractId: '770001',
      type: 'created',
      payload: {},
    })
    expect(await attributeAll(env.pool)).toBeGreaterThanOrEqual(1)
    const { rows } = await env.pool.query(
      'select source, medium, campaign, content, customer_id::text from contract_attributions where shop_id = $1',
      [s.id],
    )
    expect(rows).toEqual([
      { source: 'instagram', medium: 'social', campaign: 'spring', content: 'reel', customer_id: '660001' },
    ])

    const range = { startDate: '2026-1-1', endDate: '2030-1-1' }
    const report = await admin('/traffic-actuation', range, s)
    expect(report.status).toBe(200)
    ZTrafficReport.parse(report.body)
    const insta = report.body.rows.find((r: { source: string }) => r.source === 'instagram')
    expect(insta).toEqual({
      source: 'instagram',
      medium: 'social',
      campaign: 'spring',
      content: 'reel',
      accessCount: 2,
      achievedCount: 1,
      rate: '50.0%',
    })
    const google = report.body.rows.find((r: { source: string }) => r.source === 'google')
    expect(google).toMatchObject({ accessCount: 1, achievedCount: 0, rate: '0.0%' })
    const filtered = await admin('/traffic-actuation', { ...range, source: 'google' }, s)
    expect(filtered.body.rows.map((r: { source: string }) => r.source)).toEqual(['google'])
    const conditions = await admin('/traffic-actuation/condition', {}, s)
    expect(ZTrafficConditions.parse(conditions.body)).toEqual({
      source: ['google', 'instagram'],
      medium: ['cpc', 'social'],
      campaign: ['spring', 'tea'],
      content: ['reel'],
    })
    // Another shop sees none of it.
    expect(
      (await admin('/traffic-actuation', range, other)).body.rows.some(
        (r: { source: string }) => r.source === 'google',
      ),
    ).toBe(false)
  })

  it('400 for a reversed range or an over-long filter', async () => {
    expect((await admin('/traffic-actuation', { startDate: '2026-2-1', endDate: '2026-1-1' })).status).toBe(
      400,
    )
    expect(
      (
        await admin('/traffic-actuation', {
          startDate: '2026-1-1',
          endDate: '2026-2-1',
          source: 'x'.repeat(201),
        })
      ).status,
    ).toBe(400)
  })
})

describe('the pixel key', () => {
  it('is the same for concurrent first requests', async () => {
    const s = await createShop(env.pool, { prefix: 'traffic-key' })
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => admin('/traffic/pixel-settings', {}, s)),
    )
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200))
    expect(new Set(answers.map((a) => a.body.accountID)).size).toBe(1)
  })
})
