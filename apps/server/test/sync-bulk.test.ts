import { createEmulator, type Emulator } from '@teiki/shopify-emulator'
import { type FieldNode, type OperationDefinitionNode, parse, print, type SelectionSetNode } from 'graphql'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashSecret } from '../src/http/auth.ts'
import { createAdminClient, type PacedAdminClient } from '../src/platform/admin-client.ts'
import { CUSTOMERS_BULK_QUERY } from '../src/platform/operations/customers-bulk-query.ts'
import { CUSTOMERS_PAGE } from '../src/platform/operations/customers-page.ts'
import { inlineFragments } from '../src/platform/operations/fragments.ts'
import { SUBSCRIPTION_CONTRACTS_BULK_QUERY } from '../src/platform/operations/subscription-contracts-bulk-query.ts'
import { SUBSCRIPTION_CONTRACTS_PAGE } from '../src/platform/operations/subscription-contracts-page.ts'
import { findInstalledShop, upsertShopInstall } from '../src/platform/shops-repo.ts'
import { BulkOperationError, jsonlObjects, withChildren } from '../src/sync/bulk-sync.ts'
import { fullSync, type SyncSummary } from '../src/sync/full-sync.ts'
import { testPool } from './support/fixtures.ts'
import { mirrorDigest, platformDigest } from './support/mirror-compare.ts'

// The initial sync through bulk operations must give the mirror the platform has, and the
// same rows the paginated path writes. Two mirror shops read the same platform shop: one by
// bulk export, one page by page (same access token, another domain in the mirror).

const tag = `${process.pid}-${Date.now().toString(36)}`
const DOMAIN = `bulk-${tag}.myshopify.com`
const PAGED_MIRROR = `bulk-paged-${tag}.myshopify.com`
const PARTS_MIRROR = `bulk-parts-${tag}.myshopify.com`
const BROKEN = `bulk-broken-${tag}.myshopify.com`
let pool: pg.Pool
let emulator: Emulator
let client: PacedAdminClient
let bulkSummary: SyncSummary
let origin: string

const mirrorShop = async (domain: string) => (await findInstalledShop(pool, domain))!
const platform = () => emulator.store.shop(DOMAIN)!

beforeAll(async () => {
  pool = testPool()
  emulator = await createEmulator({
    shops: [
      { domain: DOMAIN, contracts: 240 },
      { domain: BROKEN, contracts: 90 },
    ],
    now: new Date('2026-11-22T00:00:00Z'),
    bulkDelayMs: 5,
    // A Plus-sized bucket: the paginated comparison would otherwise wait on the rate limit.
    throttle: { restoreRate: 1000, bucketSize: 20_000 },
  })
  const { url } = await emulator.listen(0)
  origin = url
  const install = emulator.install(DOMAIN)
  for (const domain of [DOMAIN, PAGED_MIRROR, PARTS_MIRROR]) {
    await upsertShopInstall(pool, {
      domain,
      accessToken: install.accessToken,
      scopes: install.scopes,
      secretHash: hashSecret('s3cret-bulk'),
    })
  }
  client = createAdminClient({ shop: DOMAIN, accessToken: install.accessToken, origin: url })
  bulkSummary = await fullSync(pool, client, await mirrorShop(DOMAIN), { bulk: { batchSize: 50 } })
})
afterAll(async () => {
  await emulator.close()
  await pool.end()
})

