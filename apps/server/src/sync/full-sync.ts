import type { Db } from '../db/pool.ts'
import { withTransaction } from '../db/pool.ts'
import { type ShopRow, updateShopDetails } from '../features/shops/repo.ts'
import type { AdminClient } from '../platform/admin-client.ts'
import { idFromGid, maybeIdFromGid } from '../platform/gid.ts'
import { fetchCustomersPage } from '../platform/operations/customers-page.ts'
import { fetchProductsPage } from '../platform/operations/products-page.ts'
import { fetchSellingPlanGroupsPage } from '../platform/operations/selling-plan-groups-page.ts'
import { fetchShopDetails, type ShopDetails } from '../platform/operations/shop-details.ts'
import {
  fetchSubscriptionContractsPage,
  type PlatformContract,
} from '../platform/operations/subscription-contracts-page.ts'
import {
  appendContractEvents,
  type ContractRecord,
  type LineRecord,
  upsertContracts,
} from './contracts-repo.ts'
import { upsertCustomers, upsertProducts, upsertSellingPlanGroups } from './mirror-repo.ts'
import { contractRecord, customerRecord, lineRecords } from './records.ts'

export type SyncSummary = {
  customers: number
  products: number
  sellingPlanGroups: number
  contracts: number
  events: number
  ms: number
}

/**
 * Page sizes: each query's requested cost (connections priced at their `first`) must stay
 * under the platform's 1,000-point cap; test/platform-documents.test.ts checks it.
 */
export const SYNC_PAGE_SIZES = { customers: 250, products: 10, sellingPlanGroups: 10, contracts: 10 } as const
const CUSTOMERS_PAGE = SYNC_PAGE_SIZES.customers
const PRODUCTS_PAGE = SYNC_PAGE_SIZES.products
const GROUPS_PAGE = SYNC_PAGE_SIZES.sellingPlanGroups
const CONTRACTS_PAGE = SYNC_PAGE_SIZES.contracts

/**
 * Fills the mirror from the platform through the Admin API (paginated). On a Standard-plan
 * shop this is bound by the rate limit (about 15 points per contract at 100 points/s); the
 * bulk-operation path for big shops comes with the platform issue. Safe to run again:
 * every write is an upsert that keeps the newer state, and events are only appended for
 * what changed. Webhooks keep the mirror fresh afterwards.
 */
export async function fullSync(
  db: Db,
  client: AdminClient,
  shop: ShopRow,
  opts: { onProgress?: (summary: SyncSummary) => void } = {},
): Promise<SyncSummary> {
  const started = Date.now()
  // After a first complete sync only what changed since (less a safety margin for clock
  // skew) is fetched again; webhooks cover the rest while the app runs.
  const sinceQuery = shop.synced_at
    ? `updated_at:>'${new Date(shop.synced_at.getTime() - 5 * 60_000).toISOString()}'`
    : undefined
  const details = await fetchShopDetails(client)
  await updateShopDetails(db, shop.id, shopDetailsRecord(details))

  let customers = 0
  for (let after: string | null = null; ; ) {
    const page = await fetchCustomersPage(client, { first: CUSTOMERS_PAGE, after, query: sinceQuery })
    await upsertCustomers(db, shop.id, page.nodes.map(customerRecord))
    customers += page.nodes.length
    if (!page.pageInfo.hasNextPage) break
    after = page.pageInfo.endCursor
  }

  let products = 0
  for (let after: string | null = null; ; ) {
    const page = await fetchProductsPage(client, { first: PRODUCTS_PAGE, after })
    await upsertProducts(
      db,
      shop.id,
      page.nodes.map((p) => ({
        id: idFromGid(p.id),
        title: p.title,
        handle: p.handle,
        status: p.status,
        image_url: p.featuredImage?.url ?? null,
        updated_at: p.updatedAt,
      })),
      page.nodes.flatMap((p) =>
        p.variants.nodes.map((v) => ({
          id: idFromGid(v.id),
          product_id: idFromGid(p.id),
          title: v.title,
          sku: v.sku,
          price: v.price,
        })),
      ),
    )
    products += page.nodes.length
    if (!page.pageInfo.hasNextPage) break
    after = page.pageInfo.endCursor
  }

  let groups = 0
  for (let after: string | null = null; ; ) {
    const page = await fetchSellingPlanGroupsPage(client, { first: GROUPS_PAGE, after })
    await upsertSellingPlanGroups(
      db,
      shop.id,
      page.nodes.map((g) => ({
        id: idFromGid(g.id),
        name: g.name,
        merchant_code: g.merchantCode,
        products_count: g.productsCount?.count ?? 0,
        product_variants_count: g.productVariantsCount?.count ?? 0,
        created_at: g.createdAt,
      })),
      page.nodes.flatMap((g) =>
        g.sellingPlans.nodes.map((p) => ({
          id: idFromGid(p.id),
          group_id: idFromGid(g.id),
          name: p.name,
          description: p.description,
          category: p.category,
          options: p.options,
          billing_policy: p.billingPolicy,
          delivery_policy: p.deliveryPolicy,
          pricing_policies: p.pricingPolicies,
        })),
      ),
    )
    groups += page.nodes.length
    if (!page.pageInfo.hasNextPage) break
    after = page.pageInfo.endCursor
  }

  let contracts = 0
  let events = 0
  for (let after: string | null = null; ; ) {
    const page = await fetchSubscriptionContractsPage(client, {
      first: CONTRACTS_PAGE,
      after,
      query: sinceQuery,
    })
    const records = page.nodes.map(contractRecord)
    const lines = page.nodes.flatMap(lineRecords)
    events += await withTransaction(db, async (tx) => {
      const changes = await upsertContracts(tx, shop.id, records, lines)
      return appendContractEvents(tx, shop.id, 'sync', changes)
    })
    contracts += page.nodes.length
    opts.onProgress?.({
      customers,
      products,
      sellingPlanGroups: groups,
      contracts,
      events,
      ms: Date.now() - started,
    })
    if (!page.pageInfo.hasNextPage) break
    after = page.pageInfo.endCursor
  }

  // The start time, not the end: changes made during this sync are fetched next time.
  await db.query('update shops set synced_at = $2 where id = $1', [shop.id, new Date(started)])
  return { customers, products, sellingPlanGroups: groups, contracts, events, ms: Date.now() - started }
}

function shopDetailsRecord(details: ShopDetails) {
  const active = details.currentAppInstallation.activeSubscriptions[0]
  const price = active?.lineItems.find((item) => item.plan.pricingDetails.price)?.plan.pricingDetails.price
  return {
    name: details.shop.name,
    currencyCode: details.shop.currencyCode,
    ianaTimezone: details.shop.ianaTimezone,
    primaryDomainUrl: details.shop.primaryDomain?.url ?? null,
    shopifyPlan: details.shop.plan.displayName,
    scopes: details.currentAppInstallation.accessScopes.map((scope) => scope.handle),
    appPlan: active
      ? {
          name: active.name,
          status: active.status,
          price: price ?? null,
          trialDays: active.trialDays,
          currentPeriodEnd: active.currentPeriodEnd,
          test: active.test,
        }
      : null,
  }
}
