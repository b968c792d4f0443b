import { createEmulator, type Emulator, nextId, queryCost, type ShopState } from '@teiki/shopify-emulator'
import { type OperationDefinitionNode, parse } from 'graphql'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashSecret } from '../src/http/auth.ts'
import { createAdminClient, type PacedAdminClient } from '../src/platform/admin-client.ts'
import { SUBSCRIPTION_CONTRACT } from '../src/platform/operations/subscription-contract.ts'
import { SUBSCRIPTION_CONTRACT_ORDERS_PAGE } from '../src/platform/operations/subscription-contract-orders-page.ts'
import { CONTRACT_ORDERS_FIRST } from '../src/platform/operations/subscription-contracts-page.ts'
import { UPDATED_ORDERS_PAGE } from '../src/platform/operations/updated-orders-page.ts'
import { findInstalledShop, upsertShopInstall } from '../src/platform/shops-repo.ts'
import { fullSync, SYNC_ORDER_PAGE_SIZES, type SyncSummary } from '../src/sync/full-sync.ts'
import { ORDER_COUNT_SQL } from '../src/sync/order-count.ts'
import { testPool } from './support/fixtures.ts'

// The full sync mirrors every contract's orders (origin and renewals, cancelled ones with
// their cancelled_at), so a contract's order count (ORDER_COUNT_SQL: its orders in the mirror,
// cancelled ones not counted) is the platform's from the first sync on. Two mirror shops read
// one platform shop: one by bulk export, one page by page.

const tag = `${process.pid}-${Date.now().toString(36)}`
const DOMAIN = `orders-${tag}.myshopify.com`
const PAGED_MIRROR = `orders-paged-${tag}.myshopify.com`
const GENERATED_AT = new Date('2026-11-22T00:00:00Z')
let pool: pg.Pool
let emulator: Emulator
let client: PacedAdminClient

const mirrorShop = async (domain: string) => (await findInstalledShop(pool, domain))!
const platform = () => emulator.store.shop(DOMAIN)!

/** contract id → orders that count (not cancelled), as the platform has them. */
function platformCounts(shop: ShopState): Record<string, number> {
  const cancelled = new Set(shop.orders.filter((o) => o.cancelledAt !== null).map((o) => o.id))
  return Object.fromEntries(
    shop.contracts.map((c) => [String(c.id), c.orderIds.filter((id) => !cancelled.has(id)).length]),
  )
}

/** contract id → the order count the app shows (ORDER_COUNT_SQL over the mirror). */
async function mirrorCounts(domain: string): Promise<Record<string, number>> {
  const shop = await mirrorShop(domain)
  const { rows } = await pool.query<{ id: string; n: number }>(
    `select c.id::text as id, ${ORDER_COUNT_SQL} as n from subscription_contracts c where c.shop_id = $1`,
    [shop.id],
  )
  return Object.fromEntries(rows.map((r) => [r.id, r.n]))
}

async function mirroredOrders(domain: string) {
  const shop = await mirrorShop(domain)
  const { rows } = await pool.query<{ row: Record<string, unknown> }>(
    `select to_jsonb(o) - 'shop_id' as row from orders o where shop_id = $1 order by id`,
    [shop.id],
  )
  return rows.map((r) => r.row)
}

async function cancelledAt(domain: string, orderId: number): Promise<number | null | undefined> {
  const shop = await mirrorShop(domain)
  const { rows } = await pool.query<{ cancelled_at: Date | null }>(
    'select cancelled_at from orders where shop_id = $1 and id = $2',
    [shop.id, orderId],
  )
  return rows[0] ? (rows[0].cancelled_at?.getTime() ?? null) : undefined
}

const forgetSync = async (domain: string) =>
  pool.query('update shops set synced_at = null where domain = $1', [domain])

const ordersPageCalls = () =>
  emulator.callLog.filter((c) => c.shop === DOMAIN && c.operationName === 'SubscriptionContractOrdersPage')
    .length

let bulkSummary: SyncSummary
let pagedSummary: SyncSummary
let orderPagesOfPagedSync = 0

