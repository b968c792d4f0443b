import {
  ZDeliveryPrepDaysOperation,
  ZErrorResponse,
  ZMyPageTargetVariantList,
  ZSettingsResponse,
} from '@teiki/contract'
import { describe, expect, it } from 'vitest'
import { setShopFlag } from '../src/features/shop-flags/service.ts'
import { catalogPlan, createShop, seedContracts, useTestApp } from './support/fixtures.ts'

const env = useTestApp()

type Shop = Awaited<ReturnType<typeof createShop>>

function call(shop: Shop, method: 'GET' | 'PUT' | 'POST' | 'DELETE', path: string, payload?: object) {
  return env.app.inject({
    method,
    url: `/app-admin${path}${path.includes('?') ? '&' : '?'}shop=${shop.domain}&secret=${shop.secret}`,
    ...(payload ? { payload } : {}),
  })
}

const good = {
  noteAttribute: '[{"key":"ギフト包装","value":"希望する"}]',
  skuConversions: '[\n  {"from":"OLD-1","to":"NEW-1"}\n]',
  thankPageScript: JSON.stringify(
    {
      message: 'ご注文ありがとうございます。',
      tags: [
        { name: 'A8.net', url: 'https://px.a8.example/cv?so={order_id}&si={total}', subscriptionOnly: true },
      ],
    },
    null,
    2,
  ),
  deliveryPrepDays: 3,
}

async function contracts(shop: Shop, n: number) {
  await seedContracts(
    env.pool,
    shop.id,
    Array.from({ length: n }, (_, i) => ({
      id: String(91000 + i),
      customer: { id: String(81000 + i), firstName: '太郎', lastName: '佐藤', email: `c${i}@example.jp` },
      nextBillingDate: '2026-12-01T01:00:00Z',
    })),
  )
}

describe('GET/PUT /settings', () => {
  it('a new shop has empty JSON settings and the billing default of 2 prep days', async () => {
    const shop = await createShop(env.pool, { prefix: 'settings-new', appPlan: catalogPlan('standard') })
    const body = ZSettingsResponse.parse((await call(shop, 'GET', '/settings')).json())
    expect(body.settings).toEqual({
      noteAttribute: '[]',
      skuConversions: '[]',
      thankPageScript: '""',
      deliveryPrepDays: body.settings.deliveryPrepDays,
    })
    expect(body.deliveryPrepDays).toEqual({
      updatable: true,
      planAllows: false,
      contractCount: 0,
      reason: null,
    })
  })

  it('saves every setting; the prep days reach the billing settings; other shops keep theirs', async () => {
    const shop = await createShop(env.pool, { prefix: 'settings-save' })
    const other = await createShop(env.pool, { prefix: 'settings-other' })
    const res = await call(shop, 'PUT', '/settings', { settings: good })
    expect(res.statusCode).toBe(200)
    expect(ZSettingsResponse.parse(res.json()).settings).toEqual(good)
    expect((await call(shop, 'GET', '/billing-settings')).json().deliveryPrepDays).toBe(3)
    expect(
      ZSettingsResponse.parse((await call(other, 'GET', '/settings')).json()).settings.noteAttribute,
    ).toBe('[]')
  })

  it.each([
    [{ skuConversions: '[\n  {"from":"A", "to": }\n]' }, 'SKU変換のJSONが正しくありません（2行目'],
    [{ noteAttribute: '{"key":"x"}' }, '注文メモ属性は配列（[ ... ]）で入力してください'],
    [{ noteAttribute: '[{"key":"a"},{"value":"b"}]' }, '注文メモ属性の2件目に "key" がありません'],
    [{ noteAttribute: '[{"key":1}]' }, '注文メモ属性の1件目の "key" は文字列で入力してください'],
    [{ skuConversions: '[{"from":"A","to":"B","qty":2}]' }, 'SKU変換の1件目の "qty" は使えない項目です'],
    [
      { skuConversions: '[{"from":"A","to":"B"},{"from":"A","to":"C"}]' },
      'SKU変換の2件目の "from"（A）は1件目と重複しています',
    ],
    [{ thankPageScript: '<script>' }, 'サンクスページの設定のJSONが正しくありません（1行目 1文字目付近）'],
    [{ thankPageScript: '42' }, 'サンクスページの設定は {"message": "…", "tags": [...]} の形'],
    [{ thankPageScript: JSON.stringify('<script>x</script>') }, 'スクリプトが実行されなくなりました'],
    [
      { thankPageScript: '{"tags": [{"name": "x", "url": "http://tracker.example/{email}"}]}' },
      '計測タグの1件目の "url" の {email} は使えません',
    ],
    [{ deliveryPrepDays: 31 }, 'お届け準備期間は30日以内で指定してください'],
    [{ deliveryPrepDays: 1.5 }, 'お届け準備期間は整数で指定してください'],
    [{ noteAttribute: '[]\u0007' }, '注文メモ属性に使用できない制御文字が含まれています'],
  ])('%j → 400 pointing at the error, nothing saved', async (patch, message) => {
    const shop = await createShop(env.pool, { prefix: 'settings-bad' })
    const res = await call(shop, 'PUT', '/settings', { settings: { ...good, ...patch } })
    expect(res.statusCode).toBe(400)
    expect(ZErrorResponse.parse(res.json()).error.message).toContain(message)
    const stored = ZSettingsResponse.parse((await call(shop, 'GET', '/settings')).json()).settings
    expect(stored.noteAttribute).toBe('[]')
    expect(stored.deliveryPrepDays).not.toBe(3)
  })
})

