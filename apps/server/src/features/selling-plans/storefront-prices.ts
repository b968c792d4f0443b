import { type StorefrontPlanPrices, storefrontPlanPrices } from '@teiki/domain'
import type { DbClient } from '../../db/pool.ts'
import type { AdminClient } from '../../platform/admin-client.ts'
import { fetchAppInstallationId } from '../../platform/operations/current-app-installation.ts'
import { setMetafields } from '../../platform/operations/metafields-set.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { lineDiscountsOf } from './plan-mapping.ts'
import { cycleDiscountsOf, plansWithCycleDiscounts } from './repo.ts'

// What the storefront's plans block prices the app's custom cycle discounts by (ADR 0026): the
// app-data metafield `teiki.plan_prices` (JSON) on the app's installation, rewritten whole after
// every change of the rules (this feature's saves, the demo's seed). Only plans with rules are in
// it: the platform's own selling plan data prices the others on the storefront.

export const PLAN_PRICES_KEY = 'plan_prices'

/** The metafield's value: each plan with rules as its schedule of tiers (domain). */
export async function storefrontPrices(db: DbClient, shop: ShopRow): Promise<StorefrontPlanPrices> {
  const plans = await plansWithCycleDiscounts(db, shop.id)
  const rules = await cycleDiscountsOf(
    db,
    shop.id,
    plans.map((p) => p.id),
  )
  return storefrontPlanPrices(
    plans.map((p) => ({
      id: p.id,
      platformDiscounts: lineDiscountsOf(p.pricingPolicies),
      rules: rules.get(p.id) ?? [],
    })),
    shop.currency_code,
  )
}

/** Rewrites `teiki.plan_prices`; returns what it wrote. Platform errors are thrown. */
export async function publishPlanPrices(
  db: DbClient,
  client: AdminClient,
  shop: ShopRow,
): Promise<StorefrontPlanPrices> {
  const value = await storefrontPrices(db, shop)
  const ownerId = await fetchAppInstallationId(client)
  await setMetafields(client, [
    { ownerId, namespace: 'teiki', key: PLAN_PRICES_KEY, type: 'json', value: JSON.stringify(value) },
  ])
  return value
}
