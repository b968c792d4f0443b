import { ZCustomCycleDiscounts, ZFreeShippingExist, ZParentVariant, ZProductList } from '@teiki/contract'
import { beforeAll, describe, expect, it } from 'vitest'
import { appMetafields } from '../../../packages/shopify-emulator/src/storefront/product-page.ts'
import { setShopFlag } from '../src/features/shop-flags/service.ts'
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

// Spec §7 "Selling plans" paths besides the groups themselves: custom cycle discounts, a plan's
// group, parent variants (per-shop flag), free shipping (delivery profiles), and the product
// picker's list.

const env = usePlanShops('plan-extras')
let groupId: string
let planId: string
beforeAll(async () => {
  const res = await call(env, 'POST', '/selling-plan-groups', { name: '付帯テスト', plans: [plan('毎月')] })
  groupId = (res.body as { id: string }).id
  planId = (res.body as { plans: Array<{ id: string }> }).plans[0]!.id
})

const platform = (domain = env.main) => env.emulator.store.shop(domain)!
/** The storefront's copy of the plans' custom cycle discounts (teiki.plan_prices, ADR 0026). */
const publishedPlans = () =>
  (appMetafields(platform()).teiki?.plan_prices?.value as { plans: object } | undefined)?.plans
const otherGroup = () => platform(env.other).sellingPlanGroups[0]!
const otherPlanId = () => String(otherGroup().sellingPlans[0]!.id)

