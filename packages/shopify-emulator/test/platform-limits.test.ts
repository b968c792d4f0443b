import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toGid } from '../src/gid.ts'
import { ORDER_HISTORY_DAYS } from '../src/order-access.ts'
import { STATE_FILE } from '../src/persistence.ts'
import type { OrderRecord } from '../src/records.ts'
import { createEmulator, type Emulator } from '../src/server.ts'
import { validateAgainstRealSchema } from './support/conformance.ts'
import * as m from './support/mutations.ts'

// What the platform refuses, the emulator refuses (docs/platform-fidelity.md): orders older
// than 60 days without read_all_orders, theme-file writes without Shopify's exemption, and
// script tags that the app did not create. Each test fails on the kinder emulator before it.

const REFUND_CREATE = `mutation RefundCreate($input: RefundInput!) {
  refundCreate(input: $input) { refund { id } userErrors { field message } }
}`
const CONTRACT_ORDERS = `query($id: ID!) { subscriptionContract(id: $id) {
  originOrder { id } orders(first: 100) { nodes { id } }
  billingAttempts(first: 100) { nodes { order { id } } }
  customer { orders(first: 100) { nodes { id } } } } }`

const ALL = 'all-orders.myshopify.com'
const LIMITED = 'sixty-days.myshopify.com'
const WINDOW = ORDER_HISTORY_DAYS * 86_400_000

// biome-ignore lint/suspicious/noExplicitAny: tests read deep response JSON; the schema checks the shapes
async function call(emulator: Emulator, domain: string, query: string, variables = {}): Promise<any> {
  return emulator.graphql(domain, { query, variables })
}
async function data(emulator: Emulator, domain: string, query: string, variables = {}) {
  const res = await call(emulator, domain, query, variables)
  if (res.errors?.length) throw new Error(JSON.stringify(res.errors))
  return res.data
}

