import {
  ZSellingPlanGroupDetail,
  ZSellingPlanGroupList,
  ZSellingPlanGroupSummary,
  ZSellingPlanList,
} from '@teiki/contract'
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

// Selling plan groups (issue 13 item 1): list, plans, detail, create, update, delete, against
// the emulator. Every refusal is checked to write nothing on the platform or in the mirror.

const env = usePlanShops('plans')

const platform = (domain = env.main) => env.emulator.store.shop(domain)!
const otherGroupId = () => String(platform(env.other).sellingPlanGroups[0]!.id)

const fourPlans = [
  plan('毎月お届け'),
  plan('毎月10%オフ', { discountType: 'fixedDiscount', valueType: 'PERCENTAGE', initialValue: 10 }),
  plan('初回500円引き', {
    discountType: 'recurringDiscount',
    valueType: 'FIXED_AMOUNT',
    initialValue: 500.4,
    laterValue: 200.5,
    afterCycle: 1,
  }),
  plan('回数割', {
    discountType: 'recurringMultiDiscount',
    valueType: 'PERCENTAGE',
    cycleDiscounts: [
      { cycle: 1, value: 30 },
      { cycle: 2, value: 20 },
      { cycle: 4, value: 10 },
    ],
  }),
]

async function createGroup(name: string, plans = fourPlans, productIds: string[] = []) {
  const res = await call(env, 'POST', '/selling-plan-groups', { name, plans, productIds })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return ZSellingPlanGroupSummary.parse(res.body)
}

describe('POST /selling-plan-groups', () => {
  it('creates a group with every discount type: one mutation, whole yen sent, mirror and rules written', async () => {
    const product = platform().products[0]!
    const from = env.emulator.callLog.length
    const group = await createGroup('定期便テスト', fourPlans, [String(product.id)])
    expect(mutationsSince(env.emulator, from, env.main)).toEqual(['sellingPlanGroupCreate'])
    const sent = callsSince(env.emulator, from, env.main).find((c) =>
      c.rootFields.includes('sellingPlanGroupCreate'),
    )!
    const input = sent.variables.input as { sellingPlansToCreate: Array<{ pricingPolicies: unknown[] }> }
    // JPY fixed values become whole yen before they are sent (spec §5): 500.4 → 500, 200.5 → 201.
    expect(input.sellingPlansToCreate[2]!.pricingPolicies).toEqual([
      { fixed: { adjustmentType: 'FIXED_AMOUNT', adjustmentValue: { fixedValue: '500' } } },
      {
        recurring: { adjustmentType: 'FIXED_AMOUNT', adjustmentValue: { fixedValue: '201' }, afterCycle: 1 },
      },
    ])
    // Recurring multi: the platform gets its cycle-1 rule only.
    expect(input.sellingPlansToCreate[3]!.pricingPolicies).toEqual([
      { fixed: { adjustmentType: 'PERCENTAGE', adjustmentValue: { percentage: 30 } } },
    ])
    expect(sent.variables.resources).toEqual({
      productIds: [toGid('Product', product.id)],
      productVariantIds: [],
    })
    expect(group).toMatchObject({ name: '定期便テスト', merchantCode: '定期便テスト', productsCount: 1 })
    expect(group.plans.map((p) => p.discountType)).toEqual([
      'noDiscount',
      'fixedDiscount',
      'recurringDiscount',
      'recurringMultiDiscount',
    ])
    const onPlatform = platform().sellingPlanGroups.find((g) => String(g.id) === group.id)!
    expect(onPlatform.sellingPlans.map((p) => p.name)).toEqual(fourPlans.map((p) => p.name))
    const multiId = group.plans[3]!.id
    const rules = await call(env, 'GET', `/selling-plans/${multiId}/custom-cycle-discounts`)
    expect(rules.body).toEqual({
      sellingPlanId: multiId,
      adjustmentType: 'PERCENTAGE',
      cycleDiscounts: [
        { cycle: 1, value: '30' },
        { cycle: 2, value: '20' },
        { cycle: 4, value: '10' },
      ],
    })
  })

  it.each([
    ['minCycles 0', plan('x', { minCycles: 0 }), /プラン1「x」: 最低継続回数は1以上で入力してください/],
    ['intervalCount missing', plan('x', { intervalCount: null }), /お届け間隔を入力してください/],
    ['no name', plan('x', { name: '' }), /プラン1: プラン名を入力してください/],
    ['no discount type', plan('x', { discountType: null }), /割引の種類を選んでください/],
    [
      'a fixed discount without value type',
      plan('x', { discountType: 'fixedDiscount', initialValue: 5 }),
      /割引の単位（％オフ・円引きなど）を選んでください/,
    ],
    [
      'a recurring discount switching after cycle 0',
      plan('x', {
        discountType: 'recurringDiscount',
        valueType: 'PERCENTAGE',
        initialValue: 5,
        laterValue: 3,
        afterCycle: 0,
      }),
      /割引を切り替える回数は1以上で入力してください/,
    ],
    [
      'a multi discount with a duplicate cycle',
      plan('x', {
        discountType: 'recurringMultiDiscount',
        valueType: 'PERCENTAGE',
        cycleDiscounts: [
          { cycle: 2, value: 5 },
          { cycle: 2, value: 6 },
        ],
      }),
      /2回目の割引が重複しています/,
    ],
  ])('refuses %s (400, Japanese, nothing written)', async (_name, bad, message) => {
    const res = await unchanged(env, () =>
      call(env, 'POST', '/selling-plan-groups', { name: '不正', plans: [bad] }),
    )
    expectError(res, 400, message)
  })

  it('refuses a shape the edge catches: no plans, text with a NUL, another shop’s product', async () => {
    expectError(
      await unchanged(env, () => call(env, 'POST', '/selling-plan-groups', { name: 'x', plans: [] })),
      400,
      /プランを1件以上追加してください/,
    )
    expectError(
      await unchanged(env, () =>
        call(env, 'POST', '/selling-plan-groups', { name: 'a\u0000b', plans: [plan('x')] }),
      ),
      400,
      /販売プラン名に使用できない制御文字/,
    )
    // Another shop's product: the platform answers for this shop's token, does not know it.
    const foreign = String(platform(env.other).products[0]!.id)
    const res = await unchanged(
      env,
      () =>
        call(env, 'POST', '/selling-plan-groups', { name: 'x', plans: [plan('x')], productIds: [foreign] }),
      ['sellingPlanGroupCreate'],
    )
    expectError(res, 422, /Shopify が販売プランの作成を受け付けませんでした/)
  })

  it('answers 422 with the platform’s message when it refuses (userErrors), and writes nothing', async () => {
    env.emulator.faults.failMutation('sellingPlanGroupCreate', {
      code: 'SELLING_PLAN_COUNT_UPPER_BOUND',
      field: ['input', 'sellingPlansToCreate'],
      message: 'Too many selling plans',
    })
    const res = await unchanged(
      env,
      () => call(env, 'POST', '/selling-plan-groups', { name: 'x', plans: [plan('x')] }),
      ['sellingPlanGroupCreate'],
    )
    const error = expectError(res, 422, /Shopify が販売プランの作成を受け付けませんでした/)
    expect(error.message).toContain('詳細: Too many selling plans')
  })

  it('answers 422 for what only the platform judges (interval count 0 passes spec §5)', async () => {
    const res = await unchanged(
      env,
      () =>
        call(env, 'POST', '/selling-plan-groups', {
          name: '間隔0',
          plans: [plan('x', { intervalCount: 0 })],
        }),
      ['sellingPlanGroupCreate'],
    )
    expectError(res, 422, /Interval count must be greater than 0/)
  })
})

