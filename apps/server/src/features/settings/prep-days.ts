import type { DeliveryPrepDaysOperation } from '@teiki/contract'
import { appPlanByName, DELIVERY_PREP_CONTRACT_THRESHOLD, deliveryPrepDaysUpdatable } from '@teiki/domain'
import type { DbClient } from '../../db/pool.ts'
import { isFlagOn } from '../shop-flags/service.ts'
import type { ShopRow } from '../shops/repo.ts'
import { currentPlan } from '../shops/service.ts'
import { countContractsUpTo } from './repo.ts'

/**
 * Spec §5 and §6: the delivery prep days may be changed when the plan allows it (the プロ
 * plan, or the shop's `delivery_prep_days` flag set by an operator) or the shop has fewer
 * than 5 contracts (customers' delivery dates are not yet counted on the old value).
 */
export async function deliveryPrepDaysOperation(
  db: DbClient,
  shop: ShopRow,
): Promise<DeliveryPrepDaysOperation> {
  const plan = currentPlan(shop)
  const byPlan = plan.isActive && (appPlanByName(plan.currentPlan?.name)?.allowsDeliveryPrepDays ?? false)
  const planAllows = byPlan || (await isFlagOn(db, shop.id, 'delivery_prep_days'))
  const contractCount = await countContractsUpTo(db, shop.id, DELIVERY_PREP_CONTRACT_THRESHOLD)
  const updatable = deliveryPrepDaysUpdatable(planAllows, contractCount)
  return {
    updatable,
    planAllows,
    contractCount,
    reason: updatable
      ? null
      : `定期購買契約が${DELIVERY_PREP_CONTRACT_THRESHOLD}件以上あるため、お届け準備期間は変更できません（プロプランでは変更できます）`,
  }
}
