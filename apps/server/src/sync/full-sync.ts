import type { AppPlan } from '@teiki/contract'
import { ordersReadableFrom } from '@teiki/domain'
import type { Db } from '../db/pool.ts'
import { withTransaction } from '../db/pool.ts'
import type { AdminClient } from '../platform/admin-client.ts'
import { storedPlan, syncedPlanRecord } from '../platform/app-plan-record.ts'
import { idFromGid } from '../platform/gid.ts'
import { fetchCustomersPage } from '../platform/operations/customers-page.ts'
import { fetchProductsPage } from '../platform/operations/products-page.ts'
import { fetchSellingPlanGroupsPage } from '../platform/operations/selling-plan-groups-page.ts'
import { fetchShopDetails, type ShopDetails } from '../platform/operations/shop-details.ts'
import { withAllLines } from '../platform/operations/subscription-contract-lines-page.ts'
import { fetchSubscriptionContractOrdersPage } from '../platform/operations/subscription-contract-orders-page.ts'
import {
  fetchSubscriptionContractsPage,
  type PlatformPagedContract,
} from '../platform/operations/subscription-contracts-page.ts'
import { fetchUpdatedOrdersPage } from '../platform/operations/updated-orders-page.ts'
import { grantsAllOrders } from '../platform/scopes.ts'
import {
  platformAccess,
  recordOrdersReadableFrom,
  type ShopRow,
  updateShopDetails,
} from '../platform/shops-repo.ts'
import { ingestContractExports, startContractExports } from './bulk-contracts.ts'
import {
  BULK_QUERIES,
  type BulkOptions,
  type BulkReport,
  bulkReport,
  ingestCustomers,
  retryIngest,
  startBulkQuery,
  waitForBulkOperation,
} from './bulk-sync.ts'
import { appendContractEvents, mirroredContractCount, upsertContracts } from './contracts-repo.ts'
import {
  analyzeSyncedTables,
  type OrderRecord,
  refreshOrders,
  upsertCustomers,
  upsertOrders,
  upsertProducts,
  upsertSellingPlanGroups,
} from './mirror-repo.ts'
import { storableRow } from './mirror-text.ts'
import {
  contractOrderRecords,
  contractRecord,
  customerRecord,
  lineRecords,
  orderRecord,
  productRecord,
  sellingPlanGroupRecord,
  sellingPlanRecords,
  variantRecords,
} from './records.ts'

export type SyncSummary = {
  customers: number
  products: number
  sellingPlanGroups: number
  contracts: number
  events: number
  /** Order rows inserted or changed (read with their contracts; on incremental syncs also refreshed). */
  orders: number
  ms: number
  /** The bulk exports of an initial sync (absent on incremental syncs). */
  bulk?: BulkReport[]
  /** Resources that fell back to pagination because their bulk export failed, and why. */
  bulkFallbacks?: string[]
  /**
   * After a sync that read every contract's orders (the first, or the one after read_all_orders
   * was granted): the instant from which it could read them all, null when it read every order
   * (the platform gives the last 60 days without read_all_orders). Absent on other syncs.
   */
  ordersReadableFrom?: Date | null
  /** This sync read the older orders the first one could not (read_all_orders granted since). */
  olderOrdersRead?: boolean
}

/**
 * Page sizes: each query's requested cost (connections priced at their `first`) must stay
 * under the platform's 1,000-point cap; test/platform-documents.test.ts checks it.
 */
export const SYNC_PAGE_SIZES = { customers: 250, products: 10, sellingPlanGroups: 10, contracts: 5 } as const
/** Orders per request past a contract's first CONTRACT_ORDERS_FIRST, and per page of updated orders. */
export const SYNC_ORDER_PAGE_SIZES = { contractOrders: 100, updatedOrders: 100 } as const
const CUSTOMERS_PAGE = SYNC_PAGE_SIZES.customers
const PRODUCTS_PAGE = SYNC_PAGE_SIZES.products
const GROUPS_PAGE = SYNC_PAGE_SIZES.sellingPlanGroups
const CONTRACTS_PAGE = SYNC_PAGE_SIZES.contracts

/**
 * Fills the mirror from the platform through the Admin API. The first sync of a shop (no
 * `synced_at`) exports customers and contracts (with their lines and orders) with bulk
 * operations (bulk-sync.ts): a few dozen points whatever the shop's size, where pages of
 * contracts cost ~15 points per contract plus 4 per order (~60 in the demo shop, ~10 orders
 * per contract; 100 points/s on a Standard shop: ~17 hours for 100k). Later syncs page through
 * what changed since the last one (updated_at filter: contracts with all their orders, and the
 * orders changed on their own, e.g. cancelled); products and selling plan groups are always paged.
 * If a bulk export fails, that resource falls back to pages. Safe to run again: every write
 * is an upsert that keeps the newer state, and events are only appended for what changed.
 * Webhooks keep the mirror fresh afterwards.
 */
