import {
  customCycleDiscountsOf,
  DEFAULT_MAIL_TEMPLATES,
  type DiscountType,
  type DiscountValueType,
  newPlanForm,
  priceInRanges,
  renderMailTemplate,
  repricedLines,
  type SellingPlanForm,
  sellingPlanProblems,
  storefrontPlanPrices,
} from '@teiki/domain'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { SellingPlanInput } from '../../../packages/shopify-emulator/src/mutations/selling-plan-input.ts'
import { sellingPlanFrom } from '../../../packages/shopify-emulator/src/mutations/selling-plan-input.ts'
import { cycleAdjustments } from '../../../packages/shopify-emulator/src/pricing.ts'
import type { SellingPlanRecord } from '../../../packages/shopify-emulator/src/records.ts'
import { checkoutUnitPrice } from '../../../packages/shopify-emulator/src/storefront/checkout.ts'
import {
  blockPriceForCycle,
  blockRanges,
  renderPlanPrices,
} from '../../../packages/shopify-emulator/test/support/plan-block.ts'
import { coffeeShop } from '../../../packages/shopify-emulator/test/support/storefront-fixture.ts'
import { linesWithPlanRules, quoteOf } from '../src/billing/cycle-prices.ts'
import { noticeAmount } from '../src/features/mail-templates/upcoming-notice.ts'
import { lineDiscountsOf, sellingPlanInput } from '../src/features/selling-plans/plan-mapping.ts'
import { cyclePricesOf } from '../src/features/subscriptions/detail-service.ts'
import type { PlatformDetailLine } from '../src/platform/operations/contract-fragments.ts'
import { policyOf } from '../src/platform/operations/subscription-line-pricing.ts'

// Issue 22's property: for random plans of every discount type (the editor's plan, sent to the
// platform as the app sends it, its custom cycle discounts kept as the app keeps them) on a
// random product, and any order n, what the storefront block shows (its Liquid, from the data
// the app publishes and the platform's selling plan data), what 契約詳細 answers, the amount
// 次回請求のお知らせ quotes and the price the billing engine sets before the charge are one
// number. Each surface is taken at the function the app runs for it, on the platform's
// (the emulator's) own records: checkout's line, the contract's pricing policy as read back.

const PLAN_ID = 901
const LINE = 'gid://shopify/SubscriptionLine/1'
const yen = (text: string) => Number(text.replaceAll(/[¥,]/g, ''))

const valueType = fc.constantFrom<DiscountValueType>('PERCENTAGE', 'FIXED_AMOUNT', 'PRICE')
/** A percentage (0–100, halves too) or an amount of yen up to ¥12,000. */
const valueFor = (type: DiscountValueType) =>
  type === 'PERCENTAGE'
    ? fc.integer({ min: 0, max: 200 }).map((h) => h / 2)
    : fc.integer({ min: 0, max: 12_000 })

const planForm: fc.Arbitrary<SellingPlanForm> = fc
  .record({
    discountType: fc.constantFrom<DiscountType>(
      'noDiscount',
      'fixedDiscount',
      'recurringDiscount',
      'recurringMultiDiscount',
    ),
    valueType,
    afterCycle: fc.integer({ min: 1, max: 4 }),
    cycles: fc.uniqueArray(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 4 }),
  })
  .chain((f) =>
    fc
      .record({
        initialValue: valueFor(f.valueType),
        laterValue: valueFor(f.valueType),
        values: fc.array(valueFor(f.valueType), { minLength: f.cycles.length, maxLength: f.cycles.length }),
      })
      .map(
        (v): SellingPlanForm => ({
          ...newPlanForm('回数割テスト'),
          discountType: f.discountType,
          valueType: f.discountType === 'noDiscount' ? null : f.valueType,
          initialValue: v.initialValue,
          laterValue: v.laterValue,
          afterCycle: f.afterCycle,
          cycleDiscounts: f.cycles.map((cycle, i) => ({ cycle, value: v.values[i]! })),
        }),
      ),
  )

/** The plan as the platform (the emulator) stores what the app sends for `form`. */
function platformPlan(form: SellingPlanForm): SellingPlanRecord {
  const input = sellingPlanInput(form, 'JPY') as SellingPlanInput
  const made = sellingPlanFrom(input, null, [], { id: PLAN_ID, now: 0, currency: 'JPY' })
  if (Array.isArray(made)) throw new Error(`the platform refused the plan: ${JSON.stringify(made)}`)
  return made
}

/** The contract line's pricing policy as the platform answers it (detail and line pricing reads). */
function answeredPolicy(plan: SellingPlanRecord, base: number): PlatformDetailLine['pricingPolicy'] {
  if (plan.pricingPolicies.length === 0) return null
  return {
    basePrice: { amount: `${base}.0`, currencyCode: 'JPY' },
    cycleDiscounts: cycleAdjustments({ basePrice: base, cycleDiscounts: plan.pricingPolicies }, 'JPY').map(
      (d) => ({
        adjustmentType: d.adjustmentType,
        adjustmentValue:
          d.adjustmentValue.__typename === 'SellingPlanPricingPolicyPercentageValue'
            ? d.adjustmentValue
            : { __typename: 'MoneyV2' as const, amount: d.adjustmentValue.amount, currencyCode: 'JPY' },
        afterCycle: d.afterCycle,
        computedPrice: { amount: `${d.computedPrice}.0`, currencyCode: 'JPY' },
      }),
    ),
  }
}

