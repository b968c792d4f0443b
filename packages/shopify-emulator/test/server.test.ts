import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_DOMAIN } from '../src/demo-data.ts'
import { toGid } from '../src/gid.ts'
import { createEmulator, type Emulator } from '../src/server.ts'
import { adminCall } from './support/client.ts'
import * as q from './support/queries.ts'

const now = new Date('2025-06-01T03:00:00Z')

describe('emulator over HTTP', () => {
  let emulator: Emulator
  let url: string
  let token: string
  const call = (query: string, variables: Record<string, unknown> = {}) =>
    adminCall(url, token, query, variables)
  const shop = () => emulator.store.shop(DEMO_DOMAIN)!

  beforeAll(async () => {
    emulator = await createEmulator({ now, throttle: false })
    url = (await emulator.listen(0)).url
    token = emulator.install(DEMO_DOMAIN).accessToken
  })
  afterAll(() => emulator.close())

  it('answers /health', async () => {
    const res = await fetch(`${url}/health`)
    expect(res.status).toBe(200)
  })

  it("serves the demo products' images itself: the API answers URLs on this emulator", async () => {
    const { body } = await call(
      'query { products(first: 20) { nodes { handle featuredImage { url } variants(first: 1) { nodes { image { url } } } } } }',
    )
    const products = body.data.products.nodes as Array<{
      handle: string
      featuredImage: { url: string }
      variants: { nodes: Array<{ image: { url: string } }> }
    }>
    expect(products.length).toBeGreaterThan(0)
    for (const p of products) {
      expect(p.featuredImage.url).toBe(`${url}/cdn/products/${p.handle}.svg`)
      expect(p.variants.nodes[0]!.image.url).toBe(p.featuredImage.url)
      const res = await fetch(p.featuredImage.url)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8')
      expect(await res.text()).toMatch(/^<svg [^>]*aria-label="[^"]*[\u3040-\u30ff\u4e00-\u9fff]/)
    }
    expect((await fetch(`${url}/cdn/products/no-such-product.svg`)).status).toBe(404)
  })

  it('rejects a missing or unknown token with the platform 401 body', async () => {
    for (const t of [null, 'shpat_nope']) {
      const { status, body } = await adminCall(url, t, q.shopQuery)
      expect(status).toBe(401)
      expect(body).toEqual({
        errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
      })
    }
  })

  it('install is idempotent and a new shop gets its own working token', async () => {
    expect(emulator.install(DEMO_DOMAIN).accessToken).toBe(token)
    const other = emulator.install('other.myshopify.com')
    expect(other.accessToken).not.toBe(token)
    expect(emulator.install('other.myshopify.com')).toEqual(other)
    const { body } = await adminCall(url, other.accessToken, q.shopQuery)
    expect(body.data.shop.myshopifyDomain).toBe('other.myshopify.com')
  })

  it('serves shop and app installation with cost extensions', async () => {
    const { status, body } = await call(q.shopQuery)
    expect(status).toBe(200)
    expect(body.errors).toBeUndefined()
    expect(body.data.shop).toMatchObject({
      name: '定期便デモストア',
      currencyCode: 'JPY',
      ianaTimezone: 'Asia/Tokyo',
    })
    const sub = body.data.currentAppInstallation.activeSubscriptions[0]
    expect(sub.lineItems[0].plan.pricingDetails).toEqual({
      __typename: 'AppRecurringPricing',
      interval: 'EVERY_30_DAYS',
      price: { amount: '29800.0', currencyCode: 'JPY' },
    })
    expect(body.extensions.cost).toMatchObject({
      requestedQueryCost: expect.any(Number),
      actualQueryCost: expect.any(Number),
      throttleStatus: { maximumAvailable: 2000, restoreRate: 100 },
    })
  })

  it('runs every app document without errors', async () => {
    const s = shop()
    const ids: Record<string, string> = {
      customerQuery: toGid('Customer', s.customers[0]!.id),
      contractQuery: toGid('SubscriptionContract', s.contracts[0]!.id),
      sellingPlanGroupQuery: toGid('SellingPlanGroup', s.sellingPlanGroups[0]!.id),
      productVariantQuery: toGid('ProductVariant', s.variants[0]!.id),
    }
    for (const [name, doc] of Object.entries(q.allDocuments)) {
      const { body } = await call(doc, ids[name] ? { id: ids[name] } : { first: 5 })
      expect(body.errors, name).toBeUndefined()
      expect(
        Object.values(body.data).every((v) => v !== null),
        name,
      ).toBe(true)
    }
  })

  it('renders a contract with real field shapes', async () => {
    const failed = shop().contracts.find((c) => c.status === 'FAILED')!
    const { body } = await call(q.contractQuery, { id: toGid('SubscriptionContract', failed.id) })
    const c = body.data.subscriptionContract
    expect(c.id).toMatch(/^gid:\/\/shopify\/SubscriptionContract\/\d{11}$/)
    expect(c.deliveryPrice.amount).toMatch(/^\d+\.0$/)
    expect(c.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)
    expect(c.lines.nodes[0].variantId).toMatch(/^gid:\/\/shopify\/ProductVariant\/\d{14}$/)
    expect(c.linesCount.count).toBe(c.lines.nodes.length)
    expect(c.deliveryMethod.__typename).toBe('SubscriptionDeliveryMethodShipping')
    expect(c.deliveryMethod.address.provinceCode).toMatch(/^JP-/)
    expect(c.customer.displayName).toContain(' ')
    expect(c.lastPaymentStatus).toBe('FAILED')
    const missing = await call(q.contractQuery, { id: 'gid://shopify/SubscriptionContract/1' })
    expect(missing.body.data.subscriptionContract).toBeNull()
  })

  it('walks all contracts exactly once with first/after', async () => {
    const seen: string[] = []
    let after: string | null = null
    for (;;) {
      const { body } = await call(q.contractIdsQuery, { first: 50, after })
      const conn = body.data.subscriptionContracts
      seen.push(...conn.edges.map((e: { node: { id: string } }) => e.node.id))
      if (!conn.pageInfo.hasNextPage) break
      after = conn.pageInfo.endCursor
    }
    expect(seen).toHaveLength(shop().contracts.length)
    expect(new Set(seen).size).toBe(seen.length)
  })

  it('pages backwards with last/before and sorts newest first with reverse', async () => {
    const first = (await call(q.contractIdsQuery, { first: 20 })).body.data.subscriptionContracts
    const back = (await call(q.contractIdsQuery, { last: 5, before: first.pageInfo.endCursor })).body.data
      .subscriptionContracts
    expect(back.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(
      first.edges.slice(14, 19).map((e: { node: { id: string } }) => e.node.id),
    )
    expect(back.pageInfo.hasPreviousPage).toBe(true)
    const newest = (await call(q.contractIdsQuery, { first: 10, reverse: true })).body.data
      .subscriptionContracts
    const created = newest.edges.map((e: { node: { createdAt: string } }) => e.node.createdAt)
    expect(created).toEqual([...created].sort().reverse())
    expect(newest.edges[0].node.id).toBe(toGid('SubscriptionContract', shop().contracts.at(-1)!.id))
  })

  it('filters contracts by status and updated_at', async () => {
    const active = shop().contracts.filter((c) => c.status === 'ACTIVE')
    const { body } = await call(q.contractIdsQuery, { first: 250, query: 'status:ACTIVE' })
    const nodes = body.data.subscriptionContracts.edges.map((e: { node: { status: string } }) => e.node)
    expect(nodes.every((n: { status: string }) => n.status === 'ACTIVE')).toBe(true)
    expect(nodes).toHaveLength(Math.min(250, active.length))
    const since = '2025-05-01T00:00:00Z'
    const recent = shop().contracts.filter((c) => c.updatedAt > Date.parse(since))
    const r = await call(q.contractIdsQuery, { first: 250, query: `updated_at:>'${since}'` })
    expect(r.body.data.subscriptionContracts.edges).toHaveLength(recent.length)
    const both = await call(q.contractIdsQuery, { first: 250, query: `status:ACTIVE updated_at:>'${since}'` })
    expect(both.body.data.subscriptionContracts.edges).toHaveLength(
      recent.filter((c) => c.status === 'ACTIVE').length,
    )
  })

  it('searches customers by email, phone and free text', async () => {
    const c = shop().customers.find((x) => x.phone)!
    const byEmail = await call(q.customersQuery, { first: 10, query: `email:${c.email}` })
    expect(byEmail.body.data.customers.nodes.map((n: { id: string }) => n.id)).toEqual([
      toGid('Customer', c.id),
    ])
    const local = `0${c.phone!.slice(3)}`
    const byPhone = await call(q.customersQuery, { first: 10, query: `phone:${local}` })
    expect(byPhone.body.data.customers.nodes.map((n: { id: string }) => n.id)).toContain(
      toGid('Customer', c.id),
    )
    const byText = await call(q.customersQuery, { first: 250, query: c.lastName })
    const names = byText.body.data.customers.nodes.map((n: { lastName: string }) => n.lastName)
    expect(names.length).toBeGreaterThan(0)
    expect(names.every((n: string) => n === c.lastName || n.includes(c.lastName))).toBe(true)
    const node = byEmail.body.data.customers.nodes[0]
    expect(node.numberOfOrders).toMatch(/^\d+$/)
  })

  it('serves node lookups by GID', async () => {
    const order = shop().orders[0]!
    const { body } = await call(
      `query N($id: ID!) { node(id: $id) { __typename id ... on Order { name } } }`,
      {
        id: toGid('Order', order.id),
      },
    )
    expect(body.data.node).toEqual({ __typename: 'Order', id: toGid('Order', order.id), name: '#1001' })
  })

  it('keeps introspection on', async () => {
    const { body } = await call(
      '{ __schema { queryType { name } } __type(name: "SubscriptionContract") { name } }',
    )
    expect(body.data.__schema.queryType.name).toBe('QueryRoot')
    expect(body.data.__type.name).toBe('SubscriptionContract')
  })

  it('asks for first or last like the platform', async () => {
    const { body } = await call('{ customers { nodes { id } } }')
    expect(body.errors[0].message).toBe('you must provide one of first or last')
  })

  it('records calls in the call log', async () => {
    await call(q.customerQuery, { id: toGid('Customer', shop().customers[1]!.id) })
    expect(emulator.callLog.at(-1)).toMatchObject({
      shop: DEMO_DOMAIN,
      operationName: 'Customer',
      rootFields: ['customer'],
    })
  })
})