describe('initial sync through bulk operations', () => {
  it('uses one bulk export for customers and one for contracts, not pages', () => {
    expect(bulkSummary.bulkFallbacks).toBeUndefined()
    expect(bulkSummary.bulk?.map((b) => b.kind)).toEqual(['customers', 'contracts'])
    const lines = platform().contracts.reduce((n, c) => n + c.lines.length, 0)
    const orders = platform().contracts.reduce((n, c) => n + c.orderIds.length, 0)
    expect(bulkSummary.bulk?.[1]?.objectCount).toBe(platform().contracts.length + lines + orders)
    const ops = emulator.callLog.filter((c) => c.shop === DOMAIN).flatMap((c) => c.rootFields)
    expect(ops.filter((f) => f === 'bulkOperationRunQuery')).toHaveLength(2)
    expect(ops).not.toContain('subscriptionContracts')
    expect(ops).not.toContain('customers')
  })

  it('mirrors every contract (status, next billing date, lines) and customer of the platform', async () => {
    const shop = await mirrorShop(DOMAIN)
    expect(bulkSummary.contracts).toBe(platform().contracts.length)
    expect(bulkSummary.customers).toBe(platform().customers.length)
    expect(await mirrorDigest(pool, shop.id)).toEqual(platformDigest(platform()))

    const { rows } = await pool.query<{ status: string; n: number }>(
      'select status, count(*)::int as n from subscription_contracts where shop_id = $1 group by status',
      [shop.id],
    )
    const expected: Record<string, number> = {}
    for (const c of platform().contracts) expected[c.status] = (expected[c.status] ?? 0) + 1
    expect(Object.fromEntries(rows.map((r) => [r.status, r.n]))).toEqual(expected)

    const customers = await pool.query<{ n: number; unnamed: number }>(
      `select count(*)::int as n,
         (select count(*)::int from subscription_contracts where shop_id = $1 and customer_display_name = '') as unnamed
       from customers where shop_id = $1`,
      [shop.id],
    )
    expect(customers.rows[0]).toEqual({ n: platform().customers.length, unnamed: 0 })
    expect(shop.synced_at).not.toBeNull()
  })

  it('writes the same rows and events as the paginated path', async () => {
    const paged = await fullSync(pool, client, await mirrorShop(PAGED_MIRROR), { bulk: false })
    expect(paged.bulk).toBeUndefined()
    expect(paged.contracts).toBe(bulkSummary.contracts)
    expect(paged.events).toBe(bulkSummary.events)
    expect(paged.orders).toBe(bulkSummary.orders)
    const [a, b] = [await mirrorShop(DOMAIN), await mirrorShop(PAGED_MIRROR)]
    // Beside the rows: the lines' pricing policies, which only the bulk export brings (free of
    // points there, about 6 a line on a page); checked on their own below.
    const cache = `- 'line_pricing' - 'line_pricing_revision' - 'line_pricing_updated_at'`
    const rows = async (shopId: string, table: string, order: string) =>
      (
        await pool.query(
          `select to_jsonb(t) - 'shop_id' ${table === 'subscription_contracts' ? cache : ''} as row
           from ${table} t where shop_id = $1 order by ${order}`,
          [shopId],
        )
      ).rows
    for (const [table, order] of [
      ['subscription_contracts', 'id'],
      ['subscription_lines', 'contract_id, position'],
      ['customers', 'id'],
      ['orders', 'id'],
    ] as const) {
      const fromBulk = await rows(a.id, table, order)
      expect(fromBulk.length).toBeGreaterThan(0)
      expect(await rows(b.id, table, order)).toEqual(fromBulk)
    }
    // Every bulk-synced contract keeps its lines' policies, true at the state it was read at.
    const kept = await pool.query<{ lines: number; kept: number; at_state: boolean }>(
      `select jsonb_array_length(c.line_pricing) as kept,
         (select count(*)::int from subscription_lines l where l.shop_id = c.shop_id and l.contract_id = c.id) as lines,
         c.line_pricing_updated_at = c.updated_at and c.line_pricing_revision = c.revision_id as at_state
       from subscription_contracts c where c.shop_id = $1`,
      [a.id],
    )
    expect(kept.rows.length).toBe(bulkSummary.contracts)
    for (const row of kept.rows) expect(row).toEqual({ lines: row.lines, kept: row.lines, at_state: true })
    const pagedKept = await pool.query(
      'select 1 from subscription_contracts where shop_id = $1 and line_pricing is not null',
      [b.id],
    )
    expect(pagedKept.rowCount).toBe(0)
  })

  it('in parts by contract id, writes the same rows and events as one export', async () => {
    const logFrom = emulator.callLog.length
    const parts = await fullSync(pool, client, await mirrorShop(PARTS_MIRROR), {
      bulk: { batchSize: 50, contractsPerPart: 60 },
    })
    expect(parts.bulkFallbacks).toBeUndefined()
    const contractParts = parts.bulk!.filter((b) => b.kind === 'contracts')
    expect(contractParts.length).toBeGreaterThanOrEqual(3)
    const single = bulkSummary.bulk!.find((b) => b.kind === 'contracts')!
    expect(contractParts.reduce((n, b) => n + b.objectCount, 0)).toBe(single.objectCount)
    const queries = emulator.callLog
      .slice(logFrom)
      .filter((c) => c.rootFields.includes('bulkOperationRunQuery'))
    expect(queries).toHaveLength(1 + contractParts.length)
    expect({ contracts: parts.contracts, events: parts.events, orders: parts.orders }).toEqual({
      contracts: bulkSummary.contracts,
      events: bulkSummary.events,
      orders: bulkSummary.orders,
    })
    const [a, b] = [await mirrorShop(DOMAIN), await mirrorShop(PARTS_MIRROR)]
    expect(await mirrorDigest(pool, b.id)).toEqual(platformDigest(platform()))
    for (const [table, order] of [
      ['subscription_contracts', 'id'],
      ['subscription_lines', 'contract_id, position'],
      ['orders', 'id'],
    ] as const) {
      const rows = async (shopId: string) =>
        (
          await pool.query(
            `select to_jsonb(t) - 'shop_id' as row from ${table} t where shop_id = $1 order by ${order}`,
            [shopId],
          )
        ).rows
      expect(await rows(b.id)).toEqual(await rows(a.id))
    }
  })

  it('runs incremental syncs page by page', async () => {
    const again = await fullSync(pool, client, await mirrorShop(DOMAIN))
    expect(again.bulk).toBeUndefined()
    expect(again.contracts).toBe(0)
    expect(again.events).toBe(0)
  })
})