describe('one price per order: block = 契約詳細 = 次回請求のお知らせ = the charge (fast-check)', () => {
  it('for random plans of every discount type, products, quantities, delivery and orders', async () => {
    await fc.assert(
      fc.asyncProperty(
        planForm,
        fc.integer({ min: 1, max: 60_000 }),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom(0, 550, 880),
        fc.integer({ min: 1, max: 12 }),
        fc.boolean(),
        async (form, base, quantity, delivery, cycle, manual) => {
          fc.pre(Object.keys(sellingPlanProblems(form)).length === 0)
          const plan = platformPlan(form)
          const rules = customCycleDiscountsOf(form, 'JPY')
          const { shop, coffee } = coffeeShop()
          shop.variants.find((v) => v.id === 11)!.price = base
          shop.sellingPlanGroups = [
            { ...shop.sellingPlanGroups[0]!, productIds: [coffee.id], sellingPlans: [plan] },
          ]

          // The block: the platform's selling plan data and what the app publishes (storefront-prices.ts).
          const planPrices = storefrontPlanPrices(
            [{ id: String(PLAN_ID), platformDiscounts: lineDiscountsOf(plan.pricingPolicies), rules }],
            'JPY',
          )
          const shown = (await renderPlanPrices(shop, coffee, { variantId: 11, planPrices })).get(PLAN_ID)!
          const block = blockRanges(shown)

          // The contract checkout makes: the first order's price, the plan's policies on the line.
          const checkout = checkoutUnitPrice({ shop } as Parameters<typeof checkoutUnitPrice>[0], {
            variantId: 11,
            quantity,
            sellingPlanId: PLAN_ID,
            properties: {},
          })
          const answered = answeredPolicy(plan, base)
          const detailLine: PlatformDetailLine = {
            id: LINE,
            productId: null,
            variantId: null,
            title: 'コーヒー',
            variantTitle: null,
            quantity,
            sku: null,
            sellingPlanId: `gid://shopify/SellingPlan/${PLAN_ID}`,
            sellingPlanName: plan.name,
            currentPrice: { amount: `${checkout}.0`, currencyCode: 'JPY' },
            variantImage: null,
            discountAllocations: [],
            pricingPolicy: answered,
          }
          const byPlan = new Map(rules.length > 0 ? [[String(PLAN_ID), rules]] : [])
          const pricing = { currencyCode: 'JPY', manualPrices: manual }

          // 契約詳細 with n − 1 orders behind it: its ranges from order n.
          const detail = cyclePricesOf(detailLine, byPlan, pricing, cycle).map((r) => ({
            ...r,
            price: r.price.amount,
          }))
          // The engine: the line's policy as read, the plan's rules laid on, repriced for order n.
          const engineLines = linesWithPlanRules(
            [
              {
                id: LINE,
                currentPrice: `${checkout}.0`,
                pricingPolicy: policyOf(answered as Parameters<typeof policyOf>[0]),
              },
            ],
            [{ id: LINE, sellingPlanId: String(PLAN_ID) }],
            byPlan,
          )
          const charged = manual
            ? `${checkout}`
            : (repricedLines(engineLines, cycle, 'JPY')[0]?.to ?? `${checkout}`)
          // 次回請求のお知らせ: the engine's quote of order n, its amount rendered in the mail.
          const quote = quoteOf(engineLines, new Map([[LINE, quantity]]), cycle, pricing)
          const mail = renderMailTemplate(
            'upcoming_billing',
            DEFAULT_MAIL_TEMPLATES.upcoming_billing,
            {
              customerName: { lastName: '山田', firstName: '花子' },
              contractId: '1',
              nextBillingDate: new Date('2026-12-10T01:00:00Z'),
              amount: { amount: noticeAmount(quote, String(delivery)), currencyCode: 'JPY' },
            },
            'Asia/Tokyo',
          )
          const mailed = yen(/ご請求予定金額: (¥[\d,]+)/.exec(mail.text)![1]!)

          const context = `${shown} | order ${cycle} | detail ${JSON.stringify(detail)}`
          expect(Number(priceInRanges(detail, cycle)), context).toBe(Number(charged))
          expect(mailed, context).toBe(Number(charged) * quantity + delivery)
          if (manual) {
            expect(Number(charged), context).toBe(checkout)
            return
          }
          expect(blockPriceForCycle(block, cycle), context).toBe(Number(charged))
          // Every later order too: 契約詳細's ranges and the block's read the same prices.
          for (let later = cycle; later <= 12; later++)
            expect(Number(priceInRanges(detail, later)), `${context} | order ${later}`).toBe(
              blockPriceForCycle(block, later),
            )
          // The first order is what checkout charged.
          expect(blockPriceForCycle(block, 1), context).toBe(checkout)
        },
      ),
      { numRuns: 200, seed: 2022 },
    )
  })
})