describe('cost and throttling', () => {
  it('charges connections by first and answers THROTTLED when the bucket is empty', async () => {
    const emulator = await createEmulator({ now, throttle: { restoreRate: 1, bucketSize: 100 } })
    const { url } = await emulator.listen(0)
    const { accessToken } = emulator.install(DEMO_DOMAIN)
    const query = '{ subscriptionContracts(first: 30) { nodes { id customer { id } } } }'
    const first = await adminCall(url, accessToken, query)
    // 2 + 30 x (contract 1 + customer 1)
    expect(first.body.extensions.cost.requestedQueryCost).toBe(62)
    expect(first.body.extensions.cost.throttleStatus).toMatchObject({ maximumAvailable: 100, restoreRate: 1 })
    const second = await adminCall(url, accessToken, query)
    expect(second.status).toBe(200)
    expect(second.body.errors[0]).toMatchObject({ message: 'Throttled', extensions: { code: 'THROTTLED' } })
    expect(second.body.extensions.cost.actualQueryCost).toBeNull()
    expect(second.body.data).toBeUndefined()
    await emulator.close()
  })

  it('refuses a single query above 1,000 points', async () => {
    const emulator = await createEmulator({ now, shops: [{ domain: DEMO_DOMAIN, contracts: 5 }] })
    const r = await emulator.graphql(DEMO_DOMAIN, {
      query: '{ subscriptionContracts(first: 250) { nodes { lines(first: 50) { nodes { id } } } } }',
    })
    expect(r.errors?.[0]?.extensions?.code).toBe('MAX_COST_EXCEEDED')
    await emulator.close()
  })

  it('charges 0 for scalars and reports actual cost by returned items', async () => {
    const emulator = await createEmulator({
      now,
      throttle: false,
      shops: [{ domain: DEMO_DOMAIN, contracts: 5 }],
    })
    const r = await emulator.graphql(DEMO_DOMAIN, {
      query: '{ subscriptionContracts(first: 50) { nodes { id } } }',
    })
    expect(r.extensions.cost.requestedQueryCost).toBe(52)
    expect(r.extensions.cost.actualQueryCost).toBe(7)
    await emulator.close()
  })
})