beforeAll(async () => {
  pool = testPool()
  emulator = await createEmulator({
    shops: [{ domain: DOMAIN, contracts: 150 }],
    now: GENERATED_AT,
    bulkDelayMs: 5,
    throttle: { restoreRate: 1000, bucketSize: 20_000 },
  })
  const { url } = await emulator.listen(0)
  const install = emulator.install(DOMAIN)
  for (const domain of [DOMAIN, PAGED_MIRROR]) {
    await upsertShopInstall(pool, {
      domain,
      accessToken: install.accessToken,
      scopes: install.scopes,
      secretHash: hashSecret('s3cret-orders'),
    })
  }
  client = createAdminClient({ shop: DOMAIN, accessToken: install.accessToken, origin: url })
  // Some orders were cancelled on the platform (every 6th, up to three days after it was placed).
  for (const [i, order] of platform().orders.entries()) {
    if (i % 6 !== 3) continue
    order.cancelledAt = Math.min(order.createdAt + 3 * 86_400_000, GENERATED_AT.getTime())
    order.updatedAt = order.cancelledAt
  }
  bulkSummary = await fullSync(pool, client, await mirrorShop(DOMAIN), { bulk: { batchSize: 40 } })
  const before = ordersPageCalls()
  pagedSummary = await fullSync(pool, client, await mirrorShop(PAGED_MIRROR), { bulk: false })
  orderPagesOfPagedSync = ordersPageCalls() - before
})
afterAll(async () => {
  await emulator.close()
  await pool.end()
})

describe('orders in the first sync', () => {
  it('the demo shop has what makes this test meaningful', () => {
    const counts = platform().contracts.map((c) => c.orderIds.length)
    expect(platform().orders.filter((o) => o.cancelledAt !== null).length).toBeGreaterThan(20)
    // Some contracts have more orders than come with a page of contracts.
    expect(counts.filter((n) => n > CONTRACT_ORDERS_FIRST).length).toBeGreaterThanOrEqual(2)
  })

  it('bulk: every order of every contract is mirrored, linked to it, and counts as on the platform', async () => {
    expect(bulkSummary.bulkFallbacks).toBeUndefined()
    expect(bulkSummary.bulk?.map((b) => b.kind)).toEqual(['customers', 'contracts'])
    const all = platform().contracts.reduce((n, c) => n + c.orderIds.length, 0)
    expect(bulkSummary.orders).toBe(all)
    const rows = await mirroredOrders(DOMAIN)
    expect(rows).toHaveLength(all)
    const byId = new Map(platform().orders.map((o) => [String(o.id), o]))
    for (const row of rows) {
      const order = byId.get(String(row.id))!
      expect(String(row.contract_id)).toBe(String(order.contractId))
      expect(row.cancelled_at === null).toBe(order.cancelledAt === null)
      expect(row.name).toBe(`#${order.number}`)
      expect(Number(row.total_amount)).toBe(order.totalPriceSet)
    }
    expect(await mirrorCounts(DOMAIN)).toEqual(platformCounts(platform()))
  })

  it('paged: the same rows, reading on past the first orders of a contract', async () => {
    const many = platform().contracts.filter((c) => c.orderIds.length > CONTRACT_ORDERS_FIRST)
    const pagesNeeded = many.reduce(
      (n, c) =>
        n + Math.ceil((c.orderIds.length - CONTRACT_ORDERS_FIRST) / SYNC_ORDER_PAGE_SIZES.contractOrders),
      0,
    )
    expect(orderPagesOfPagedSync).toBe(pagesNeeded)
    expect(pagedSummary.orders).toBe(bulkSummary.orders)
    expect(await mirrorCounts(PAGED_MIRROR)).toEqual(platformCounts(platform()))
    expect(await mirroredOrders(PAGED_MIRROR)).toEqual(await mirroredOrders(DOMAIN))
  })

  it('a second sync, bulk or paged, duplicates no order and rewrites only what changed', async () => {
    const [bulkRows, pagedRows] = [await mirroredOrders(DOMAIN), await mirroredOrders(PAGED_MIRROR)]
    expect(pagedRows).toEqual(bulkRows)
    // Meanwhile one more order was cancelled (long enough ago for no incremental sync to ask).
    const order = platform().orders.find((o) => o.cancelledAt === null && o.contractId !== null)!
    order.cancelledAt = order.createdAt + 86_400_000
    order.updatedAt = order.cancelledAt
    const others = (rows: Array<Record<string, unknown>>) =>
      rows.filter((r) => String(r.id) !== String(order.id))
    await forgetSync(DOMAIN)
    await forgetSync(PAGED_MIRROR)
    const bulkAgain = await fullSync(pool, client, await mirrorShop(DOMAIN), { bulk: { batchSize: 40 } })
    const pagedAgain = await fullSync(pool, client, await mirrorShop(PAGED_MIRROR), { bulk: false })
    expect(bulkAgain.bulk?.map((b) => b.kind)).toEqual(['customers', 'contracts'])
    expect(bulkAgain.contracts).toBe(platform().contracts.length)
    expect(pagedAgain.contracts).toBe(platform().contracts.length)
    expect([bulkAgain.orders, pagedAgain.orders]).toEqual([1, 1])
    for (const domain of [DOMAIN, PAGED_MIRROR]) {
      const rows = await mirroredOrders(domain)
      expect(rows).toHaveLength(bulkRows.length)
      expect(others(rows)).toEqual(others(bulkRows))
      expect(await cancelledAt(domain, order.id)).toBe(order.cancelledAt)
      expect(await mirrorCounts(domain)).toEqual(platformCounts(platform()))
    }

    const incremental = await fullSync(pool, client, await mirrorShop(DOMAIN))
    expect(incremental.bulk).toBeUndefined()
    expect(incremental.orders).toBe(0)
    expect(others(await mirroredOrders(DOMAIN))).toEqual(others(bulkRows))
    expect(await cancelledAt(DOMAIN, order.id)).toBe(order.cancelledAt)
  })
})

