import { afterEach, describe, expect, it } from 'vitest'
import type { Emulator } from '../src/server.ts'
import { adminCall } from './support/client.ts'
import { SHOP, smallEmulator } from './support/harness.ts'

const shopQuery = '{ shop { id } }'

describe('fault knobs and plan-dependent throttling', () => {
  const open: Emulator[] = []
  afterEach(async () => {
    for (const e of open.splice(0)) await e.close()
  })
  const serve = async (opts: Parameters<typeof smallEmulator>[0] = {}) => {
    const emulator = await smallEmulator(opts)
    open.push(emulator)
    const { url } = await emulator.listen(0)
    return { emulator, url, token: emulator.install(SHOP).accessToken }
  }

  it('errorRate answers 500/502/503, deterministically for a seed; set over HTTP', async () => {
    const statuses = async () => {
      const { url, token } = await serve()
      const set = await fetch(`${url}/emulator/faults`, {
        method: 'POST',
        body: JSON.stringify({ errorRate: 0.5, seed: 3 }),
      })
      expect(await set.json()).toMatchObject({ errorRate: 0.5, seed: 3 })
      const out: number[] = []
      for (let i = 0; i < 20; i++) {
        const res = await fetch(`${url}/admin/api/2025-04/graphql.json`, {
          method: 'POST',
          headers: { 'x-shopify-access-token': token, 'content-type': 'application/json' },
          body: JSON.stringify({ query: shopQuery }),
        })
        await res.text()
        out.push(res.status)
      }
      return out
    }
    const first = await statuses()
    expect(new Set(first.filter((s) => s !== 200)).size).toBeGreaterThan(1)
    for (const s of first) expect([200, 500, 502, 503]).toContain(s)
    expect(await statuses()).toEqual(first)
  })

  it('answers the test controls only when created as a test fixture (controls: true)', async () => {
    const { emulator, url } = await serve({ controls: false })
    for (const method of ['GET', 'POST']) {
      const res = await fetch(`${url}/emulator/faults`, {
        method,
        ...(method === 'POST' ? { body: JSON.stringify({ errorRate: 1 }) } : {}),
      })
      expect(res.status, method).toBe(404)
      expect(await res.json()).toEqual({ errors: 'Not Found' })
    }
    expect(emulator.faults.settings.errorRate).toBe(0)
    const fixture = await serve()
    expect((await fetch(`${fixture.url}/emulator/faults`)).status).toBe(200)
  })

  it('rejects out-of-range knobs with a 400', async () => {
    const { url } = await serve()
    const res = await fetch(`${url}/emulator/faults`, { method: 'POST', body: JSON.stringify({ drop: 2 }) })
    expect(res.status).toBe(400)
    expect((await res.json()).error.code).toBe('INVALID_FAULTS')
  })

  it('throttleNext forces THROTTLED answers, then lets requests through', async () => {
    const { emulator, url, token } = await serve()
    emulator.faults.set({ throttleNext: 2 })
    const bodies = []
    for (let i = 0; i < 3; i++) bodies.push((await adminCall(url, token, shopQuery)).body)
    expect(bodies.map((b) => b.errors?.[0]?.extensions?.code ?? 'OK')).toEqual([
      'THROTTLED',
      'THROTTLED',
      'OK',
    ])
    expect(bodies[0].extensions.cost.actualQueryCost).toBeNull()
  })

  it('latencyMs delays every response', async () => {
    const { emulator, url, token } = await serve()
    emulator.faults.set({ latencyMs: 60 })
    const t0 = Date.now()
    await adminCall(url, token, shopQuery)
    expect(Date.now() - t0).toBeGreaterThanOrEqual(55)
  })

  it.each([
    ['Basic', 100, 2000],
    ['Advanced', 200, 4000],
    ['Shopify Plus', 1000, 20_000],
    ['Enterprise', 2000, 40_000],
  ])('a %s shop gets restore %i/s and bucket %i', async (plan, restoreRate, maximumAvailable) => {
    const emulator = await smallEmulator({ throttle: true, shops: [{ domain: SHOP, contracts: 1, plan }] })
    open.push(emulator)
    const res = await emulator.graphql(SHOP, { query: '{ shop { plan { displayName shopifyPlus } } }' })
    expect(res.data).toEqual({ shop: { plan: { displayName: plan, shopifyPlus: plan === 'Shopify Plus' } } })
    expect(res.extensions.cost.throttleStatus).toMatchObject({ restoreRate, maximumAvailable })
  })

  it('setPlan changes the bucket; the throttle option still overrides plans', async () => {
    const emulator = await smallEmulator({ throttle: true })
    open.push(emulator)
    emulator.setPlan(SHOP, 'Shopify Plus')
    expect(
      (await emulator.graphql(SHOP, { query: shopQuery })).extensions.cost.throttleStatus.restoreRate,
    ).toBe(1000)
    const fixed = await smallEmulator({
      throttle: { restoreRate: 50, bucketSize: 1000 },
      shops: [{ domain: SHOP, contracts: 1, plan: 'Shopify Plus' }],
    })
    open.push(fixed)
    expect((await fixed.graphql(SHOP, { query: shopQuery })).extensions.cost.throttleStatus).toMatchObject({
      restoreRate: 50,
      maximumAvailable: 1000,
    })
  })
})