describe('a bulk file download that breaks off', () => {
  it('is read again without duplicating rows or events, and without falling back to pages', async () => {
    const install = emulator.install(BROKEN)
    await upsertShopInstall(pool, {
      domain: BROKEN,
      accessToken: install.accessToken,
      scopes: install.scopes,
    })
    const brokenClient = createAdminClient({ shop: BROKEN, accessToken: install.accessToken, origin })
    let downloads = 0
    // The first download fails before any byte; the contracts file then breaks after ~8 KB once.
    const flakyFetch = (async (input: string | URL | Request, init?: RequestInit) => {
      downloads++
      if (downloads === 1) throw new TypeError('fetch failed')
      const response = await fetch(input, init)
      if (!String(input).includes('.jsonl') || downloads !== 3) return response
      const reader = response.body!.getReader()
      let sent = 0
      return new Response(
        new ReadableStream<Uint8Array>({
          async pull(controller) {
            const { done, value } = await reader.read()
            if (done) return controller.close()
            if (sent > 8_000) {
              await reader.cancel()
              return controller.error(new TypeError('terminated'))
            }
            sent += value.length
            controller.enqueue(value)
          },
        }),
      )
    }) as typeof globalThis.fetch
    const summary = await fullSync(pool, brokenClient, (await mirrorShop(BROKEN))!, {
      bulk: { fetch: flakyFetch, batchSize: 10, sleep: async () => {} },
    })
    expect(downloads).toBe(4)
    expect(summary.bulkFallbacks).toBeUndefined()
    const shopState = emulator.store.shop(BROKEN)!
    const shop = await mirrorShop(BROKEN)
    expect(await mirrorDigest(pool, shop.id)).toEqual(platformDigest(shopState))
    const { rows } = await pool.query<{ type: string; n: number }>(
      'select type, count(*)::int as n from contract_events where shop_id = $1 group by type order by type',
      [shop.id],
    )
    const notActive = shopState.contracts.filter((c) => c.status !== 'ACTIVE').length
    expect(rows).toEqual([
      { type: 'created', n: shopState.contracts.length },
      { type: 'status_changed', n: notActive },
    ])
    expect(summary.events).toBe(shopState.contracts.length + notActive)
  })
})