/** An emulator started on `dir`, the one shop given, `use`d, then closed (its state saved). */
async function withState<T>(
  dir: string,
  shop: { domain: string; contracts: number; declinedScopes?: string[] },
  use: (emulator: Emulator) => Promise<T>,
): Promise<T> {
  const emulator = await createEmulator({ dataDir: dir, throttle: false, shops: [shop] })
  try {
    return await use(emulator)
  } finally {
    await emulator.close()
  }
}
/** Runs `fn` with a fresh temporary data folder, removed afterwards. */
async function inTempDir(prefix: string, fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  try {
    await fn(dir)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('orders older than 60 days without read_all_orders', () => {
  let emulator: Emulator
  /** Orders created at least a minute inside or outside the window (none sits on its edge). */
  let old: OrderRecord[]
  let recent: OrderRecord[]

  beforeAll(async () => {
    emulator = await createEmulator({
      // History up to the real now: the window is counted back from the moment of each read.
      now: new Date(),
      throttle: false,
      bulkDelayMs: 5,
      shops: [
        { domain: ALL, contracts: 40 },
        { domain: LIMITED, contracts: 40, declinedScopes: ['read_all_orders'] },
      ],
    })
    await emulator.listen(0)
    const cutoff = Date.now() - WINDOW
    const orders = emulator.store.shop(LIMITED)!.orders
    old = orders.filter((o) => o.createdAt < cutoff - 60_000)
    recent = orders.filter((o) => o.createdAt > cutoff + 60_000)
    expect(old.length + recent.length).toBe(orders.length)
    expect(old.length).toBeGreaterThan(recent.length)
    expect(recent.length).toBeGreaterThan(0)
  })
  afterAll(() => emulator.close())

  const gid = (o: OrderRecord) => toGid('Order', o.id)

  it('its documents are valid against the real schema', () => {
    expect(validateAgainstRealSchema(CONTRACT_ORDERS)).toEqual([])
    expect(validateAgainstRealSchema(REFUND_CREATE)).toEqual([])
    expect(validateAgainstRealSchema(m.scriptTagCreate)).toEqual([])
  })

  it('grants the demo installation read_all_orders unless the shop declined it', async () => {
    const scopes = async (domain: string) =>
      (
        await data(emulator, domain, '{ currentAppInstallation { accessScopes { handle } } }')
      ).currentAppInstallation.accessScopes.map((s: { handle: string }) => s.handle)
    expect(await scopes(ALL)).toContain('read_all_orders')
    expect(await scopes(LIMITED)).not.toContain('read_all_orders')
    expect(await scopes(LIMITED)).toContain('read_orders')
  })

  it('leaves them out of orders, order(id), nodes and search', async () => {
    const list = await data(emulator, LIMITED, '{ orders(first: 250, sortKey: CREATED_AT) { nodes { id } } }')
    expect(list.orders.nodes.map((o: { id: string }) => o.id)).toEqual(recent.map(gid))
    const one = await data(emulator, LIMITED, 'query($id: ID!) { order(id: $id) { id } }', {
      id: gid(old[0]!),
    })
    expect(one.order).toBeNull()
    const nodes = await data(emulator, LIMITED, 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
      ids: [gid(old[0]!), gid(recent[0]!)],
    })
    expect(nodes.nodes).toEqual([null, { id: gid(recent[0]!) }])
    const before = new Date(old.at(-1)!.createdAt + 1000).toISOString()
    const searched = await data(
      emulator,
      LIMITED,
      `{ orders(first: 5, query: "created_at:<'${before}'") { nodes { id } } }`,
    )
    expect(searched.orders.nodes).toEqual([])
    // The same shop's orders are all there for an app that holds read_all_orders.
    const all = emulator.store.shop(ALL)!.orders
    const oldOfAll = all.find((o) => o.createdAt < Date.now() - WINDOW)!
    expect(
      (await data(emulator, ALL, 'query($id: ID!) { order(id: $id) { id } }', { id: gid(oldOfAll) })).order,
    ).toEqual({
      id: gid(oldOfAll),
    })
  })

  it('leaves them out of a contract’s orders and originOrder, a customer’s orders and a billing attempt’s order', async () => {
    const shop = emulator.store.shop(LIMITED)!
    const contract = shop.contracts.find(
      (c) =>
        c.orderIds.some((id) => old.some((o) => o.id === id)) &&
        c.orderIds.some((id) => recent.some((o) => o.id === id)),
    )!
    const read = await data(emulator, LIMITED, CONTRACT_ORDERS, {
      id: toGid('SubscriptionContract', contract.id),
    })
    const c = read.subscriptionContract
    const recentIds = new Set(recent.map(gid))
    expect(c.originOrder).toBeNull()
    expect(c.orders.nodes.map((o: { id: string }) => o.id)).toEqual(
      contract.orderIds.map((id) => toGid('Order', id)).filter((id) => recentIds.has(id)),
    )
    const attemptOrders = c.billingAttempts.nodes.map(
      (a: { order: { id: string } | null }) => a.order?.id ?? null,
    )
    expect(attemptOrders.filter((id: string | null) => id !== null && !recentIds.has(id))).toEqual([])
    expect(attemptOrders).toContain(null)
    const customerOrders = shop.orders.filter((o) => o.customerId === contract.customerId)
    expect(c.customer.orders.nodes.map((o: { id: string }) => o.id)).toEqual(
      customerOrders.filter((o) => recentIds.has(gid(o))).map(gid),
    )
  })

  it('leaves them out of a bulk export of contracts with their orders', async () => {
    const run = await data(emulator, LIMITED, m.bulkOperationRunQuery, {
      query: '{ subscriptionContracts { edges { node { id orders { edges { node { id createdAt } } } } } } }',
    })
    await emulator.idle()
    const op = (
      await data(emulator, LIMITED, m.bulkOperationNode, { id: run.bulkOperationRunQuery.bulkOperation.id })
    ).node
    expect(op.status).toBe('COMPLETED')
    const rows = (await (await fetch(op.url)).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; __parentId?: string })
    const orderIds = rows.filter((r) => r.id.includes('/Order/')).map((r) => r.id)
    const inContracts = new Set(emulator.store.shop(LIMITED)!.contracts.flatMap((c) => c.orderIds))
    expect(orderIds.sort()).toEqual(
      recent
        .filter((o) => inContracts.has(o.id))
        .map(gid)
        .sort(),
    )
  })

  it('cannot refund one: the platform does not find it', async () => {
    const res = await data(emulator, LIMITED, REFUND_CREATE, {
      input: {
        orderId: gid(old[0]!),
        transactions: [{ orderId: gid(old[0]!), kind: 'REFUND', gateway: 'manual', amount: '1' }],
      },
    })
    expect(res.refundCreate.userErrors).toEqual([
      expect.objectContaining({ message: 'Order does not exist' }),
    ])
    expect(old[0]!.refunds).toBeUndefined()
  })

  it('shows them once the merchant grants read_all_orders', async () => {
    emulator.setAccessScopes(LIMITED, [
      ...emulator.store.shop(LIMITED)!.installation.scopes,
      'read_all_orders',
    ])
    const one = await data(emulator, LIMITED, 'query($id: ID!) { order(id: $id) { id } }', {
      id: gid(old[0]!),
    })
    expect(one.order).toEqual({ id: gid(old[0]!) })
    emulator.setAccessScopes(
      LIMITED,
      emulator.store.shop(LIMITED)!.installation.scopes.filter((s) => s !== 'read_all_orders'),
    )
    expect(
      (await data(emulator, LIMITED, 'query($id: ID!) { order(id: $id) { id } }', { id: gid(old[0]!) }))
        .order,
    ).toBeNull()
  })
})