describe('GET /subscriptions/sellingPlanGroups', () => {
  it('lists 10 a page, newest first, with counts and total; searches by name; never another shop’s', async () => {
    for (let i = 1; i <= 11; i++) await createGroup(`一覧テスト${String(i).padStart(2, '0')}`, [plan('毎月')])
    const first = ZSellingPlanGroupList.parse(
      (await call(env, 'GET', '/subscriptions/sellingPlanGroups')).body,
    )
    expect(first.pageSize).toBe(10)
    expect(first.groups).toHaveLength(10)
    const total = first.total
    expect(total).toBe(
      (
        await env.pool.query('select count(*)::int as n from selling_plan_groups where shop_id = $1', [
          env.shopIds[env.main],
        ])
      ).rows[0].n,
    )
    const names = first.groups.map((g) => g.name)
    expect(names.slice(0, 3)).toEqual(['一覧テスト11', '一覧テスト10', '一覧テスト09'])
    const last = ZSellingPlanGroupList.parse(
      (await call(env, 'GET', `/subscriptions/sellingPlanGroups?page=${Math.ceil(total / 10)}`)).body,
    )
    expect(last.groups.length).toBe(total - (Math.ceil(total / 10) - 1) * 10)
    const found = ZSellingPlanGroupList.parse(
      (await call(env, 'GET', `/subscriptions/sellingPlanGroups?query=${encodeURIComponent('テスト0')}`))
        .body,
    )
    expect(found.total).toBe(9)
    expect(found.groups.every((g) => g.name.includes('テスト0'))).toBe(true)
    const generated = platform().sellingPlanGroups.find((g) => g.merchantCode === 'monthly')!
    const row = ZSellingPlanGroupList.parse(
      (await call(env, 'GET', `/subscriptions/sellingPlanGroups?query=${encodeURIComponent(generated.name)}`))
        .body,
    ).groups.find((g) => g.id === String(generated.id))!
    expect(row.productsCount).toBe(generated.productIds.length)
    expect(row.productVariantsCount).toBeGreaterThanOrEqual(generated.productIds.length)
    const otherIds = platform(env.other).sellingPlanGroups.map((g) => String(g.id))
    for (const g of first.groups) expect(otherIds).not.toContain(g.id)
  })

  it('refuses a bad page (400)', async () => {
    expectError(await call(env, 'GET', '/subscriptions/sellingPlanGroups?page=0'), 400, /ページは1以上/)
  })
})