describe('delivery prep days rule (spec §5)', () => {
  it('4 contracts: may change; 5 contracts: refused with 403 and nothing else saved', async () => {
    const shop = await createShop(env.pool, { prefix: 'prep-rule', appPlan: catalogPlan('standard') })
    await contracts(shop, 4)
    expect(
      ZDeliveryPrepDaysOperation.parse(
        (await call(shop, 'GET', '/current-delivery-prep-days-operation')).json(),
      ),
    ).toEqual({ updatable: true, planAllows: false, contractCount: 4, reason: null })
    expect((await call(shop, 'PUT', '/settings', { settings: good })).statusCode).toBe(200)
    await seedContracts(env.pool, shop.id, [
      {
        id: '91999',
        customer: { id: '81999', firstName: '次郎', lastName: '佐藤', email: 'x@example.jp' },
        nextBillingDate: null,
      },
    ])
    const op = ZDeliveryPrepDaysOperation.parse(
      (await call(shop, 'GET', '/current-delivery-prep-days-operation')).json(),
    )
    expect(op).toMatchObject({ updatable: false, planAllows: false, contractCount: 5 })
    expect(op.reason).toContain('5件以上')
    expect(op.reason).toContain('プロプランでは変更できます')
    const refused = await call(shop, 'PUT', '/settings', {
      settings: { ...good, deliveryPrepDays: 7, noteAttribute: '[{"key":"変更"}]' },
    })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().error.message).toContain('お届け準備期間は変更できません')
    const stored = ZSettingsResponse.parse((await call(shop, 'GET', '/settings')).json()).settings
    expect(stored).toMatchObject({ deliveryPrepDays: 3, noteAttribute: good.noteAttribute })
    // Saving the other settings with the prep days unchanged still works.
    expect(
      (await call(shop, 'PUT', '/settings', { settings: { ...good, noteAttribute: '[]' } })).statusCode,
    ).toBe(200)
  })

  it('the delivery_prep_days flag lets a shop with 5+ contracts change them', async () => {
    const shop = await createShop(env.pool, { prefix: 'prep-flag', appPlan: catalogPlan('standard') })
    await contracts(shop, 6)
    await setShopFlag(env.pool, shop.id, 'delivery_prep_days', true)
    const op = ZDeliveryPrepDaysOperation.parse(
      (await call(shop, 'GET', '/current-delivery-prep-days-operation')).json(),
    )
    expect(op).toEqual({ updatable: true, planAllows: true, contractCount: 5, reason: null })
    expect(
      (await call(shop, 'PUT', '/settings', { settings: { ...good, deliveryPrepDays: 9 } })).statusCode,
    ).toBe(200)
  })

  it('the プロ plan allows it; a cancelled プロ plan does not', async () => {
    const pro = {
      name: 'Teiki プロ',
      status: 'ACTIVE',
      price: { amount: '29800.0', currencyCode: 'JPY' },
      trialDays: 14,
      currentPeriodEnd: null,
      test: false,
    }
    const shop = await createShop(env.pool, { prefix: 'prep-pro', appPlan: pro })
    await contracts(shop, 5)
    expect((await call(shop, 'GET', '/current-delivery-prep-days-operation')).json().planAllows).toBe(true)
    await env.pool.query('update shops set app_plan = $2 where id = $1', [
      shop.id,
      JSON.stringify({ ...pro, status: 'CANCELLED' }),
    ])
    expect((await call(shop, 'GET', '/current-delivery-prep-days-operation')).json().updatable).toBe(false)
  })
})