describe('bulk file reading', () => {
  it('streams lines split across chunks and groups children under their parent', async () => {
    const text =
      '{"id":"c1","status":"ACTIVE"}\n{"id":"l1","__parentId":"c1"}\n{"id":"l2","__parentId":"c1"}\n' +
      '{"id":"c2","status":"PAUSED"}\n{"id":"c3"}\n{"id":"l3","__parentId":"c3"}'
    const encoded = new TextEncoder().encode(text)
    const fetch = (async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            for (let i = 0; i < encoded.length; i += 7) controller.enqueue(encoded.slice(i, i + 7))
            controller.close()
          },
        }),
      )) as typeof globalThis.fetch
    const grouped = []
    for await (const g of withChildren(jsonlObjects('http://file.test/x.jsonl', { fetch }))) grouped.push(g)
    expect(grouped).toEqual([
      { node: { id: 'c1', status: 'ACTIVE' }, children: [{ id: 'l1' }, { id: 'l2' }] },
      { node: { id: 'c2', status: 'PAUSED' }, children: [] },
      { node: { id: 'c3' }, children: [{ id: 'l3' }] },
    ])
  })

  it('refuses a child line that does not follow its parent', async () => {
    async function* lines() {
      yield { id: 'c1' }
      yield { id: 'c2' }
      yield { id: 'l1', __parentId: 'c1' }
    }
    const read = async () => {
      for await (const _ of withChildren(lines())) {
        // drain
      }
    }
    await expect(read()).rejects.toBeInstanceOf(BulkOperationError)
  })
})

describe('bulk queries select what the sync pages select', () => {
  const field = (set: SelectionSetNode, name: string) =>
    set.selections.find((s): s is FieldNode => s.kind === 'Field' && s.name.value === name)!
  /** The root field's selection, with the fragments the page documents spread expanded as the bulk ones are. */
  const root = (document: string) =>
    (
      parse(inlineFragments(document)).definitions.find(
        (d): d is OperationDefinitionNode => d.kind === 'OperationDefinition',
      )!.selectionSet.selections[0] as FieldNode
    ).selectionSet!
  /** `x { nodes { … } }` of a page, `x { edges { node { … } } }` of a bulk query: the `…`. */
  const pageNodes = (set: SelectionSetNode) => field(set, 'nodes').selectionSet!
  const bulkNodes = (set: SelectionSetNode) => field(field(set, 'edges').selectionSet!, 'node').selectionSet!
  /** Fields as printed, with nested connections reduced to their node selection. */
  const flatten = (set: SelectionSetNode, nodesOf: (s: SelectionSetNode) => SelectionSetNode) =>
    set.selections.map((s) =>
      s.kind === 'Field' && (s.name.value === 'lines' || s.name.value === 'orders')
        ? `${s.name.value} ${print(nodesOf(s.selectionSet!))}`
        : print(s),
    )

  it('customers', () => {
    expect(print(bulkNodes(root(CUSTOMERS_BULK_QUERY)))).toBe(print(pageNodes(root(CUSTOMERS_PAGE))))
  })

  it('subscription contracts with their lines and orders (the bulk lines add their pricing policy)', () => {
    const isPolicy = (s: SelectionSetNode['selections'][number]) =>
      s.kind === 'Field' && s.name.value === 'pricingPolicy'
    const contract = bulkNodes(root(SUBSCRIPTION_CONTRACTS_BULK_QUERY))
    expect(bulkNodes(field(contract, 'lines').selectionSet!).selections.some(isPolicy)).toBe(true)
    const withoutPolicy = (set: SelectionSetNode): SelectionSetNode => {
      const nodes = bulkNodes(set)
      return { ...nodes, selections: nodes.selections.filter((s) => !isPolicy(s)) }
    }
    expect(flatten(contract, withoutPolicy)).toEqual(
      flatten(pageNodes(root(SUBSCRIPTION_CONTRACTS_PAGE)), pageNodes),
    )
  })
})