describe('custom cycle discounts', () => {
  it('PUT replaces, GET answers, DELETE …-all removes; amounts are whole yen; the storefront’s copy follows', async () => {
    const from = env.emulator.callLog.length
    const put = await call(env, 'PUT', `/selling-plans/${planId}/custom-cycle-discounts`, {
      adjustmentType: 'FIXED_AMOUNT',
      cycleDiscounts: [
        { cycle: 3, value: 150.5 },
        { cycle: 1, value: 300 },
      ],
    })
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    expect(ZCustomCycleDiscounts.parse(put.body)).toEqual({
      sellingPlanId: planId,
      adjustmentType: 'FIXED_AMOUNT',
      cycleDiscounts: [
        { cycle: 1, value: '300' },
        { cycle: 3, value: '151' },
      ],
    })
    expect((await call(env, 'GET', `/selling-plans/${planId}/custom-cycle-discounts`)).body).toEqual(put.body)
    // The storefront's block prices the plan from the app-data metafield (ADR 0026).
    expect(publishedPlans()).toEqual({
      [planId]: [
        { from: 1, to: 2, kind: 'off', subunits: 30000 },
        { from: 3, to: 0, kind: 'off', subunits: 15100 },
      ],
    })
    // The plan now reads as recurring multi.
    const plans = await call(env, 'GET', `/subscriptions/sellingPlanGroups/${groupId}/sellingPlans`)
    expect((plans.body as { plans: Array<{ discountType: string }> }).plans[0]!.discountType).toBe(
      'recurringMultiDiscount',
    )
    expect((await call(env, 'DELETE', `/selling-plans/${planId}/custom-cycle-discounts-all`)).status).toBe(
      204,
    )
    expect((await call(env, 'GET', `/selling-plans/${planId}/custom-cycle-discounts`)).body).toEqual({
      sellingPlanId: planId,
      adjustmentType: null,
      cycleDiscounts: [],
    })
    expect(publishedPlans()).toEqual({})
    // The only platform calls: the metafield written after the PUT and after the DELETE.
    expect(mutationsSince(env.emulator, from, env.main)).toEqual([])
    expect(callsSince(env.emulator, from, env.main).flatMap((c) => c.rootFields)).toEqual([
      'currentAppInstallation',
      'metafieldsSet',
      'currentAppInstallation',
      'metafieldsSet',
    ])
  })

  it('says in Japanese when the rules are saved but the storefront’s copy is refused (422); saving again publishes', async () => {
    env.emulator.faults.failMutation('metafieldsSet', { message: 'Value is too big.' })
    const body = { adjustmentType: 'PERCENTAGE', cycleDiscounts: [{ cycle: 2, value: 15 }] }
    const put = await call(env, 'PUT', `/selling-plans/${planId}/custom-cycle-discounts`, body)
    expectError(put, 422, /回数ごとの割引は保存しましたが、ストアの商品ページへの反映に失敗しました/)
    expect((await call(env, 'GET', `/selling-plans/${planId}/custom-cycle-discounts`)).body).toMatchObject({
      cycleDiscounts: [{ cycle: 2, value: '15' }],
    })
    env.emulator.faults.reset()
    expect((await call(env, 'PUT', `/selling-plans/${planId}/custom-cycle-discounts`, body)).status).toBe(200)
    expect(Object.keys(publishedPlans() ?? {})).toEqual([planId])
    expect((await call(env, 'DELETE', `/selling-plans/${planId}/custom-cycle-discounts-all`)).status).toBe(
      204,
    )
  })

  it.each([
    [
      'a percentage over 100',
      { adjustmentType: 'PERCENTAGE', cycleDiscounts: [{ cycle: 1, value: 101 }] },
      /100％以下/,
    ],
    [
      'cycle 0',
      { adjustmentType: 'PERCENTAGE', cycleDiscounts: [{ cycle: 0, value: 1 }] },
      /回数は1以上の整数/,
    ],
    ['no rule', { adjustmentType: 'PERCENTAGE', cycleDiscounts: [] }, /1件以上入力/],
    ['a negative value', { adjustmentType: 'PRICE', cycleDiscounts: [{ cycle: 2, value: -1 }] }, /0以上/],
    [
      'an unknown type',
      { adjustmentType: 'HALF', cycleDiscounts: [{ cycle: 2, value: 1 }] },
      /割引の単位が正しくありません/,
    ],
  ])('refuses %s (400, nothing written)', async (_name, body, message) => {
    expectError(
      await unchanged(env, () => call(env, 'PUT', `/selling-plans/${planId}/custom-cycle-discounts`, body)),
      400,
      message,
    )
  })

  it('another shop’s plan is not found on every path (404), and nothing is written', async () => {
    await unchanged(env, async () => {
      const body = { adjustmentType: 'PERCENTAGE', cycleDiscounts: [{ cycle: 1, value: 5 }] }
      expectError(
        await call(env, 'PUT', `/selling-plans/${otherPlanId()}/custom-cycle-discounts`, body),
        404,
        'プランが見つかりません',
      )
      expectError(
        await call(env, 'GET', `/selling-plans/${otherPlanId()}/custom-cycle-discounts`),
        404,
        'プランが見つかりません',
      )
      expectError(
        await call(env, 'DELETE', `/selling-plans/${otherPlanId()}/custom-cycle-discounts-all`),
        404,
        'プランが見つかりません',
      )
      expectError(
        await call(env, 'GET', `/selling-plans/${otherPlanId()}/selling-plan-group-id`),
        404,
        'プランが見つかりません',
      )
    })
  })
})

describe('GET /selling-plans/:id/selling-plan-group-id', () => {
  it('answers the plan’s group from the mirror; 400 for a bad id', async () => {
    expect((await call(env, 'GET', `/selling-plans/${planId}/selling-plan-group-id`)).body).toEqual({
      sellingPlanId: planId,
      sellingPlanGroupId: groupId,
    })
    expectError(await call(env, 'GET', '/selling-plans/0/selling-plan-group-id'), 400, /プランIDは1〜/)
  })
})

