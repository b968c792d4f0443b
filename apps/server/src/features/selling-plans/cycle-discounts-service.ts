import type { CustomCycleDiscounts, CustomCycleDiscountsBody } from '@teiki/contract'
import { type CustomCycleDiscount, customCycleDiscountProblem, platformAmount } from '@teiki/domain'
import { type Db, type DbClient, withTransaction } from '../../db/pool.ts'
import { AppError, notFound } from '../../http/app-error.ts'
import type { ShopRow } from '../shops/repo.ts'
import { cycleDiscountsOf, groupOfPlan, replaceCycleDiscounts } from './repo.ts'

// Custom cycle discounts (ADR 0013): the app's per-cycle discounts of a recurring-multi plan,
// on spec §7's paths, and what the billing engine prices a cycle by.

export const PLAN_NOT_FOUND = 'プランが見つかりません'

async function requirePlan(db: DbClient, shop: ShopRow, planId: string): Promise<void> {
  if ((await groupOfPlan(db, shop.id, planId)) === null) throw notFound(PLAN_NOT_FOUND)
}

function view(planId: string, rules: readonly CustomCycleDiscount[]): CustomCycleDiscounts {
  return {
    sellingPlanId: planId,
    adjustmentType: rules[0]?.adjustmentType ?? null,
    cycleDiscounts: rules.map((r) => ({ cycle: r.cycle, value: r.adjustmentValue })),
  }
}

export async function getCycleDiscounts(
  db: DbClient,
  shop: ShopRow,
  planId: string,
): Promise<CustomCycleDiscounts> {
  await requirePlan(db, shop, planId)
  return view(planId, (await cycleDiscountsOf(db, shop.id, [planId])).get(planId) ?? [])
}

/**
 * Replaces the plan's rules: each cycle once from 1, values at least 0 (percentages at most
 * 100); amounts in the shop's currency's minor unit (JPY whole yen, half-up, as spec §5 asks
 * of fixed values). A 400 writes nothing.
 */
export async function putCycleDiscounts(
  db: Db,
  shop: ShopRow,
  planId: string,
  body: CustomCycleDiscountsBody,
): Promise<CustomCycleDiscounts> {
  await requirePlan(db, shop, planId)
  const problem = customCycleDiscountProblem(body.adjustmentType, body.cycleDiscounts)
  if (problem) throw new AppError('INVALID_INPUT', problem)
  const rules = body.cycleDiscounts
    .map((r) => ({
      cycle: r.cycle!,
      adjustmentType: body.adjustmentType,
      adjustmentValue:
        body.adjustmentType === 'PERCENTAGE' ? String(r.value) : platformAmount(r.value!, shop.currency_code),
    }))
    .sort((a, b) => a.cycle - b.cycle)
  await withTransaction(db, (tx) => replaceCycleDiscounts(tx, shop.id, planId, rules))
  return view(planId, rules)
}

export async function deleteCycleDiscounts(db: DbClient, shop: ShopRow, planId: string): Promise<void> {
  await requirePlan(db, shop, planId)
  await replaceCycleDiscounts(db, shop.id, planId, [])
}

/** The plan's group (GET /selling-plans/:id/selling-plan-group-id). */
export async function groupIdOfPlan(db: DbClient, shop: ShopRow, planId: string) {
  const groupId = await groupOfPlan(db, shop.id, planId)
  if (groupId === null) throw notFound(PLAN_NOT_FOUND)
  return { sellingPlanId: planId, sellingPlanGroupId: groupId }
}

/**
 * For the billing engine: the custom cycle discounts of the shop's plans `planIds`, by plan
 * (plans without any are absent).
 */
export function planCycleDiscounts(
  db: DbClient,
  shopId: string,
  planIds: readonly string[],
): Promise<Map<string, CustomCycleDiscount[]>> {
  return cycleDiscountsOf(db, shopId, [...new Set(planIds)])
}