export async function fullSync(
  db: Db,
  client: AdminClient,
  shop: ShopRow,
  opts: { onProgress?: (summary: SyncSummary) => void; bulk?: BulkOptions | false } = {},
): Promise<SyncSummary> {
  const started = Date.now()
  // After a first complete sync only what changed since (less a safety margin for clock
  // skew) is fetched again; webhooks cover the rest while the app runs.
  const sinceQuery = shop.synced_at
    ? `updated_at:>'${new Date(shop.synced_at.getTime() - 5 * 60_000).toISOString()}'`
    : undefined
  const useBulk = !sinceQuery && opts.bulk !== false
  const details = await fetchShopDetails(client)
  // The plan record keeps a frozen or ended plan (the gate's reason), read back by its id.
  const appPlan = await syncedPlanRecord(
    client,
    storedPlan(shop.app_plan),
    details.currentAppInstallation.activeSubscriptions[0],
  )
  await updateShopDetails(db, shop.id, shopDetailsRecord(details, appPlan))
  const readsAllOrders = grantsAllOrders(details.currentAppInstallation.accessScopes.map((s) => s.handle))
  // A shop whose first sync could read only 60 days of orders, and that has granted
  // read_all_orders since: every contract is read again with all its orders.
  const olderOrders =
    Boolean(sinceQuery) && readsAllOrders && (await platformAccess(db, shop.id)).ordersReadableFrom !== null
  const wholeContracts = !sinceQuery || olderOrders
  const bulkContracts = wholeContracts && opts.bulk !== false
  const bulkOpts: BulkOptions = opts.bulk || {}
  const summary: SyncSummary = {
    customers: 0,
    products: 0,
    sellingPlanGroups: 0,
    contracts: 0,
    events: 0,
    orders: 0,
    ms: 0,
  }
  const progress = () => opts.onProgress?.({ ...summary, ms: Date.now() - started })
  const fallback = (kind: string, error: unknown) => {
    summary.bulkFallbacks ??= []
    summary.bulkFallbacks.push(`${kind}: ${(error as Error).message}`)
  }

  // Customers first (contracts carry their customer's name). With bulk, the contracts exports
  // (in parts by id range, bulk-contracts.ts) start as soon as the customers one is done, and
  // run on the platform while the customers file, products and groups are written.
  let contractExports: Awaited<ReturnType<typeof startContractExports>> | null = null
  if (useBulk) {
    try {
      const run = await startBulkQuery(client, BULK_QUERIES.customers, bulkOpts)
      const done = await waitForBulkOperation(client, run, bulkOpts)
      // Sized by the customers (about one contract each); if this fails, tried again below.
      if (bulkContracts)
        contractExports = await startContractExports(
          client,
          Number(done.operation.objectCount),
          bulkOpts,
        ).catch(() => null)
      const t0 = Date.now()
      summary.customers = await retryIngest(bulkOpts, () =>
        ingestCustomers(db, shop.id, done.operation.url, bulkOpts),
      )
      summary.bulk = [...(summary.bulk ?? []), bulkReport('customers', done, Date.now() - t0)]
    } catch (error) {
      fallback('customers', error)
      summary.customers = await pagedCustomers(db, client, shop.id, undefined)
    }
  } else {
    summary.customers = await pagedCustomers(db, client, shop.id, sinceQuery)
  }
  progress()

  summary.products = await pagedProducts(db, client, shop.id)
  summary.sellingPlanGroups = await pagedGroups(db, client, shop.id)

  let contractsDone = false
  if (bulkContracts) {
    try {
      const expected = Math.max(summary.customers, await mirroredContractCount(db, shop.id))
      contractExports ??= await startContractExports(client, expected, bulkOpts)
      const written = await ingestContractExports(db, shop.id, contractExports, bulkOpts, (w) => {
        Object.assign(summary, { contracts: w.contracts, events: w.events, orders: w.orders })
        progress()
      })
      Object.assign(summary, { contracts: written.contracts, events: written.events, orders: written.orders })
      summary.bulk = [...(summary.bulk ?? []), ...written.reports]
      contractsDone = true
    } catch (error) {
      fallback('contracts', error)
    }
  }
  if (!contractsDone) {
    const paged = await pagedContracts(
      db,
      client,
      shop.id,
      wholeContracts ? undefined : sinceQuery,
      (c, e, o) => {
        summary.contracts = c
        summary.events = e
        summary.orders = o
        progress()
      },
    )
    summary.contracts = paged.contracts
    summary.events = paged.events
    summary.orders = paged.orders
  }
  // Orders change without their contract (a cancellation): on incremental syncs the orders
  // changed since are read too, and the ones the mirror holds are refreshed.
  if (sinceQuery) summary.orders += await updatedOrders(db, client, shop.id, sinceQuery)

  if (wholeContracts) {
    // Read until now: every order from (now - 60 days) on was there for each read (or all of them).
    summary.ordersReadableFrom = readsAllOrders ? null : ordersReadableFrom(new Date())
    if (olderOrders) summary.olderOrdersRead = true
    await recordOrdersReadableFrom(db, shop.id, summary.ordersReadableFrom)
    await analyzeSyncedTables(db)
  }
  // The start time, not the end: changes made during this sync are fetched next time.
  await db.query('update shops set synced_at = $2 where id = $1', [shop.id, new Date(started)])
  return { ...summary, ms: Date.now() - started }
}

