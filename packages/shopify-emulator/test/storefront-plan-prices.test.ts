import {
  type CustomCycleDiscount,
  type CycleDiscount,
  linePriceForCycle,
  storefrontPlanPrices,
} from '@teiki/domain'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { PricingPolicy, SellingPlanGroupRecord, ShopState } from '../src/records.ts'
import { blockPriceForCycle, blockRanges, renderPlanPrices } from './support/plan-block.ts'
import { coffeeShop } from './support/storefront-fixture.ts'

// Issue 22: the plans block prices a plan whose later orders only the app knows (回数割定期便:
// 1回目30%オフ、2〜3回目20%オフ、4回目以降10%オフ) from the app-data metafield teiki.plan_prices,
// and its Liquid arithmetic gives what the billing engine charges (linePriceForCycle).

const MULTI = 601
const thirtyOff: PricingPolicy = {
  __typename: 'SellingPlanFixedPricingPolicy',
  adjustmentType: 'PERCENTAGE',
  adjustmentValue: { __typename: 'SellingPlanPricingPolicyPercentageValue', percentage: 30 },
} as PricingPolicy
const rules: CustomCycleDiscount[] = [
  { cycle: 1, adjustmentType: 'PERCENTAGE', adjustmentValue: '30' },
  { cycle: 2, adjustmentType: 'PERCENTAGE', adjustmentValue: '20' },
  { cycle: 4, adjustmentType: 'PERCENTAGE', adjustmentValue: '10' },
]

/** The fixture's shop with one more group: 回数割定期便 on a product of `price` yen. */
function multiShop(price: number, policies: PricingPolicy[] = [thirtyOff]) {
  const { shop, coffee } = coffeeShop()
  const variant = shop.variants.find((v) => v.id === 11)!
  variant.price = price
  const source = shop.sellingPlanGroups[0]!.sellingPlans[0]!
  const group: SellingPlanGroupRecord = {
    ...shop.sellingPlanGroups[0]!,
    id: 409,
    name: '回数割定期便',
    productIds: [coffee.id],
    sellingPlans: [{ ...source, id: MULTI, name: '回数割', pricingPolicies: policies }],
  }
  ;(shop as ShopState).sellingPlanGroups = [group]
  return { shop, coffee }
}

const platformDiscounts = (policies: PricingPolicy[]): CycleDiscount[] =>
  policies.map((p) => ({
    adjustmentType: p.adjustmentType,
    adjustmentValue:
      p.adjustmentValue.__typename === 'SellingPlanPricingPolicyPercentageValue'
        ? String(p.adjustmentValue.percentage)
        : String(Number(p.adjustmentValue.amount)),
    afterCycle: p.__typename === 'SellingPlanRecurringPricingPolicy' ? (p.afterCycle ?? 0) : 0,
  }))

describe('回数割定期便 on the product block', () => {
  it('shows 1回目 ¥2,268 / 2〜3回目 ¥2,592 / 4回目以降 ¥2,916 on a ¥3,240 product, not 毎回 ¥2,268', async () => {
    const { shop, coffee } = multiShop(3240)
    const planPrices = storefrontPlanPrices(
      [{ id: String(MULTI), platformDiscounts: platformDiscounts([thirtyOff]), rules }],
      'JPY',
    )
    const text = (await renderPlanPrices(shop, coffee, { variantId: 11, planPrices })).get(MULTI)
    expect(text).toBe('1回目 ¥2,268 ¥3,240 2〜3回目 ¥2,592 4回目以降 ¥2,916')
    // Before the app published its data, the platform's data alone: the first order's price.
    expect((await renderPlanPrices(shop, coffee, { variantId: 11 })).get(MULTI)).toBe('毎回 ¥2,268 ¥3,240')
  })

  it('speaks English with the same ranges', async () => {
    const { shop, coffee } = multiShop(3240)
    const planPrices = storefrontPlanPrices(
      [{ id: String(MULTI), platformDiscounts: platformDiscounts([thirtyOff]), rules }],
      'JPY',
    )
    const text = (await renderPlanPrices(shop, coffee, { variantId: 11, planPrices, locale: 'en' })).get(
      MULTI,
    )
    expect(text).toBe('Delivery 1 ¥2,268 ¥3,240 Deliveries 2–3 ¥2,592 From delivery 4 ¥2,916')
  })
})

const amount = fc.integer({ min: 0, max: 20_000 })
const value = fc.oneof(
  fc.record({ type: fc.constant('PERCENTAGE' as const), v: fc.integer({ min: 0, max: 100_000 }) }),
  fc.record({ type: fc.constant('FIXED_AMOUNT' as const), v: amount }),
  fc.record({ type: fc.constant('PRICE' as const), v: amount }),
)
/** 12.345% is 12345 thousandths; amounts whole yen. */
const text = (r: { type: string; v: number }) => (r.type === 'PERCENTAGE' ? String(r.v / 1000) : String(r.v))

describe('the block’s Liquid arithmetic equals the billing engine’s (fast-check)', () => {
  it('for random prices, platform policies and app rules, every order’s price is linePriceForCycle’s', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3_000_000 }),
        value,
        fc.uniqueArray(fc.record({ cycle: fc.integer({ min: 1, max: 8 }), value }), {
          selector: (r) => r.cycle,
          maxLength: 4,
        }),
        async (price, first, drawn) => {
          const policy: PricingPolicy = {
            __typename: 'SellingPlanFixedPricingPolicy',
            adjustmentType: first.type,
            adjustmentValue:
              first.type === 'PERCENTAGE'
                ? { __typename: 'SellingPlanPricingPolicyPercentageValue', percentage: first.v / 1000 }
                : { __typename: 'MoneyV2', amount: `${first.v}.0`, currencyCode: 'JPY' },
          } as PricingPolicy
          const planRules = drawn.map((r) => ({
            cycle: r.cycle,
            adjustmentType: r.value.type,
            adjustmentValue: text(r.value),
          }))
          const { shop, coffee } = multiShop(price, [policy])
          const discounts = platformDiscounts([policy])
          const planPrices = storefrontPlanPrices(
            [{ id: String(MULTI), platformDiscounts: discounts, rules: planRules }],
            'JPY',
          )
          const shown = (await renderPlanPrices(shop, coffee, { variantId: 11, planPrices })).get(MULTI)!
          const ranges = blockRanges(shown)
          const line = {
            currentPrice: String(price),
            pricingPolicy: { basePrice: String(price), cycleDiscounts: discounts },
            planRules,
          }
          for (let cycle = 1; cycle <= 10; cycle++) {
            expect(blockPriceForCycle(ranges, cycle), `${shown} (cycle ${cycle})`).toBe(
              Number(linePriceForCycle(line, cycle, { currencyCode: 'JPY' })),
            )
          }
        },
      ),
      { numRuns: 150, seed: 22 },
    )
  })
})