describe('parent variants (the parent_products flag)', () => {
  const variant = () => String(platform().variants[0]!.id)
  const parent = () => String(platform().variants[1]!.id)

  it('is 403 with a Japanese message while the flag is off, for GET and PUT, writing nothing', async () => {
    await unchanged(env, async () => {
      expectError(
        await call(env, 'GET', `/selling-plan-groups/${groupId}/variants/0/parent`),
        403,
        /親商品の設定は利用できません/,
      )
      expectError(
        await call(env, 'PUT', `/selling-plan-groups/${groupId}/variants/0/parent`, {
          parentVariantId: parent(),
        }),
        403,
        /親商品の設定は利用できません/,
      )
    })
  })

  it('with the flag on: sets and reads the group’s parent (0) and a variant’s, clears with null', async () => {
    await setShopFlag(env.pool, env.shopIds[env.main]!, 'parent_products', true)
    const put = await call(env, 'PUT', `/selling-plan-groups/${groupId}/variants/0/parent`, {
      parentVariantId: toGid('ProductVariant', parent()),
    })
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    expect(ZParentVariant.parse(put.body)).toMatchObject({
      sellingPlanGroupId: groupId,
      variantId: '0',
      parentVariantId: parent(),
      parent: { id: parent() },
    })
    await call(env, 'PUT', `/selling-plan-groups/${groupId}/variants/${variant()}/parent`, {
      parentVariantId: parent(),
    })
    expect(
      (await call(env, 'GET', `/selling-plan-groups/${groupId}/variants/${variant()}/parent`)).body,
    ).toMatchObject({
      variantId: variant(),
      parentVariantId: parent(),
    })
    const cleared = await call(env, 'PUT', `/selling-plan-groups/${groupId}/variants/0/parent`, {
      parentVariantId: null,
    })
    expect(cleared.body).toMatchObject({ parentVariantId: null, parent: null })
    expect((await call(env, 'GET', `/selling-plan-groups/${groupId}/variants/0/parent`)).body).toMatchObject({
      parentVariantId: null,
    })
  })

  it('with the flag on: 404 for another shop’s group or variant, 400 for a variant as its own parent', async () => {
    await setShopFlag(env.pool, env.shopIds[env.main]!, 'parent_products', true)
    const foreignVariant = String(platform(env.other).variants[0]!.id)
    await unchanged(env, async () => {
      expectError(
        await call(env, 'GET', `/selling-plan-groups/${otherGroup().id}/variants/0/parent`),
        404,
        '販売プランが見つかりません',
      )
      expectError(
        await call(env, 'GET', `/selling-plan-groups/${groupId}/variants/${foreignVariant}/parent`),
        404,
        /商品バリエーションが見つかりません/,
      )
      expectError(
        await call(env, 'PUT', `/selling-plan-groups/${groupId}/variants/0/parent`, {
          parentVariantId: foreignVariant,
        }),
        404,
        /親商品のバリエーションが見つかりません/,
      )
      expectError(
        await call(env, 'PUT', `/selling-plan-groups/${groupId}/variants/${variant()}/parent`, {
          parentVariantId: variant(),
        }),
        400,
        /別のバリエーション/,
      )
      expectError(
        await call(env, 'GET', `/selling-plan-groups/${groupId}/variants/x/parent`),
        400,
        /数字で指定/,
      )
    })
  })
})

