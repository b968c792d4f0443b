import { createHash } from 'node:crypto'
import { cyclePrice } from '../pricing.ts'
import type {
  PricingPolicy,
  ProductRecord,
  SellingPlanGroupRecord,
  SellingPlanRecord,
  ShopState,
  VariantRecord,
} from '../records.ts'
import { findById } from '../store.ts'

/**
 * The Liquid objects of the storefront (shopify.dev, Liquid objects `product`, `variant`,
 * `selling_plan_group`, `selling_plan`, `selling_plan_allocation`) built from the shop's
 * records. Prices are in the currency's subunit, as Liquid has them even for JPY (¥1,980 is
 * 198000). A plan's pricing policies become at most two price adjustments: the fixed policy
 * (applying to `order_count` orders when a recurring one follows) and the recurring one.
 */

const cents = (amount: number) => Math.round(amount * 100)

/** A selling plan group's Liquid id: a hash, not the Admin API's numeric id. */
export const liquidGroupId = (groupId: number) => createHash('sha1').update(`group-${groupId}`).digest('hex')

type Adjustment = { policy: PricingPolicy | null; orderCount: number | null }

/** The plan's price adjustments in order: what applies first, then what applies later. */
export function planAdjustments(policies: readonly PricingPolicy[]): Adjustment[] {
  const fixed = policies.find((p) => p.__typename === 'SellingPlanFixedPricingPolicy') ?? null
  const recurring = policies.find((p) => p.__typename === 'SellingPlanRecurringPricingPolicy') ?? null
  if (!recurring) return fixed ? [{ policy: fixed, orderCount: null }] : []
  return [
    { policy: fixed, orderCount: recurring.afterCycle ?? 1 },
    { policy: recurring, orderCount: null },
  ]
}

function adjustmentDrop(a: Adjustment, position: number) {
  const p = a.policy
  const v = p?.adjustmentValue
  const value =
    !p || !v
      ? 0
      : v.__typename === 'SellingPlanPricingPolicyPercentageValue'
        ? v.percentage
        : cents(Number(v.amount))
  const valueType = !p || p.adjustmentType === 'PERCENTAGE' ? 'percentage' : p.adjustmentType.toLowerCase()
  return { position, value_type: valueType, value, order_count: a.orderCount }
}

function planDrop(group: SellingPlanGroupRecord, plan: SellingPlanRecord, selectedPlanId: number | null) {
  return {
    id: plan.id,
    name: plan.name,
    description: plan.description,
    group_id: liquidGroupId(group.id),
    options: group.options.map((name, i) => ({ name, position: i + 1, value: plan.options[i] ?? '' })),
    price_adjustments: planAdjustments(plan.pricingPolicies).map((a, i) => adjustmentDrop(a, i + 1)),
    recurring_deliveries: true,
    selected: plan.id === selectedPlanId,
    checkout_charge: { value_type: 'percentage', value: 100 },
  }
}

function allocationDrop(
  currency: string,
  group: SellingPlanGroupRecord,
  plan: ReturnType<typeof planDrop> & { source: SellingPlanRecord },
  variant: VariantRecord,
) {
  const prices = planAdjustments(plan.source.pricingPolicies).map((a) =>
    cents(a.policy ? cyclePrice(variant.price, a.policy, currency) : variant.price),
  )
  const price = prices[0] ?? cents(variant.price)
  const { source: _, ...sellingPlan } = plan
  return {
    selling_plan: sellingPlan,
    selling_plan_group_id: liquidGroupId(group.id),
    price,
    compare_at_price: cents(variant.price),
    per_delivery_price: price,
    unit_price: null,
    checkout_charge_amount: price,
    remaining_balance_charge_amount: 0,
    price_adjustments: prices.map((p, i) => ({ position: i + 1, price: p })),
  }
}

/** The groups selling `product` (whole, or any of its variants one by one). */
export function groupsOf(shop: ShopState, product: ProductRecord): SellingPlanGroupRecord[] {
  return shop.sellingPlanGroups.filter(
    (g) =>
      g.productIds.includes(product.id) || (g.variantIds ?? []).some((v) => product.variantIds.includes(v)),
  )
}

export type ProductDropOptions = {
  variantId?: number | null
  sellingPlanId?: number | null
  /** Variants the shop cannot sell now (the emulator's out-of-stock knob). */
  isOutOfStock?: (variantId: number) => boolean
}

/** The Liquid `product` of a product record, its variants and its selling plan groups. */
export function productDrop(shop: ShopState, product: ProductRecord, opts: ProductDropOptions = {}) {
  const currency = shop.info.currencyCode
  const groups = groupsOf(shop, product)
  const selectedPlanId = opts.sellingPlanId ?? null
  const groupDrops = groups.map((g) => {
    const plans = g.sellingPlans.map((p) => ({ ...planDrop(g, p, selectedPlanId), source: p }))
    return { group: g, plans }
  })
  const variants = product.variantIds
    .map((id) => findById(shop.variants, id))
    .filter((v): v is VariantRecord => v !== undefined)
    .map((v) => ({
      id: v.id,
      title: v.title,
      sku: v.sku,
      price: cents(v.price),
      compare_at_price: null,
      available: !opts.isOutOfStock?.(v.id),
      selling_plan_allocations: groupDrops
        .filter(({ group }) => group.productIds.includes(product.id) || group.variantIds?.includes(v.id))
        .flatMap(({ group, plans }) => plans.map((plan) => allocationDrop(currency, group, plan, v))),
    }))
  const selected =
    variants.find((v) => v.id === opts.variantId) ?? variants.find((v) => v.available) ?? variants[0] ?? null
  const plansById = new Map(groupDrops.flatMap(({ plans }) => plans.map((p) => [p.id, p] as const)))
  const selectedPlan = selectedPlanId === null ? null : (plansById.get(selectedPlanId) ?? null)
  return {
    id: product.id,
    title: product.title,
    handle: product.handle,
    url: `/products/${product.handle}`,
    vendor: product.vendor,
    type: product.productType,
    available: variants.some((v) => v.available),
    price: Math.min(...variants.map((v) => v.price)),
    featured_image: product.imageUrl
      ? { src: product.imageUrl, alt: product.title, width: 400, height: 400 }
      : null,
    variants,
    has_only_default_variant: variants.length === 1 && variants[0]?.title === 'Default Title',
    selected_or_first_available_variant: selected,
    requires_selling_plan: false,
    selected_selling_plan: selectedPlan ? (({ source: _, ...p }) => p)(selectedPlan) : null,
    selling_plan_groups: groupDrops.map(({ group, plans }) => ({
      id: liquidGroupId(group.id),
      name: group.name,
      app_id: 'teiki',
      options: group.options.map((name, i) => ({
        name,
        position: i + 1,
        values: [...new Set(group.sellingPlans.map((p) => p.options[i] ?? ''))],
      })),
      selling_plans: plans.map(({ source: _, ...p }) => p),
    })),
  }
}

export type ProductDrop = ReturnType<typeof productDrop>