describe('a declined scope across a restart', () => {
  it('stays declined when the state is loaded again (the app’s other new scopes are granted)', async () => {
    await inTempDir('emulator-scopes-', async (dir) => {
      await withState(
        dir,
        { domain: LIMITED, contracts: 2, declinedScopes: ['read_all_orders'] },
        async () => {},
      )
      const scopes = await withState(
        dir,
        { domain: LIMITED, contracts: 2 },
        async (e) => e.store.shop(LIMITED)!.installation.scopes,
      )
      expect(scopes).not.toContain('read_all_orders')
      expect(scopes).toContain('write_pixels')
    })
  })
})

describe('themeFilesUpsert without Shopify’s theme-file exemption', () => {
  const files = [
    { filename: 'templates/product.json', body: { type: 'TEXT', value: '{"sections":{},"order":[]}' } },
  ]

  async function upsert(exemption: boolean | undefined) {
    const emulator = await createEmulator({
      throttle: false,
      shops: [{ domain: ALL, contracts: 0 }],
      ...(exemption === undefined ? {} : { themeFilesExemption: exemption }),
    })
    const themes = await data(emulator, ALL, m.themes, { roles: ['MAIN'] })
    const themeId = themes.themes.nodes[0].id
    const before = emulator.store.shop(ALL)!.extra!.themes[0]!.files.map((f) => f.content)
    const res = await call(emulator, ALL, m.themeFilesUpsert, { themeId, files })
    const after = emulator.store.shop(ALL)!.extra!.themes[0]!.files.map((f) => f.content)
    await emulator.close()
    return { res, changed: JSON.stringify(before) !== JSON.stringify(after) }
  }

  it('answers the platform’s top-level ACCESS_DENIED and writes nothing (the default)', async () => {
    const { res, changed } = await upsert(undefined)
    expect(res.data.themeFilesUpsert).toBeNull()
    expect(res.errors).toEqual([
      expect.objectContaining({
        message:
          'Access denied for themeFilesUpsert field. Required access: The user needs write_themes and an exemption from Shopify to modify theme files.',
        path: ['themeFilesUpsert'],
        extensions: expect.objectContaining({ code: 'ACCESS_DENIED' }),
      }),
    ])
    expect(changed).toBe(false)
  })

  it('writes the files for an app started with the exemption', async () => {
    const { res, changed } = await upsert(true)
    expect(res.errors).toBeUndefined()
    expect(res.data.themeFilesUpsert.userErrors).toEqual([])
    expect(changed).toBe(true)
  })
})

describe('script tags belong to the app that created them', () => {
  let emulator: Emulator
  beforeAll(async () => {
    emulator = await createEmulator({ throttle: false, shops: [{ domain: ALL, contracts: 0 }] })
  })
  afterAll(() => emulator.close())

  it('a shop has none the app did not create; scriptTagCreate adds one (https only) and uninstall removes it', async () => {
    expect((await data(emulator, ALL, m.scriptTags)).scriptTags.nodes).toEqual([])
    const insecure = await data(emulator, ALL, m.scriptTagCreate, {
      input: { src: 'http://cdn.example.jp/a.js' },
    })
    expect(insecure.scriptTagCreate).toEqual({
      scriptTag: null,
      userErrors: [{ field: ['input', 'src'], message: 'Source must be an https URL' }],
    })
    const created = await data(emulator, ALL, m.scriptTagCreate, {
      input: { src: 'https://cdn.example.jp/a.js', displayScope: 'ALL' },
    })
    expect(created.scriptTagCreate.scriptTag).toMatchObject({
      src: 'https://cdn.example.jp/a.js',
      displayScope: 'ALL',
      cache: false,
    })
    expect((await data(emulator, ALL, m.scriptTags)).scriptTags.nodes).toHaveLength(1)
    emulator.uninstall(ALL)
    emulator.install(ALL)
    expect((await data(emulator, ALL, m.scriptTags)).scriptTags.nodes).toEqual([])
  })

  it('drops the legacy tag an older emulator seeded when its state is loaded', async () => {
    await inTempDir('emulator-tags-', async (dir) => {
      await withState(dir, { domain: ALL, contracts: 0 }, (e) => data(e, ALL, m.scriptTags))
      // What a state written before script tags had an owner holds.
      const file = join(dir, STATE_FILE)
      const saved = JSON.parse(readFileSync(file, 'utf8'))
      const legacy = {
        id: 1,
        src: 'https://cdn.teiki.example/legacy/widget.js',
        displayScope: 'ONLINE_STORE',
      }
      saved.shops[0].full.extra.scriptTags = [{ ...legacy, cache: false, createdAt: 0, updatedAt: 0 }]
      writeFileSync(file, JSON.stringify(saved))
      const listed = await withState(
        dir,
        { domain: ALL, contracts: 0 },
        async (e) => (await data(e, ALL, m.scriptTags)).scriptTags.nodes,
      )
      expect(listed).toEqual([])
    })
  })
})
