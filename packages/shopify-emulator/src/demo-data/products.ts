import type { PricingPolicy, SellingPlanGroupRecord, ShopState } from '../records.ts'
import { nextId } from '../store.ts'
import {
  type CatalogItem,
  catalog,
  type GroupTemplate,
  groupTemplates,
  type PlanTemplate,
} from './catalog.ts'
import type { Rng } from './prng.ts'
import { productImagePath } from './product-images.ts'
import { DAY } from './schedule.ts'

const percent = (percentage: number) => ({
  __typename: 'SellingPlanPricingPolicyPercentageValue' as const,
  percentage,
})

function pricingPolicies(t: PlanTemplate, currencyCode: string): PricingPolicy[] {
  const out: PricingPolicy[] = []
  if (t.firstPercent !== null) {
    out.push({
      __typename: 'SellingPlanFixedPricingPolicy',
      adjustmentType: 'PERCENTAGE',
      adjustmentValue: percent(t.firstPercent),
    })
  }
  if (t.recurringPercent !== null) {
    out.push({
      __typename: 'SellingPlanRecurringPricingPolicy',
      afterCycle: 1,
      adjustmentType: 'PERCENTAGE',
      adjustmentValue: percent(t.recurringPercent),
    })
  }
  if (t.fixedAmountOff !== null) {
    out.push({
      __typename: 'SellingPlanFixedPricingPolicy',
      adjustmentType: 'FIXED_AMOUNT',
      adjustmentValue: { __typename: 'MoneyV2', amount: `${t.fixedAmountOff}.0`, currencyCode },
    })
  }
  return out
}

export type PlanChoice = {
  group: SellingPlanGroupRecord
  template: PlanTemplate
  groupTemplate: GroupTemplate
}

/** Products (8–15, 1–4 variants each) and 3–4 selling plan groups linked to them. */
export function generateCatalog(rng: Rng, shop: ShopState, now: number): PlanChoice[] {
  const shuffled = rng.shuffle(catalog)
  const chosen: CatalogItem[] = shuffled.slice(0, rng.int(8, Math.min(15, catalog.length)))
  const opened = now - 600 * DAY
  for (const item of chosen) {
    const createdAt = opened + rng.int(0, 30) * DAY
    const productId = nextId(shop, 'Product')
    const variantIds: number[] = []
    for (const [i, [title, price]] of item.variants.entries()) {
      const id = nextId(shop, 'ProductVariant')
      variantIds.push(id)
      shop.variants.push({ id, productId, title, sku: `TK-${item.sku}-${i + 1}`, price, createdAt })
    }
    shop.products.push({
      id: productId,
      title: item.title,
      handle: item.handle,
      status: 'ACTIVE',
      vendor: shop.info.name,
      productType: item.productType,
      createdAt,
      updatedAt: createdAt + rng.int(1, 200) * DAY,
      imageUrl: productImagePath(item.handle),
      variantIds,
    })
  }
  const withAnchored = rng.chance(0.7)
  const templates = withAnchored ? groupTemplates : groupTemplates.slice(0, 3)
  const choices: PlanChoice[] = []
  for (const [position, gt] of templates.entries()) {
    const eligible = shop.products.filter((_, i) => !gt.weekly || chosen[i]!.weekly)
    let productIds = eligible.filter(() => gt.merchantCode === 'monthly' || rng.chance(0.6)).map((p) => p.id)
    // Every group sells at least two products, preferring ones that suit its cadence.
    if (productIds.length < 2) {
      const fallback = [...eligible, ...shop.products.filter((p) => !eligible.includes(p))]
      productIds = fallback.slice(0, 2).map((p) => p.id)
    }
    const createdAt = opened + (position + 1) * DAY
    const group: SellingPlanGroupRecord = {
      id: nextId(shop, 'SellingPlanGroup'),
      name: gt.name,
      merchantCode: gt.merchantCode,
      description: null,
      options: [gt.option],
      position: null,
      summary: `${gt.plans.length}件の配送頻度`,
      createdAt,
      productIds,
      sellingPlans: gt.plans.map((t, i) => {
        const anchors =
          t.anchorDay === null
            ? []
            : [{ type: 'MONTHDAY' as const, day: t.anchorDay, month: null, cutoffDay: null }]
        return {
          id: nextId(shop, 'SellingPlan'),
          name: t.name,
          description: null,
          category: 'SUBSCRIPTION' as const,
          options: [t.option],
          position: i + 1,
          createdAt,
          billingPolicy: {
            __typename: 'SellingPlanRecurringBillingPolicy' as const,
            interval: t.interval,
            intervalCount: t.intervalCount,
            minCycles: null,
            maxCycles: null,
            anchors,
          },
          deliveryPolicy: {
            __typename: 'SellingPlanRecurringDeliveryPolicy' as const,
            interval: t.interval,
            intervalCount: t.intervalCount,
            cutoff: t.anchorDay === null ? null : 0,
            anchors,
            intent: 'FULFILLMENT_BEGIN' as const,
            preAnchorBehavior: 'ASAP' as const,
          },
          pricingPolicies: pricingPolicies(t, shop.info.currencyCode),
        }
      }),
    }
    shop.sellingPlanGroups.push(group)
    for (const template of gt.plans) choices.push({ group, template, groupTemplate: gt })
  }
  return choices
}
