import type { SellingPlanGroupRecord, SellingPlanRecord, ShopState } from '../records.ts'
import { nextId } from '../store.ts'
import { DAY } from './schedule.ts'

/**
 * The demo shop's selling plan groups beyond the generated ones, so a newcomer sees every
 * discount type on the first start (issue 13). The generated groups already hold none
 * (毎月お届け), fixed (2ヶ月ごと; 毎月15日 in 7 shops of 10, not the demo shop) and recurring
 * (毎週お届け: 20% then 10%); these add
 *
 * - 回数割定期便 (`teiki-demo-multi`): a recurring-multi plan. The platform holds its cycle-1
 *   price as one fixed policy (30% off, what checkout charges); the app keeps the later cycles'
 *   discounts and seeds them at start (apps/server/src/demo/app-data.ts, the same merchant code).
 * - 選べる詰め合わせ (`teiki-demo-box`): the group the demo's box (ボックス) picks from.
 *
 * Added after everything else, with no random draws, so every other record is what it was.
 */
export const DEMO_MULTI_CODE = 'teiki-demo-multi'
export const DEMO_BOX_CODE = 'teiki-demo-box'

const monthly = (shop: ShopState, name: string, option: string, createdAt: number, percent: number) =>
  ({
    id: nextId(shop, 'SellingPlan'),
    name,
    description: null,
    category: 'SUBSCRIPTION',
    options: [option],
    position: 1,
    createdAt,
    billingPolicy: {
      __typename: 'SellingPlanRecurringBillingPolicy',
      interval: 'MONTH',
      intervalCount: 1,
      minCycles: 3,
      maxCycles: null,
      anchors: [],
    },
    deliveryPolicy: {
      __typename: 'SellingPlanRecurringDeliveryPolicy',
      interval: 'MONTH',
      intervalCount: 1,
      cutoff: null,
      anchors: [],
      intent: 'FULFILLMENT_BEGIN',
      preAnchorBehavior: 'ASAP',
    },
    pricingPolicies: [
      {
        __typename: 'SellingPlanFixedPricingPolicy',
        adjustmentType: 'PERCENTAGE',
        adjustmentValue: { __typename: 'SellingPlanPricingPolicyPercentageValue', percentage: percent },
      },
    ],
  }) satisfies SellingPlanRecord

export function addDemoPlanGroups(shop: ShopState, now: number): void {
  const createdAt = Math.floor((now - 30 * DAY) / 1000) * 1000
  // Products the generator made (not the 130-variant single-item product), by catalogue order.
  const products = shop.products.filter((p) => p.variantIds.length <= 4)
  const group = (
    name: string,
    merchantCode: string,
    productIds: number[],
    plan: SellingPlanRecord,
    description: string,
  ): SellingPlanGroupRecord => ({
    id: nextId(shop, 'SellingPlanGroup'),
    name,
    merchantCode,
    description,
    options: ['お届け頻度'],
    position: null,
    summary: '1件の配送頻度',
    createdAt,
    productIds: [...productIds].sort((a, b) => a - b),
    sellingPlans: [plan],
  })
  shop.sellingPlanGroups.push(
    group(
      '回数割定期便',
      DEMO_MULTI_CODE,
      products.slice(0, 3).map((p) => p.id),
      monthly(shop, '毎月お届け（回数ごとに割引）', '1ヶ月ごと', createdAt, 30),
      '初回30%オフ、2〜3回目20%オフ、4回目以降10%オフ',
    ),
    group(
      '選べる詰め合わせ',
      DEMO_BOX_CODE,
      products.slice(0, 6).map((p) => p.id),
      monthly(shop, '毎月お届け（詰め合わせ5%オフ）', '1ヶ月ごと', createdAt, 5),
      'ボックスで3〜5品を選んでお届け',
    ),
  )
}
