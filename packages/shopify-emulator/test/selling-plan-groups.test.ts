import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toGid } from '../src/gid.ts'
import type { Emulator } from '../src/server.ts'
import { gql, SHOP, smallEmulator, webhookReceiver } from './support/harness.ts'
import * as m from './support/mutations.ts'

const anchors = [{ type: 'MONTHDAY', day: 15 }]
const monthly = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  options: [name],
  category: 'SUBSCRIPTION',
  billingPolicy: { recurring: { interval: 'MONTH', intervalCount: 1, minCycles: 3, maxCycles: 12, anchors } },
  deliveryPolicy: {
    recurring: {
      interval: 'MONTH',
      intervalCount: 1,
      cutoff: 5,
      anchors,
      preAnchorBehavior: 'NEXT',
      intent: 'FULFILLMENT_BEGIN',
    },
  },
  pricingPolicies: [
    { fixed: { adjustmentType: 'PERCENTAGE', adjustmentValue: { percentage: 10 } } },
    { recurring: { afterCycle: 3, adjustmentType: 'FIXED_AMOUNT', adjustmentValue: { fixedValue: '300' } } },
  ],
  ...extra,
})

describe('selling plan group mutations', () => {
  let emulator: Emulator
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>
  const shop = () => emulator.store.shop(SHOP)!

  beforeAll(async () => {
    receiver = await webhookReceiver()
    emulator = await smallEmulator({
      webhooks: {
        callbackUrl: receiver.url,
        topics: ['selling_plan_groups/create', 'selling_plan_groups/update', 'selling_plan_groups/delete'],
      },
    })
  })
  afterAll(async () => {
    await emulator.close()
    await receiver.close()
  })

  it('creates a group with policies stored as the input gives them, then updates, re-scopes and deletes it', async () => {
    const product = shop().products[0]!
    const created = await gql(emulator, m.sellingPlanGroupCreate, {
      input: {
        name: '定期便',
        merchantCode: 'teiki',
        options: ['お届け頻度'],
        sellingPlansToCreate: [monthly('毎月お届け')],
      },
      resources: { productIds: [toGid('Product', product.id)] },
    })
    expect(created.sellingPlanGroupCreate.userErrors).toEqual([])
    const g = created.sellingPlanGroupCreate.sellingPlanGroup
    expect(g).toMatchObject({
      name: '定期便',
      merchantCode: 'teiki',
      options: ['お届け頻度'],
      productsCount: { count: 1 },
    })
    expect(g.sellingPlans.nodes[0]).toMatchObject({
      name: '毎月お届け',
      billingPolicy: {
        interval: 'MONTH',
        intervalCount: 1,
        minCycles: 3,
        maxCycles: 12,
        anchors: [{ type: 'MONTHDAY', day: 15, month: null, cutoffDay: null }],
      },
      deliveryPolicy: {
        interval: 'MONTH',
        intervalCount: 1,
        cutoff: 5,
        intent: 'FULFILLMENT_BEGIN',
        preAnchorBehavior: 'NEXT',
      },
      pricingPolicies: [
        {
          __typename: 'SellingPlanFixedPricingPolicy',
          adjustmentType: 'PERCENTAGE',
          adjustmentValue: { __typename: 'SellingPlanPricingPolicyPercentageValue', percentage: 10 },
        },
        {
          __typename: 'SellingPlanRecurringPricingPolicy',
          afterCycle: 3,
          adjustmentType: 'FIXED_AMOUNT',
          adjustmentValue: { __typename: 'MoneyV2', amount: '300.0' },
        },
      ],
    })

    const planId = g.sellingPlans.nodes[0].id
    const updated = await gql(emulator, m.sellingPlanGroupUpdate, {
      id: g.id,
      input: {
        name: '定期便（改）',
        sellingPlansToUpdate: [{ id: planId, billingPolicy: { recurring: { maxCycles: 24 } } }],
        sellingPlansToCreate: [
          monthly('隔月お届け', {
            billingPolicy: { recurring: { interval: 'MONTH', intervalCount: 2, anchors } },
            deliveryPolicy: { recurring: { interval: 'MONTH', intervalCount: 2, anchors } },
            pricingPolicies: [
              { fixed: { adjustmentType: 'PRICE', adjustmentValue: { fixedValue: '1500' } } },
            ],
          }),
        ],
      },
    })
    expect(updated.sellingPlanGroupUpdate.userErrors).toEqual([])
    const plans = updated.sellingPlanGroupUpdate.sellingPlanGroup.sellingPlans.nodes
    expect(plans.map((p: { name: string }) => p.name)).toEqual(['毎月お届け', '隔月お届け'])
    expect(plans[0].billingPolicy).toMatchObject({ minCycles: 3, maxCycles: 24 })

    const removedPlan = await gql(emulator, m.sellingPlanGroupUpdate, {
      id: g.id,
      input: { sellingPlansToDelete: [planId] },
    })
    expect(removedPlan.sellingPlanGroupUpdate.deletedSellingPlanIds).toEqual([planId])

    const other = shop().products[1]!
    const variant = shop().variants.find((v) => v.productId !== product.id && v.productId !== other.id)!
    const addP = await gql(emulator, m.sellingPlanGroupAddProducts, {
      id: g.id,
      productIds: [toGid('Product', other.id)],
    })
    expect(addP.sellingPlanGroupAddProducts.sellingPlanGroup.productsCount.count).toBe(2)
    const addV = await gql(emulator, m.sellingPlanGroupAddProductVariants, {
      id: g.id,
      ids: [toGid('ProductVariant', variant.id)],
    })
    const variantCount = product.variantIds.length + other.variantIds.length + 1
    expect(addV.sellingPlanGroupAddProductVariants.sellingPlanGroup.productVariantsCount.count).toBe(
      variantCount,
    )
    const remV = await gql(emulator, m.sellingPlanGroupRemoveProductVariants, {
      id: g.id,
      ids: [toGid('ProductVariant', variant.id)],
    })
    expect(remV.sellingPlanGroupRemoveProductVariants.removedProductVariantIds).toEqual([
      toGid('ProductVariant', variant.id),
    ])
    const remP = await gql(emulator, m.sellingPlanGroupRemoveProducts, {
      id: g.id,
      productIds: [toGid('Product', other.id)],
    })
    expect(remP.sellingPlanGroupRemoveProducts.removedProductIds).toEqual([toGid('Product', other.id)])

    const deleted = await gql(emulator, m.sellingPlanGroupDelete, { id: g.id })
    expect(deleted.sellingPlanGroupDelete.deletedSellingPlanGroupId).toBe(g.id)
    await emulator.idle()
    expect(receiver.topics()[0]).toBe('selling_plan_groups/create')
    expect(receiver.topics().at(-1)).toBe('selling_plan_groups/delete')
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({
      admin_graphql_api_id: g.id,
      name: '定期便',
    })
  })

  it.each([
    ['a blank name', { name: ' ', sellingPlansToCreate: [monthly('a')] }, 'BLANK'],
    ['no plans', { name: 'x', sellingPlansToCreate: [] }, 'SELLING_PLAN_COUNT_LOWER_BOUND'],
    [
      'no billing policy',
      { name: 'x', sellingPlansToCreate: [monthly('a', { billingPolicy: null })] },
      'SELLING_PLAN_BILLING_POLICY_MISSING',
    ],
    [
      'max < min cycles',
      {
        name: 'x',
        sellingPlansToCreate: [
          monthly('a', {
            billingPolicy: {
              recurring: { interval: 'MONTH', intervalCount: 1, minCycles: 5, maxCycles: 2, anchors },
            },
          }),
        ],
      },
      'SELLING_PLAN_MAX_CYCLES_MUST_BE_GREATER_THAN_MIN_CYCLES',
    ],
    [
      'different anchors',
      {
        name: 'x',
        sellingPlansToCreate: [
          monthly('a', {
            billingPolicy: {
              recurring: { interval: 'MONTH', intervalCount: 1, anchors: [{ type: 'MONTHDAY', day: 1 }] },
            },
          }),
        ],
      },
      'SELLING_PLAN_BILLING_AND_DELIVERY_POLICY_ANCHORS_MUST_BE_EQUAL',
    ],
    [
      'a percentage given as money',
      {
        name: 'x',
        sellingPlansToCreate: [
          monthly('a', {
            pricingPolicies: [
              { fixed: { adjustmentType: 'PERCENTAGE', adjustmentValue: { fixedValue: '5' } } },
            ],
          }),
        ],
      },
      'PRICING_POLICY_ADJUSTMENT_VALUE_AND_TYPE_MUST_MATCH',
    ],
    [
      'only a recurring price',
      {
        name: 'x',
        sellingPlansToCreate: [
          monthly('a', {
            pricingPolicies: [{ recurring: { afterCycle: 2, adjustmentValue: { percentage: 5 } } }],
          }),
        ],
      },
      'SELLING_PLAN_PRICING_POLICIES_MUST_CONTAIN_A_FIXED_PRICING_POLICY',
    ],
    [
      'duplicate plan names',
      { name: 'x', sellingPlansToCreate: [monthly('a'), monthly('a')] },
      'SELLING_PLAN_DUPLICATE_NAME',
    ],
  ])('refuses %s', async (_label, input, code) => {
    const groups = shop().sellingPlanGroups.length
    const data = await gql(emulator, m.sellingPlanGroupCreate, { input })
    expect(data.sellingPlanGroupCreate).toMatchObject({ sellingPlanGroup: null, userErrors: [{ code }] })
    expect(shop().sellingPlanGroups.length).toBe(groups)
  })

  it('refuses unknown groups, products and plans', async () => {
    const missing = toGid('SellingPlanGroup', 1)
    expect(
      (await gql(emulator, m.sellingPlanGroupDelete, { id: missing })).sellingPlanGroupDelete.userErrors[0]
        .code,
    ).toBe('GROUP_DOES_NOT_EXIST')
    const g = shop().sellingPlanGroups[0]!
    const gid = toGid('SellingPlanGroup', g.id)
    const badProduct = await gql(emulator, m.sellingPlanGroupAddProducts, {
      id: gid,
      productIds: [toGid('Product', 1)],
    })
    expect(badProduct.sellingPlanGroupAddProducts.userErrors[0].code).toBe('PRODUCT_DOES_NOT_EXIST')
    const badVariant = await gql(emulator, m.sellingPlanGroupAddProductVariants, {
      id: gid,
      ids: [toGid('ProductVariant', 1)],
    })
    expect(badVariant.sellingPlanGroupAddProductVariants.userErrors[0].code).toBe(
      'PRODUCT_VARIANT_DOES_NOT_EXIST',
    )
    const badPlan = await gql(emulator, m.sellingPlanGroupUpdate, {
      id: gid,
      input: { sellingPlansToUpdate: [{ id: toGid('SellingPlan', 1), name: 'z' }] },
    })
    expect(badPlan.sellingPlanGroupUpdate.userErrors[0].code).toBe('PLAN_DOES_NOT_EXIST')
  })
})