async function pagedCustomers(db: Db, client: AdminClient, shopId: string, query: string | undefined) {
  let customers = 0
  for (let after: string | null = null; ; ) {
    const page = await fetchCustomersPage(client, { first: CUSTOMERS_PAGE, after, query })
    await upsertCustomers(db, shopId, page.nodes.map(customerRecord))
    customers += page.nodes.length
    if (!page.pageInfo.hasNextPage) return customers
    after = page.pageInfo.endCursor
  }
}

async function pagedProducts(db: Db, client: AdminClient, shopId: string) {
  let products = 0
  for (let after: string | null = null; ; ) {
    const page = await fetchProductsPage(client, { first: PRODUCTS_PAGE, after })
    await upsertProducts(db, shopId, page.nodes.map(productRecord), page.nodes.flatMap(variantRecords))
    products += page.nodes.length
    if (!page.pageInfo.hasNextPage) return products
    after = page.pageInfo.endCursor
  }
}

async function pagedGroups(db: Db, client: AdminClient, shopId: string) {
  let groups = 0
  for (let after: string | null = null; ; ) {
    const page = await fetchSellingPlanGroupsPage(client, { first: GROUPS_PAGE, after })
    await upsertSellingPlanGroups(
      db,
      shopId,
      page.nodes.map(sellingPlanGroupRecord),
      page.nodes.flatMap(sellingPlanRecords),
    )
    groups += page.nodes.length
    if (!page.pageInfo.hasNextPage) return groups
    after = page.pageInfo.endCursor
  }
}

async function pagedContracts(
  db: Db,
  client: AdminClient,
  shopId: string,
  query: string | undefined,
  onPage: (contracts: number, events: number, orders: number) => void,
) {
  let contracts = 0
  let events = 0
  let orders = 0
  for (let after: string | null = null; ; ) {
    const page = await fetchSubscriptionContractsPage(client, { first: CONTRACTS_PAGE, after, query })
    // A contract with more than the page's lines is read on: its rows replace all its lines.
    const complete: PlatformPagedContract[] = []
    for (const contract of page.nodes) {
      const whole = await withAllLines(client, contract)
      if (whole) complete.push(whole)
    }
    const records = complete.map(contractRecord)
    const lines = complete.flatMap(lineRecords)
    const orderRows: OrderRecord[] = []
    for (const contract of complete) orderRows.push(...(await allOrders(client, contract)))
    const written = await withTransaction(db, async (tx) => {
      const changes = await upsertContracts(tx, shopId, records, lines)
      const ordersWritten = await upsertOrders(tx, shopId, orderRows)
      return { events: await appendContractEvents(tx, shopId, 'sync', changes), orders: ordersWritten }
    })
    events += written.events
    orders += written.orders
    contracts += complete.length
    onPage(contracts, events, orders)
    if (!page.pageInfo.hasNextPage) return { contracts, events, orders }
    after = page.pageInfo.endCursor
  }
}

/**
 * A contract's orders as mirror rows: those that came with the page, then (for the few with
 * more than CONTRACT_ORDERS_FIRST) the rest, read on from the connection's end cursor.
 */
async function allOrders(client: AdminClient, contract: PlatformPagedContract) {
  const rows = contractOrderRecords(contract)
  const contractId = idFromGid(contract.id)
  for (let info = contract.orders.pageInfo; info.hasNextPage; ) {
    const more = await fetchSubscriptionContractOrdersPage(client, {
      id: contract.id,
      first: SYNC_ORDER_PAGE_SIZES.contractOrders,
      after: info.endCursor,
    })
    if (!more) break // deleted meanwhile: what was read is still true of those orders
    rows.push(...more.nodes.map((o) => orderRecord(o, contractId)))
    info = more.pageInfo
  }
  return rows
}

/** Orders changed since the last sync that the mirror holds: refreshed (see UPDATED_ORDERS_PAGE). */
async function updatedOrders(db: Db, client: AdminClient, shopId: string, query: string) {
  let changed = 0
  for (let after: string | null = null; ; ) {
    const page = await fetchUpdatedOrdersPage(client, {
      first: SYNC_ORDER_PAGE_SIZES.updatedOrders,
      after,
      query,
    })
    changed += await refreshOrders(
      db,
      shopId,
      page.nodes.map((o) => orderRecord(o, null)),
    )
    if (!page.pageInfo.hasNextPage) return changed
    after = page.pageInfo.endCursor
  }
}

function shopDetailsRecord(details: ShopDetails, appPlan: AppPlan | null) {
  return storableRow(
    {
      name: details.shop.name,
      currencyCode: details.shop.currencyCode,
      ianaTimezone: details.shop.ianaTimezone,
      primaryDomainUrl: details.shop.primaryDomain?.url ?? null,
      shopifyPlan: details.shop.plan.displayName,
      partnerDevelopment: details.shop.plan.partnerDevelopment,
      scopes: details.currentAppInstallation.accessScopes.map((scope) => scope.handle),
      platformId: idFromGid(details.shop.id),
      appPlan,
    },
    { table: 'shops', id: details.shop.id, contractId: null },
  )
}
