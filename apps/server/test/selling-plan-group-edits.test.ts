import { ZGroupVariants, ZSellingPlanGroupDetail, ZSellingPlanGroupSummary } from '@teiki/contract'
import { describe, expect, it } from 'vitest'
import { toGid } from '../src/platform/gid.ts'
import {
  call,
  callsSince,
  expectError,
  mutationsSince,
  plan,
  unchanged,
  usePlanShops,
} from './support/selling-plans.ts'

// Editing a group (issue 13 item 1): its plans in one update, its products and variants through
// the platform's group mutations (variants 100 at a time), and re-reading it into the mirror.

const env = usePlanShops('plan-edits')

const platform = (domain = env.main) => env.emulator.store.shop(domain)!
const platformGroup = (id: string) => platform().sellingPlanGroups.find((g) => String(g.id) === id)

async function createGroup(name: string) {
  const res = await call(env, 'POST', '/selling-plan-groups', {
    name,
    plans: [
      plan('毎月'),
      plan('隔月', {
        intervalCount: 2,
        discountType: 'fixedDiscount',
        valueType: 'PERCENTAGE',
        initialValue: 5,
      }),
      plan('回数割', {
        discountType: 'recurringMultiDiscount',
        valueType: 'FIXED_AMOUNT',
        cycleDiscounts: [{ cycle: 2, value: 100 }],
      }),
    ],
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return ZSellingPlanGroupSummary.parse(res.body)
}

const otherGroupId = () => String(platform(env.other).sellingPlanGroups[0]!.id)

describe('PUT /selling-plan-groups/:id', () => {
  it('updates, creates and deletes plans in one sellingPlanGroupUpdate; rules follow the plans', async () => {
    const group = await createGroup('編集前')
    const [monthly, bimonthly, multi] = group.plans
    const from = env.emulator.callLog.length
    const res = await call(env, 'PUT', `/selling-plan-groups/${group.id}`, {
      name: '編集後',
      merchantCode: 'edited',
      option: 'お届け間隔',
      plans: [
        plan('毎月（改）', {
          id: monthly!.id,
          minCycles: 3,
          anchors: [{ type: 'MONTHDAY', day: 25 }],
          cutoff: 3,
        }),
        // The multi plan becomes a plain fixed discount: its rules go.
        plan('回数割', {
          id: multi!.id,
          discountType: 'fixedDiscount',
          valueType: 'FIXED_AMOUNT',
          initialValue: 99.5,
        }),
        plan('毎週', {
          interval: 'WEEK',
          discountType: 'recurringMultiDiscount',
          valueType: 'PERCENTAGE',
          cycleDiscounts: [{ cycle: 3, value: 15 }],
        }),
      ],
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(mutationsSince(env.emulator, from, env.main)).toEqual(['sellingPlanGroupUpdate'])
    const sent = callsSince(env.emulator, from, env.main).find((c) =>
      c.rootFields.includes('sellingPlanGroupUpdate'),
    )!
    const input = sent.variables.input as Record<string, unknown[]>
    expect(input.sellingPlansToDelete).toEqual([toGid('SellingPlan', bimonthly!.id)])
    expect(input.sellingPlansToUpdate!.map((p) => (p as { id: string }).id)).toEqual([
      toGid('SellingPlan', monthly!.id),
      toGid('SellingPlan', multi!.id),
    ])
    expect(input.sellingPlansToCreate).toHaveLength(1)
    const updated = ZSellingPlanGroupSummary.parse(res.body)
    expect(updated).toMatchObject({ name: '編集後', merchantCode: 'edited' })
    expect(updated.plans.map((p) => [p.name, p.discountType])).toEqual([
      ['毎月（改）', 'noDiscount'],
      ['回数割', 'fixedDiscount'],
      ['毎週', 'recurringMultiDiscount'],
    ])
    const onPlatform = platformGroup(group.id)!
    expect(onPlatform.options).toEqual(['お届け間隔'])
    expect(onPlatform.sellingPlans[0]!.billingPolicy).toMatchObject({
      minCycles: 3,
      anchors: [{ type: 'MONTHDAY', day: 25, month: null, cutoffDay: null }],
    })
    expect(onPlatform.sellingPlans[0]!.deliveryPolicy).toMatchObject({ cutoff: 3 })
    expect(onPlatform.sellingPlans[1]!.pricingPolicies[0]!.adjustmentValue).toMatchObject({ amount: '100.0' })
    const rules = async (planId: string) =>
      (await call(env, 'GET', `/selling-plans/${planId}/custom-cycle-discounts`)).body
    expect(await rules(multi!.id)).toMatchObject({ adjustmentType: null, cycleDiscounts: [] })
    expect(await rules(updated.plans[2]!.id)).toMatchObject({ cycleDiscounts: [{ cycle: 3, value: '15' }] })
    // The deleted plan is gone from the mirror too.
    expectError(
      await call(env, 'GET', `/selling-plans/${bimonthly!.id}/selling-plan-group-id`),
      404,
      'プランが見つかりません',
    )
  })

  it('refuses another group’s plan id (400), another shop’s group (404) and bad plans (400) without writing', async () => {
    const group = await createGroup('他のプラン')
    const another = await createGroup('別グループ')
    await unchanged(env, async () => {
      const foreignPlan = plan('x', { id: another.plans[0]!.id })
      expectError(
        await call(env, 'PUT', `/selling-plan-groups/${group.id}`, { name: 'x', plans: [foreignPlan] }),
        400,
        /この販売プランのプランではありません/,
      )
      expectError(
        await call(env, 'PUT', `/selling-plan-groups/${otherGroupId()}`, { name: 'x', plans: [plan('x')] }),
        404,
        '販売プランが見つかりません',
      )
      expectError(
        await call(env, 'PUT', `/selling-plan-groups/${group.id}`, {
          name: 'x',
          plans: [plan('x', { minCycles: null })],
        }),
        400,
        /最低継続回数を入力してください/,
      )
    })
  })

  it('answers 422 with the platform’s words when the update is refused, and writes nothing', async () => {
    const group = await createGroup('拒否')
    env.emulator.faults.failMutation('sellingPlanGroupUpdate', {
      code: 'BLANK',
      field: ['input', 'name'],
      message: "Name can't be blank",
    })
    const res = await unchanged(
      env,
      () =>
        call(env, 'PUT', `/selling-plan-groups/${group.id}`, {
          name: '変更',
          plans: [plan('毎月', { id: group.plans[0]!.id })],
        }),
      ['sellingPlanGroupUpdate'],
    )
    expectError(res, 422, /Shopify が販売プランの保存を受け付けませんでした.*\n詳細: Name can't be blank/s)
  })
})

describe('POST /selling-plan-groups/:id/products and GET …/variants', () => {
  it('adds products and 130 variants (two calls of 100 and 30), removes them, and mirrors the counts', async () => {
    const group = await createGroup('商品追加')
    const box = platform().products.find((p) => p.handle === 'yoridori-tanpin')!
    expect(box.variantIds.length).toBe(130)
    const products = platform()
      .products.filter((p) => p.id !== box.id)
      .slice(0, 2)
    const from = env.emulator.callLog.length
    const res = await call(env, 'POST', `/selling-plan-groups/${group.id}/products`, {
      addProductIds: products.map((p) => String(p.id)),
      addVariantIds: box.variantIds.map((id) => toGid('ProductVariant', id)),
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const calls = callsSince(env.emulator, from, env.main).filter((c) =>
      c.rootFields[0]!.startsWith('sellingPlanGroupAdd'),
    )
    expect(calls.map((c) => [c.rootFields[0], (c.variables.ids as string[]).length])).toEqual([
      ['sellingPlanGroupAddProducts', 2],
      ['sellingPlanGroupAddProductVariants', 100],
      ['sellingPlanGroupAddProductVariants', 30],
    ])
    const variantsOfProducts = products.reduce((n, p) => n + p.variantIds.length, 0)
    expect(ZSellingPlanGroupSummary.parse(res.body)).toMatchObject({
      productsCount: 2,
      productVariantsCount: variantsOfProducts + 130,
    })
    // Variants, 100 a page.
    const first = ZGroupVariants.parse(
      (await call(env, 'GET', `/selling-plan-groups/${group.id}/variants`)).body,
    )
    expect(first.variants).toHaveLength(100)
    expect(first.hasNextPage).toBe(true)
    const second = ZGroupVariants.parse(
      (
        await call(
          env,
          'GET',
          `/selling-plan-groups/${group.id}/variants?after=${encodeURIComponent(first.endCursor!)}`,
        )
      ).body,
    )
    expect(second.variants).toHaveLength(variantsOfProducts + 30)
    expect(second.hasNextPage).toBe(false)
    // The detail shows the products.
    const detail = ZSellingPlanGroupDetail.parse(
      (await call(env, 'GET', `/selling-plan-groups/${group.id}`)).body,
    )
    expect(detail.products.map((p) => p.title).sort()).toEqual(products.map((p) => p.title).sort())

    const removed = await call(env, 'POST', `/selling-plan-groups/${group.id}/products`, {
      removeProductIds: [String(products[0]!.id)],
      removeVariantIds: box.variantIds.slice(0, 100).map(String),
    })
    expect(ZSellingPlanGroupSummary.parse(removed.body)).toMatchObject({
      productsCount: 1,
      productVariantsCount: products[1]!.variantIds.length + 30,
    })
  })

  it('a refused call answers 422; what the calls before it did is still mirrored', async () => {
    const group = await createGroup('一部失敗')
    const product = platform().products[0]!
    env.emulator.faults.failMutation('sellingPlanGroupAddProductVariants', {
      message: 'Variant limit reached',
    })
    const res = await call(env, 'POST', `/selling-plan-groups/${group.id}/products`, {
      addProductIds: [String(product.id)],
      addVariantIds: [String(platform().products[1]!.variantIds[0])],
    })
    expectError(res, 422, /詳細: Variant limit reached/)
    const { rows } = await env.pool.query(
      'select products_count from selling_plan_groups where shop_id = $1 and id = $2',
      [env.shopIds[env.main], group.id],
    )
    expect(rows[0]).toEqual({ products_count: 1 })
  })

  it('refuses an empty change (400), another shop’s group (404) and another shop’s product (422), writing nothing', async () => {
    const group = await createGroup('商品拒否')
    await unchanged(env, async () => {
      expectError(
        await call(env, 'POST', `/selling-plan-groups/${group.id}/products`, {}),
        400,
        /追加または削除する商品を指定してください/,
      )
      expectError(
        await call(env, 'POST', `/selling-plan-groups/${otherGroupId()}/products`, {
          addProductIds: [String(platform().products[0]!.id)],
        }),
        404,
        '販売プランが見つかりません',
      )
      expectError(
        await call(env, 'GET', `/selling-plan-groups/${otherGroupId()}/variants`),
        404,
        '販売プランが見つかりません',
      )
    })
    const foreign = String(platform(env.other).products[0]!.id)
    await unchanged(
      env,
      async () =>
        expectError(
          await call(env, 'POST', `/selling-plan-groups/${group.id}/products`, { addProductIds: [foreign] }),
          422,
          /does not exist/,
        ),
      ['sellingPlanGroupAddProducts'],
    )
  })
})

describe('PUT /selling-plan-groups/:id/sync', () => {
  it('re-reads a group changed on the platform (no webhook) into the mirror; a deleted one leaves it (404)', async () => {
    const group = await createGroup('同期')
    const onPlatform = platformGroup(group.id)!
    onPlatform.name = '管理画面で変更'
    onPlatform.sellingPlans = onPlatform.sellingPlans.slice(0, 1)
    const from = env.emulator.callLog.length
    const res = await call(env, 'PUT', `/selling-plan-groups/${group.id}/sync`)
    expect(res.status).toBe(200)
    expect(mutationsSince(env.emulator, from, env.main)).toEqual([])
    expect(ZSellingPlanGroupSummary.parse(res.body)).toMatchObject({
      name: '管理画面で変更',
      plans: [{ id: group.plans[0]!.id }],
    })
    // The removed multi plan's rules went with it.
    const { rows } = await env.pool.query(
      'select count(*)::int as n from selling_plan_cycle_discounts where shop_id = $1 and selling_plan_id = $2',
      [env.shopIds[env.main], group.plans[2]!.id],
    )
    expect(rows[0].n).toBe(0)

    platform().sellingPlanGroups = platform().sellingPlanGroups.filter((g) => g !== onPlatform)
    expectError(
      await call(env, 'PUT', `/selling-plan-groups/${group.id}/sync`),
      404,
      '販売プランが見つかりません',
    )
    const gone = await env.pool.query('select 1 from selling_plan_groups where shop_id = $1 and id = $2', [
      env.shopIds[env.main],
      group.id,
    ])
    expect(gone.rowCount).toBe(0)
  })

  it('another shop’s group is not found with this shop’s token: 404, nothing written for either shop', async () => {
    await unchanged(env, async () => {
      expectError(
        await call(env, 'PUT', `/selling-plan-groups/${otherGroupId()}/sync`),
        404,
        '販売プランが見つかりません',
      )
    })
  })
})
