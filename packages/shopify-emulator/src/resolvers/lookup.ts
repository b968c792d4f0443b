import { idOf } from '../gid.ts'
import type { ShopState } from '../records.ts'
import { findById } from '../store.ts'

/** Where each Node type lives in a shop; the `node`/`nodes` roots and GID look-ups share it. */
export const nodeTables: Record<string, (shop: ShopState) => ReadonlyArray<{ id: number }>> = {
  Customer: (s) => s.customers,
  CustomerPaymentMethod: (s) => s.paymentMethods,
  Product: (s) => s.products,
  ProductVariant: (s) => s.variants,
  SellingPlanGroup: (s) => s.sellingPlanGroups,
  SellingPlan: (s) => s.sellingPlanGroups.flatMap((g) => g.sellingPlans),
  SubscriptionContract: (s) => s.contracts,
  SubscriptionBillingAttempt: (s) => s.billingAttempts,
  Order: (s) => s.orders,
  Shop: (s) => [s.info],
  AppInstallation: (s) => [s.installation],
  AppSubscription: (s) => s.installation.subscriptions,
  // Mutation-only state: absent until the shop's first mutation created it.
  SubscriptionDraft: (s) => s.extra?.drafts ?? [],
  BulkOperation: (s) => s.extra?.bulkOperations ?? [],
  WebhookSubscription: (s) => s.extra?.webhookSubscriptions ?? [],
  ScriptTag: (s) => s.extra?.scriptTags ?? [],
  OnlineStoreTheme: (s) => s.extra?.themes ?? [],
}

/** The record behind `gid` in this shop, or null (the platform answers null for unknown ids). */
export function byGid<T extends { id: number }>(items: readonly T[], gid: string, type: string): T | null {
  const id = idOf(gid, type)
  return id === null ? null : (findById(items, id) ?? null)
}

/** Records for stored ids, skipping any that were deleted. */
export function manyById<T extends { id: number }>(items: readonly T[], ids: readonly number[]): T[] {
  const out: T[] = []
  for (const id of ids) {
    const found = findById(items, id)
    if (found) out.push(found)
  }
  return out
}

/** Records for stored ids, in id order (skipping deleted ones). */
export const manyByIdSorted = <T extends { id: number }>(items: readonly T[], ids: readonly number[]): T[] =>
  manyById(
    items,
    [...ids].sort((a, b) => a - b),
  )