describe('free shipping (delivery profiles)', () => {
  it('exist says none; update free=true creates the ¥0 profile holding the group; false takes it out', async () => {
    const before = ZFreeShippingExist.parse(
      (await call(env, 'GET', `/free-shipping-profile/exist?sellingPlanGroupId=${groupId}`)).body,
    )
    expect(before).toEqual({ exists: false, profileId: null, free: false })
    const from = env.emulator.callLog.length
    const on = await call(env, 'GET', `/free-shipping-profile/update?sellingPlanGroupId=${groupId}&free=true`)
    expect(on.status, JSON.stringify(on.body)).toBe(200)
    expect(mutationsSince(env.emulator, from, env.main)).toEqual(['deliveryProfileCreate'])
    const freeProfile = () =>
      platform().extra!.deliveryProfiles!.find((p) => p.name === '定期便送料無料（Teiki）')!
    const profile = freeProfile()
    expect(profile.sellingPlanGroupIds).toEqual([Number(groupId)])
    const zone = profile.locationGroups[0]!.zones[0]!
    expect(zone.countries.map((c) => c.code)).toEqual(['JP'])
    expect(zone.methods.map((m) => [m.name, m.rate.amount, m.rate.currencyCode])).toEqual([
      ['送料無料（定期便）', 0, 'JPY'],
    ])
    expect(on.body).toEqual({
      sellingPlanGroupId: groupId,
      free: true,
      profileId: toGid('DeliveryProfile', profile.id),
    })
    expect(
      (await call(env, 'GET', `/free-shipping-profile/exist?sellingPlanGroupId=${groupId}`)).body,
    ).toMatchObject({ exists: true, free: true })
    expect((await call(env, 'GET', '/free-shipping-profile/exist')).body).toMatchObject({
      exists: true,
      free: null,
    })

    const again = env.emulator.callLog.length
    await call(env, 'GET', `/free-shipping-profile/update?sellingPlanGroupId=${groupId}&free=true`)
    expect(mutationsSince(env.emulator, again, env.main)).toEqual(['deliveryProfileUpdate'])
    const off = await call(
      env,
      'GET',
      `/free-shipping-profile/update?sellingPlanGroupId=${groupId}&free=false`,
    )
    expect(off.body).toMatchObject({ free: false })
    expect(freeProfile().sellingPlanGroupIds).toEqual([])
    expect(
      (await call(env, 'GET', `/free-shipping-profile/exist?sellingPlanGroupId=${groupId}`)).body,
    ).toMatchObject({ exists: true, free: false })
  })

  it('answers 422 with the platform’s words when the profile update is refused, changing nothing', async () => {
    env.emulator.faults.failMutation('deliveryProfileUpdate', { message: 'Profile could not be updated.' })
    const res = await unchanged(
      env,
      () => call(env, 'GET', `/free-shipping-profile/update?sellingPlanGroupId=${groupId}&free=true`),
      ['deliveryProfileUpdate'],
    )
    expectError(
      res,
      422,
      /Shopify が送料無料の設定を受け付けませんでした.*詳細: Profile could not be updated\./s,
    )
  })

  it('refuses a bad free value (400) and another shop’s group (404) before any platform call', async () => {
    await unchanged(env, async () => {
      expectError(
        await call(env, 'GET', `/free-shipping-profile/update?sellingPlanGroupId=${groupId}&free=yes`),
        400,
        /true か false/,
      )
      expectError(
        await call(env, 'GET', '/free-shipping-profile/update?free=true'),
        400,
        /販売プランIDを指定してください/,
      )
      expectError(
        await call(
          env,
          'GET',
          `/free-shipping-profile/update?sellingPlanGroupId=${otherGroup().id}&free=true`,
        ),
        404,
        '販売プランが見つかりません',
      )
      expectError(
        await call(env, 'GET', `/free-shipping-profile/exist?sellingPlanGroupId=${otherGroup().id}`),
        404,
        '販売プランが見つかりません',
      )
    })
  })
})

describe('GET /products (the product picker)', () => {
  it('lists the shop’s products with their variants, 10 a page, searchable; never another shop’s', async () => {
    const list = ZProductList.parse((await call(env, 'GET', '/products')).body)
    expect(list.pageSize).toBe(10)
    expect(list.total).toBe(platform().products.length)
    const titles = list.products.map((p) => p.title)
    expect(titles).toEqual([...titles].sort())
    const coffee = platform().products.find((p) => p.variantIds.length > 1)!
    const found = ZProductList.parse(
      (await call(env, 'GET', `/products?query=${encodeURIComponent(coffee.title)}`)).body,
    )
    expect(found.products[0]).toMatchObject({ id: String(coffee.id), title: coffee.title })
    expect(found.products[0]!.variants.map((v) => v.id)).toEqual(coffee.variantIds.map(String))
    expect(found.products[0]!.imageUrl).toMatch(/\.svg$/)
    const otherTitles = new Set(platform(env.other).products.map((p) => String(p.id)))
    for (const p of list.products) expect(otherTitles.has(p.id)).toBe(false)
    expectError(await call(env, 'GET', '/products?page=0'), 400, /ページは1以上/)
  })
})
