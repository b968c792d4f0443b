import type { CustomCycleDiscounts, CustomCycleDiscountsBody } from '@teiki/contract'
import { type CustomCycleDiscount, customCycleDiscountProblem, platformAmount } from '@teiki/domain'
import { type Db, type DbClient, withTransaction } from '../../db/pool.ts'
import { AppError, notFound } from '../../http/app-error.ts'
import { PlatformUserError } from '../../platform/errors.ts'
import type { ShopClients } from '../../platform/shop-clients.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { cycleDiscountsOf, groupOfPlan, replaceCycleDiscounts } from './repo.ts'
import { publishPlanPrices } from './storefront-prices.ts'

// Custom cycle discounts (ADR 0013): the app's per-cycle discounts of a recurring-multi plan,
// on spec §7's paths, and what the billing engine prices a cycle by.

export const PLAN_NOT_FOUND = 'プランが見つかりません'
const NOT_PUBLISHED =
  '回数ごとの割引は保存しましたが、ストアの商品ページへの反映に失敗しました。もう一度保存するとストアに反映されます。'

export type CycleDiscountDeps = { db: Db; clients: ShopClients }

/**
 * The storefront's copy of the rules (teiki.plan_prices, storefront-prices.ts) after a change: a
 * refusal (422) or an unreachable platform (502) is answered saying the rules are saved (saving
 * again publishes them).
 */
async function publish(deps: CycleDiscountDeps, shop: ShopRow): Promise<void> {
  try {
    await publishPlanPrices(deps.db, deps.clients.clientFor(shop), shop)
  } catch (error) {
    const refused = error instanceof PlatformUserError
    throw new AppError(refused ? 'PLATFORM_USER_ERROR' : 'PLATFORM_UNAVAILABLE', NOT_PUBLISHED, {
      cause: error,
    })
  }
}

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
 * of fixed values). A 400 writes nothing. Then the storefront's copy is published.
 */
export async function putCycleDiscounts(
  deps: CycleDiscountDeps,
  shop: ShopRow,
  planId: string,
  body: CustomCycleDiscountsBody,
): Promise<CustomCycleDiscounts> {
  const { db } = deps
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
  await publish(deps, shop)
  return view(planId, rules)
}

export async function deleteCycleDiscounts(deps: CycleDiscountDeps, shop: ShopRow, planId: string) {
  await requirePlan(deps.db, shop, planId)
  await replaceCycleDiscounts(deps.db, shop.id, planId, [])
  await publish(deps, shop)
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
