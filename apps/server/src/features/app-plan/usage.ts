import { type AppUsage, appUsage } from '@teiki/domain'
import type { DbClient } from '../../db/pool.ts'
import { storedPlan } from '../../platform/app-plan-record.ts'
import { isPartnerDevelopment, type ShopRow } from '../../platform/shops-repo.ts'
import { isFlagOn } from '../shop-flags/service.ts'

/**
 * May the shop use the app, and which features (domain `appUsage`, ADR 0029). An ACTIVE plan
 * decides alone (no query: this runs before every route of a tiered feature); otherwise the
 * test_shop flag and the development store are read.
 */
export async function shopUsage(db: DbClient, shop: ShopRow): Promise<AppUsage> {
  const plan = storedPlan(shop.app_plan)
  if (plan?.status === 'ACTIVE') return appUsage({ plan, testShop: false, developmentShop: false })
  const [testShop, developmentShop] = await Promise.all([
    isFlagOn(db, shop.id, 'test_shop'),
    isPartnerDevelopment(db, shop.id),
  ])
  return appUsage({ plan, testShop, developmentShop })
}