describe('orders in incremental syncs', () => {
  it('picks up a cancellation (contract unchanged) and a renewal order of an updated contract', async () => {
    const shop = platform()
    const counts = platformCounts(shop)
    // A cancellation: the order changes, its contract does not.
    const cancelledOf = shop.contracts.find((c) => counts[String(c.id)]! >= 2)!
    const toCancel = shop.orders.find((o) => o.contractId === cancelledOf.id && o.cancelledAt === null)!
    const now = Math.floor(Date.now() / 1000) * 1000
    toCancel.cancelledAt = now
    toCancel.updatedAt = now
    // A renewal: a new order, and the contract updated (as a successful billing cycle does).
    const renewed = shop.contracts.find((c) => c.status === 'ACTIVE' && c.id !== cancelledOf.id)!
    const id = nextId(shop, 'Order')
    shop.orders.push({
      id,
      number: shop.orders.at(-1)!.number + 1,
      createdAt: now,
      updatedAt: now,
      cancelledAt: null,
      test: false,
      customerId: renewed.customerId,
      contractId: renewed.id,
      totalPriceSet: 4280,
    })
    renewed.orderIds = [...renewed.orderIds, id]
    renewed.updatedAt = now

    const expected = platformCounts(shop)
    expect(expected[String(cancelledOf.id)]).toBe(counts[String(cancelledOf.id)]! - 1)
    expect(expected[String(renewed.id)]).toBe(counts[String(renewed.id)]! + 1)
    for (const domain of [DOMAIN, PAGED_MIRROR]) {
      const summary = await fullSync(pool, client, await mirrorShop(domain))
      expect(summary.bulk).toBeUndefined()
      expect(summary.contracts).toBe(1)
      expect(summary.orders).toBe(2) // the renewal inserted, the cancellation refreshed
      expect(await mirrorCounts(domain)).toEqual(expected)
    }
    const shopId = (await mirrorShop(DOMAIN)).id
    const { rows } = await pool.query(
      'select contract_id::text, cancelled_at from orders where shop_id = $1 and id = $2',
      [shopId, id],
    )
    expect(rows).toEqual([{ contract_id: String(renewed.id), cancelled_at: null }])
  })
})

describe('order documents', () => {
  const cost = (document: string, first: number) => {
    const parsed = parse(document)
    const operation = parsed.definitions.find(
      (d): d is OperationDefinitionNode => d.kind === 'OperationDefinition',
    )!
    return queryCost(emulator.schema, parsed, operation, {
      first,
      id: 'gid://shopify/SubscriptionContract/1',
      query: 'x',
    })
  }

  it('stay under the 1,000-point query cost cap at the page sizes the sync uses', () => {
    expect(cost(SUBSCRIPTION_CONTRACT_ORDERS_PAGE, SYNC_ORDER_PAGE_SIZES.contractOrders)).toBeGreaterThan(
      SYNC_ORDER_PAGE_SIZES.contractOrders,
    )
    expect(cost(SUBSCRIPTION_CONTRACT_ORDERS_PAGE, SYNC_ORDER_PAGE_SIZES.contractOrders)).toBeLessThanOrEqual(
      1000,
    )
    expect(cost(UPDATED_ORDERS_PAGE, SYNC_ORDER_PAGE_SIZES.updatedOrders)).toBeLessThanOrEqual(1000)
    // The single-contract refetch (webhooks, actions) asks for the same orders as a page.
    expect(cost(SUBSCRIPTION_CONTRACT, 0)).toBeLessThanOrEqual(1000)
  })
})