describe('plans, detail, delete', () => {
  it('GET …/sellingPlans answers the mirror’s plans with their discount type; 404 for another shop’s group', async () => {
    const group = await createGroup('プラン一覧', fourPlans)
    const res = ZSellingPlanList.parse(
      (await call(env, 'GET', `/subscriptions/sellingPlanGroups/${group.id}/sellingPlans`)).body,
    )
    expect(res.plans.map((p) => [p.name, p.discountType])).toEqual([
      ['毎月お届け', 'noDiscount'],
      ['毎月10%オフ', 'fixedDiscount'],
      ['初回500円引き', 'recurringDiscount'],
      ['回数割', 'recurringMultiDiscount'],
    ])
    expect(res.plans[2]).toMatchObject({
      valueType: 'FIXED_AMOUNT',
      initialValue: 500,
      laterValue: 201,
      afterCycle: 1,
    })
    expect(res.plans[3]!.cycleDiscounts).toEqual([
      { cycle: 1, value: 30 },
      { cycle: 2, value: 20 },
      { cycle: 4, value: 10 },
    ])
    await unchanged(env, async () => {
      expectError(
        await call(env, 'GET', `/subscriptions/sellingPlanGroups/${otherGroupId()}/sellingPlans`),
        404,
        '販売プランが見つかりません',
      )
      expectError(
        await call(env, 'GET', `/selling-plan-groups/${otherGroupId()}`),
        404,
        '販売プランが見つかりません',
      )
      expectError(
        await call(env, 'GET', '/selling-plan-groups/abc'),
        400,
        /販売プランIDは数字で指定してください/,
      )
    })
  })

  it('GET /selling-plan-groups/:id reads the group live, with its first 30 products and the plans as the editor shows them', async () => {
    const products = platform()
      .products.slice(0, 2)
      .map((p) => String(p.id))
    const group = await createGroup('詳細', fourPlans, products)
    const from = env.emulator.callLog.length
    const detail = ZSellingPlanGroupDetail.parse(
      (await call(env, 'GET', `/selling-plan-groups/${group.id}`)).body,
    )
    expect(callsSince(env.emulator, from, env.main).map((c) => c.operationName)).toEqual([
      'SellingPlanGroupDetail',
    ])
    expect(detail).toMatchObject({
      name: '詳細',
      option: 'お届け頻度',
      currencyCode: 'JPY',
      productsCount: 2,
    })
    expect(detail.products.map((p) => p.id)).toEqual(products.sort())
    expect(detail.products[0]!.imageUrl).toMatch(/\/cdn\/products\/.+\.svg$/)
    expect(detail.plans.map((p) => p.discountType)).toEqual(group.plans.map((p) => p.discountType))
  })

  it('DELETE removes the group on the platform and from the mirror, with its rules; 404 and 422 write nothing', async () => {
    const group = await createGroup('削除', fourPlans)
    await unchanged(env, async () => {
      expectError(
        await call(env, 'DELETE', `/selling-plan-groups/${otherGroupId()}`),
        404,
        '販売プランが見つかりません',
      )
    })
    env.emulator.faults.failMutation('sellingPlanGroupDelete', {
      code: 'GROUP_DOES_NOT_EXIST',
      message: 'Nope',
    })
    await unchanged(env, async () => {
      expectError(await call(env, 'DELETE', `/selling-plan-groups/${group.id}`), 422, /詳細: Nope/)
    }, ['sellingPlanGroupDelete'])
    const from = env.emulator.callLog.length
    expect((await call(env, 'DELETE', `/selling-plan-groups/${group.id}`)).status).toBe(204)
    expect(mutationsSince(env.emulator, from, env.main)).toEqual(['sellingPlanGroupDelete'])
    expect(platform().sellingPlanGroups.some((g) => String(g.id) === group.id)).toBe(false)
    const { rows } = await env.pool.query(
      `select (select count(*)::int from selling_plan_groups where shop_id = $1 and id = $2) as groups,
              (select count(*)::int from selling_plan_cycle_discounts where shop_id = $1 and selling_plan_id = $3) as rules`,
      [env.shopIds[env.main], group.id, group.plans[3]!.id],
    )
    expect(rows[0]).toEqual({ groups: 0, rules: 0 })
  })
})