describe('persistence', () => {
  it('remembers state across a restart with the same data dir', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'teiki-emulator-'))
    try {
      const a = await createEmulator({ dataDir, now, shops: [{ domain: DEMO_DOMAIN, contracts: 40 }] })
      const shop = a.store.shop(DEMO_DOMAIN)!
      shop.contracts[0]!.note = '再起動後も残るメモ'
      a.store.changed()
      const { accessToken } = a.install(DEMO_DOMAIN)
      await a.close()
      // A different `now` would generate different data: equality proves it was loaded, not regenerated.
      const b = await createEmulator({ dataDir, now: new Date('2026-01-01T00:00:00Z') })
      expect(b.store.shop(DEMO_DOMAIN)).toEqual(shop)
      expect(b.install(DEMO_DOMAIN).accessToken).toBe(accessToken)
      await b.close()
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('saves big shops as a recipe and regenerates them identically', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'teiki-emulator-'))
    try {
      const shops = [{ domain: DEMO_DOMAIN, contracts: 30 }]
      const a = await createEmulator({ dataDir, now, shops, maxSavedContracts: 10 })
      const before = a.store.shop(DEMO_DOMAIN)
      await a.close()
      const b = await createEmulator({ dataDir, maxSavedContracts: 10 })
      expect(b.store.shop(DEMO_DOMAIN)).toEqual(before)
      await b.close()
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
