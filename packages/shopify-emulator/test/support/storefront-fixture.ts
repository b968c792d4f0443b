import type {
  PricingPolicy,
  ProductRecord,
  SellingPlanGroupRecord,
  SellingPlanRecord,
  ShopState,
  VariantRecord,
} from '../../src/records.ts'

/**
 * A coffee with two variants (¥1,980 and ¥4,280) sold in one group per discount type, the way
 * a merchant sets them up: none, a fixed percentage, a fixed amount, recurring 20% → 10% after
 * the first order, and recurring from a fixed price of ¥980 for three orders to 10% off.
 */
const percent = (percentage: number) => ({
  __typename: 'SellingPlanPricingPolicyPercentageValue' as const,
  percentage,
})
const yen = (amount: number) => ({
  __typename: 'MoneyV2' as const,
  amount: `${amount}.0`,
  currencyCode: 'JPY',
})
const fixed = (
  adjustmentType: PricingPolicy['adjustmentType'],
  adjustmentValue: PricingPolicy['adjustmentValue'],
) => ({ __typename: 'SellingPlanFixedPricingPolicy', adjustmentType, adjustmentValue }) as PricingPolicy
const recurring = (afterCycle: number, percentage: number) =>
  ({
    __typename: 'SellingPlanRecurringPricingPolicy',
    afterCycle,
    adjustmentType: 'PERCENTAGE',
    adjustmentValue: percent(percentage),
  }) as PricingPolicy

function plan(id: number, name: string, pricingPolicies: PricingPolicy[]): SellingPlanRecord {
  const monthly = { interval: 'MONTH' as const, intervalCount: 1, anchors: [] }
  return {
    id,
    name,
    description: null,
    category: 'SUBSCRIPTION',
    options: [name],
    position: 1,
    createdAt: 0,
    billingPolicy: {
      __typename: 'SellingPlanRecurringBillingPolicy',
      ...monthly,
      minCycles: null,
      maxCycles: null,
    },
    deliveryPolicy: {
      __typename: 'SellingPlanRecurringDeliveryPolicy',
      ...monthly,
      cutoff: null,
      intent: 'FULFILLMENT_BEGIN',
      preAnchorBehavior: 'ASAP',
    },
    pricingPolicies,
  }
}

function group(
  id: number,
  name: string,
  plans: SellingPlanRecord[],
  productIds: number[],
): SellingPlanGroupRecord {
  return {
    id,
    name,
    merchantCode: `g${id}`,
    description: null,
    options: ['お届け頻度'],
    position: null,
    summary: null,
    createdAt: 0,
    productIds,
    sellingPlans: plans,
  }
}

export const PLAN = { none: 501, percent: 502, amount: 503, recurring: 504, recurringAfter3: 505 } as const

export function coffeeShop(): { shop: ShopState; coffee: ProductRecord; tea: ProductRecord } {
  const variants: VariantRecord[] = [
    { id: 11, productId: 1, title: '中煎り 200g', sku: 'COF-1', price: 1980, createdAt: 0 },
    { id: 12, productId: 1, title: '中煎り 500g', sku: 'COF-2', price: 4280, createdAt: 0 },
    { id: 21, productId: 2, title: '30g', sku: 'MAT-1', price: 2160, createdAt: 0 },
  ]
  const product = (id: number, title: string, handle: string, variantIds: number[]): ProductRecord => ({
    id,
    title,
    handle,
    status: 'ACTIVE',
    vendor: 'テスト',
    productType: 'コーヒー',
    createdAt: 0,
    updatedAt: 0,
    imageUrl: `/cdn/products/${handle}.svg`,
    variantIds,
  })
  const coffee = product(1, '有機ドリップコーヒー定期便', 'organic-drip-coffee', [11, 12])
  const tea = product(2, '京都宇治抹茶', 'uji-matcha', [21])
  const both = [1, 2]
  const shop = {
    info: { currencyCode: 'JPY', myshopifyDomain: 'blocks.myshopify.com', name: 'テスト' },
    products: [coffee, tea],
    variants,
    sellingPlanGroups: [
      group(401, '毎月お届け', [plan(PLAN.none, '毎月お届け', [])], both),
      group(
        402,
        '2ヶ月ごと',
        [plan(PLAN.percent, '2ヶ月ごと（10%オフ）', [fixed('PERCENTAGE', percent(10))])],
        [1],
      ),
      group(
        403,
        '毎月15日',
        [plan(PLAN.amount, '毎月15日（300円引き）', [fixed('FIXED_AMOUNT', yen(300))])],
        [1],
      ),
      group(
        404,
        '初回おためし',
        [
          plan(PLAN.recurring, '初回20%オフ', [fixed('PERCENTAGE', percent(20)), recurring(1, 10)]),
          plan(PLAN.recurringAfter3, '3回まで980円', [fixed('PRICE', yen(980)), recurring(3, 10)]),
        ],
        both,
      ),
    ],
  } as unknown as ShopState
  return { shop, coffee, tea }
}