describe('my-page target product variants', () => {
  async function variants(shop: Shop, ids: string[]) {
    await env.pool.query(
      `insert into products (shop_id, id, title) values ($1, 5001, '煎茶') on conflict do nothing`,
      [shop.id],
    )
    for (const id of ids) {
      await env.pool.query(
        `insert into product_variants (shop_id, id, product_id, title, sku) values ($1, $2, 5001, $3, $4)`,
        [shop.id, id, `${id}g`, `SKU-${id}`],
      )
    }
  }

  it('adds (ids or gids), lists with product names, removes; 404 for a variant of no product of the shop', async () => {
    const shop = await createShop(env.pool, { prefix: 'mypage' })
    const other = await createShop(env.pool, { prefix: 'mypage-other' })
    await variants(shop, ['100', '200'])
    await variants(other, ['300'])
    const added = await call(shop, 'POST', '/my-page-target-product-variants', {
      variantIds: ['100', 'gid://shopify/ProductVariant/200'],
    })
    expect(added.statusCode).toBe(200)
    const list = ZMyPageTargetVariantList.parse(added.json())
    expect(list.variants.map((v) => [v.variantId, v.group, v.productTitle, v.variantTitle, v.sku])).toEqual([
      ['100', 1, '煎茶', '100g', 'SKU-100'],
      ['200', 1, '煎茶', '200g', 'SKU-200'],
    ])
    expect(list.twoCustomerGroups).toBe(false)
    // Another shop's variant is not this shop's: 404, nothing added.
    const foreign = await call(shop, 'POST', '/my-page-target-product-variants', {
      variantIds: ['100', '300'],
    })
    expect(foreign.statusCode).toBe(404)
    expect(foreign.json().error.message).toContain('バリエーション 300 はこのストアの商品にありません')
    expect(
      ZMyPageTargetVariantList.parse((await call(other, 'GET', '/my-page-target-product-variants')).json())
        .variants,
    ).toEqual([])
    const removed = await call(shop, 'DELETE', '/my-page-target-product-variants?variantId=100')
    expect(ZMyPageTargetVariantList.parse(removed.json()).variants.map((v) => v.variantId)).toEqual(['200'])
    expect((await call(shop, 'DELETE', '/my-page-target-product-variants?variantId=100')).statusCode).toBe(
      404,
    )
    expect((await call(other, 'DELETE', '/my-page-target-product-variants?variantId=200')).statusCode).toBe(
      404,
    )
  })

  it.each([
    [{ variantIds: [] }, 'バリエーションを1件以上指定してください'],
    [{ variantIds: ['0'] }, 'バリエーションIDは1〜'],
    [{ variantIds: ['abc'] }, 'バリエーションIDは数字で指定してください'],
    [{ variantIds: ['1'], group: 3 }, '顧客グループは1または2で指定してください'],
  ])('%j → 400', async (body, message) => {
    const shop = await createShop(env.pool, { prefix: 'mypage-bad' })
    const res = await call(shop, 'POST', '/my-page-target-product-variants', body)
    expect(res.statusCode).toBe(400)
    expect(res.json().error.message).toContain(message)
  })

  it('customer group 2 only for shops flagged with two customer groups', async () => {
    const shop = await createShop(env.pool, { prefix: 'mypage-groups' })
    await variants(shop, ['400'])
    const refused = await call(shop, 'POST', '/my-page-target-product-variants', {
      variantIds: ['400'],
      group: 2,
    })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().error.message).toContain('顧客グループ2は利用できません')
    await setShopFlag(env.pool, shop.id, 'two_customer_groups', true)
    const added = await call(shop, 'POST', '/my-page-target-product-variants', {
      variantIds: ['400'],
      group: 2,
    })
    const list = ZMyPageTargetVariantList.parse(added.json())
    expect(list.twoCustomerGroups).toBe(true)
    expect(list.variants.map((v) => [v.variantId, v.group])).toEqual([['400', 2]])
  })
})

describe('the prep-days rule on 請求設定 too', () => {
  it('PUT /billing-settings may not change the prep days of a shop with 5 contracts; other fields may change', async () => {
    const shop = await createShop(env.pool, { prefix: 'prep-billing', appPlan: catalogPlan('standard') })
    await contracts(shop, 5)
    const current = (await call(shop, 'GET', '/billing-settings')).json()
    const refused = await call(shop, 'PUT', '/billing-settings', {
      ...current,
      deliveryPrepDays: current.deliveryPrepDays + 1,
    })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().error.message).toContain('お届け準備期間は変更できません')
    const saved = await call(shop, 'PUT', '/billing-settings', { ...current, billingHour: 9 })
    expect(saved.statusCode).toBe(200)
    expect(saved.json()).toMatchObject({ billingHour: 9, deliveryPrepDays: current.deliveryPrepDays })
  })
})

describe('uninstall and reinstall keep what the merchant set', () => {
  it('settings, templates, shop mail and my-page variants survive a reinstall', async () => {
    const { upsertShopInstall } = await import('../src/platform/shops-repo.ts')
    const shop = await createShop(env.pool, { prefix: 'reinstall' })
    expect((await call(shop, 'PUT', '/settings', { settings: good })).statusCode).toBe(200)
    expect(
      (
        await call(shop, 'PUT', '/mail-template/pause', {
          title: '停止のお知らせ',
          body: '{{customerName}} 様',
          signature: '',
        })
      ).statusCode,
    ).toBe(200)
    expect((await call(shop, 'PUT', '/custom-shop-mail', { shopMail: 'shop@example.jp' })).statusCode).toBe(
      200,
    )
    await env.pool.query('update shops set uninstalled_at = now(), access_token = null where id = $1', [
      shop.id,
    ])
    await upsertShopInstall(env.pool, {
      domain: shop.domain,
      accessToken: 'shpat_again',
      scopes: ['write_own_subscription_contracts'],
    })
    expect(ZSettingsResponse.parse((await call(shop, 'GET', '/settings')).json()).settings).toEqual(good)
    expect((await call(shop, 'GET', '/mail-template/pause')).json()).toMatchObject({
      title: '停止のお知らせ',
      customized: true,
    })
    expect((await call(shop, 'GET', '/custom-shop-mail')).json()).toEqual({ shopMail: 'shop@example.jp' })
  })
})
