import type { DeliveryPrepDaysOperation } from '@teiki/contract'
import {
  DELIVERY_PREP_CONTRACT_THRESHOLD,
  deliveryPrepDaysUpdatable,
  planForFeature,
  planLabel,
} from '@teiki/domain'
import type { DbClient } from '../db/pool.ts'
import { shopUsage } from '../features/app-plan/usage.ts'
import { isFlagOn } from '../features/shop-flags/service.ts'
import type { ShopRow } from '../platform/shops-repo.ts'
import { countContractsUpTo } from '../sync/contracts-repo.ts'

/**
 * Spec §5 and §6: the delivery prep days may be changed when the plan allows it (its tier
 * includes `deliveryPrepDays`: the プロ plan, ADR 0029; or the shop's `delivery_prep_days` flag
 * set by an operator) or the shop has fewer than 5 contracts (customers' delivery dates are not
 * yet counted on the old value).
 */
export async function deliveryPrepDaysOperation(
  db: DbClient,
  shop: ShopRow,
): Promise<DeliveryPrepDaysOperation> {
  const byPlan = (await shopUsage(db, shop)).features.includes('deliveryPrepDays')
  const planAllows = byPlan || (await isFlagOn(db, shop.id, 'delivery_prep_days'))
  const contractCount = await countContractsUpTo(db, shop.id, DELIVERY_PREP_CONTRACT_THRESHOLD)
  const updatable = deliveryPrepDaysUpdatable(planAllows, contractCount)
  return {
    updatable,
    planAllows,
    contractCount,
    reason: updatable
      ? null
      : `定期購買契約が${DELIVERY_PREP_CONTRACT_THRESHOLD}件以上あるため、お届け準備期間は変更できません（${planLabel(planForFeature('deliveryPrepDays'))}では変更できます）`,
  }
}
