import { createHmac } from 'node:crypto'
import { DEFAULT_BILLING_SETTINGS, ZErrorResponse, ZMyPageSubscriptions } from '@teiki/contract'
import { describe, expect, it } from 'vitest'
import { putBillingSettings } from '../src/billing/settings.ts'
import { appProxySignature, verifyAppProxy } from '../src/http/app-proxy.ts'
import {
  createShop,
  seedContracts,
  TEST_API_SECRET,
  testSessionToken,
  useTestApp,
} from './support/fixtures.ts'

// マイページ through the app proxy (issue 26, first step): a storefront request reaches the app
// only with the platform's signature over its query, and reads only the signed-in customer's
// own contracts of that shop. Hostile input is normal input: a changed customer id, another
// shop, an old or forged signature, nobody signed in, a merchant's token.

const env = useTestApp()
type Shop = Awaited<ReturnType<typeof createShop>>

/** The query the platform adds when it forwards `/apps/teiki/…`, signed as it signs it. */
function proxied(params: Record<string, string>, secret = TEST_API_SECRET) {
  const query = { path_prefix: '/apps/teiki', timestamp: String(Math.floor(Date.now() / 1000)), ...params }
  return { ...query, signature: appProxySignature(query, secret) }
}

const get = (query: Record<string, string>, headers: Record<string, string> = {}) =>
  env.app.inject({ method: 'GET', url: `/proxy/api/subscriptions?${new URLSearchParams(query)}`, headers })

const customer = (id: string, lastName: string) => ({
  id,
  firstName: '花子',
  lastName,
  email: `${id}@example.jp`,
})

async function arrange() {
  const shop = await createShop(env.pool, { prefix: 'mypage' })
  const other = await createShop(env.pool, { prefix: 'mypage-other' })
  await seedContracts(env.pool, shop.id, [
    {
      id: '61001',
      customer: customer('51001', '山田'),
      nextBillingDate: '2026-12-01T01:00:00Z',
      variantIds: ['9001'],
    },
    { id: '61002', customer: customer('51001', '山田'), nextBillingDate: null, status: 'CANCELLED' },
    { id: '61003', customer: customer('51002', '佐藤'), nextBillingDate: '2026-12-05T01:00:00Z' },
  ])
  // The same customer id in another shop: another person.
  await seedContracts(env.pool, other.id, [
    { id: '61004', customer: customer('51001', '鈴木'), nextBillingDate: '2026-12-07T01:00:00Z' },
  ])
  await env.pool.query(
    `update subscription_contracts set custom_attributes = '[{"key":"配送時間帯","value":"19時〜21時"}]',
       delivery_method = $3, payment_method = '{"instrument":{"brand":"visa","lastDigits":"4242"}}'
     where shop_id = $1 and id = $2`,
    [
      shop.id,
      '61001',
      JSON.stringify({
        address: {
          lastName: '山田',
          firstName: '花子',
          zip: '150-0001',
          provinceCode: 'JP-13',
          city: '渋谷区',
          address1: '神宮前1-2-3',
          address2: 'テイキビル5階',
        },
      }),
    ],
  )
  await putBillingSettings(env.pool, shop.id, { ...DEFAULT_BILLING_SETTINGS, deliveryPrepDays: 2 })
  return { shop, other }
}

describe('GET /proxy/api/subscriptions (app proxy)', () => {
  it('the signed-in customer reads their own contracts of this shop, in Japanese, with the next order’s dates', async () => {
    const { shop } = await arrange()
    const res = await get(proxied({ shop: shop.domain, logged_in_customer_id: '51001' }))
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toBe('private, no-store')
    const { contracts } = ZMyPageSubscriptions.parse(res.json())
    expect(contracts.map((c) => c.contractId).sort()).toEqual(['61001', '61002'])
    const active = contracts.find((c) => c.contractId === '61001')!
    expect(active).toMatchObject({
      statusLabel: '有効',
      nextBillingDate: '2026-12-01',
      // the shop's 2 preparation days after the billing day
      nextDeliveryDate: '2026-12-03',
      deliveryTime: '19時〜21時',
      address: {
        name: '山田 花子',
        zip: '150-0001',
        prefecture: '東京都',
        city: '渋谷区',
        address1: '神宮前1-2-3',
        address2: 'テイキビル5階',
      },
      card: { brand: 'visa', lastDigits: '4242' },
      lines: [{ title: 'テスト商品', quantity: 1 }],
    })
    expect(contracts.find((c) => c.contractId === '61002')).toMatchObject({
      statusLabel: '解約済み',
      nextBillingDate: null,
      nextDeliveryDate: null,
    })
  })

  it('another customer of the shop, and the same id in another shop, see only their own', async () => {
    const { shop, other } = await arrange()
    const satoRes = await get(proxied({ shop: shop.domain, logged_in_customer_id: '51002' }))
    expect(satoRes.statusCode, satoRes.body).toBe(200)
    const sato = ZMyPageSubscriptions.parse(satoRes.json())
    expect(sato.contracts.map((c) => c.contractId)).toEqual(['61003'])
    const suzuki = ZMyPageSubscriptions.parse(
      (await get(proxied({ shop: other.domain, logged_in_customer_id: '51001' }))).json(),
    )
    expect(suzuki.contracts.map((c) => c.contractId)).toEqual(['61004'])
  })

  it('nobody signed in: 401 asking them to sign in, in Japanese', async () => {
    const { shop } = await arrange()
    const res = await get(proxied({ shop: shop.domain, logged_in_customer_id: '' }))
    expect(res.statusCode).toBe(401)
    expect(ZErrorResponse.parse(res.json()).error.message).toContain('ログインしてください')
  })

  it.each([
    [
      'the customer id changed after signing',
      (q: Record<string, string>) => ({ ...q, logged_in_customer_id: '51002' }),
    ],
    [
      'the shop changed after signing',
      (q: Record<string, string>, other: Shop) => ({ ...q, shop: other.domain }),
    ],
    ['a parameter added after signing', (q: Record<string, string>) => ({ ...q, extra: '1' })],
    [
      'no signature',
      (q: Record<string, string>) => Object.fromEntries(Object.entries(q).filter(([k]) => k !== 'signature')),
    ],
    [
      'a signature made with another secret',
      (q: Record<string, string>) =>
        proxied({ shop: q.shop!, logged_in_customer_id: '51001' }, 'not-the-secret'),
    ],
    [
      'a timestamp ten minutes old',
      (q: Record<string, string>) => {
        const rest: Record<string, string> = { ...q, timestamp: String(Math.floor(Date.now() / 1000) - 600) }
        delete rest.signature
        return { ...rest, signature: appProxySignature(rest, TEST_API_SECRET) }
      },
    ],
  ])('refuses %s with 401, reading nothing', async (_name, tamper) => {
    const { shop, other } = await arrange()
    const query = tamper(proxied({ shop: shop.domain, logged_in_customer_id: '51001' }), other)
    const res = await get(query)
    expect(res.statusCode).toBe(401)
    expect(res.json().contracts).toBeUndefined()
  })

  it('a merchant’s session token is not a proxy signature', async () => {
    const { shop } = await arrange()
    const res = await get(
      { shop: shop.domain, logged_in_customer_id: '51001' },
      { authorization: `Bearer ${testSessionToken(shop.domain)}` },
    )
    expect(res.statusCode).toBe(401)
  })
})

describe('GET /proxy/my-page (the page the platform renders in the theme)', () => {
  it('shows the signed-in customer’s contracts in Japanese: dates, slot, yen, address, card; Liquid in data stays text', async () => {
    const { shop } = await arrange()
    await env.pool.query(
      `update subscription_lines set title = '{{ shop.secret }} グラノーラ', current_price = 1980 where shop_id = $1 and contract_id = 61001`,
      [shop.id],
    )
    const res = await env.app.inject({
      method: 'GET',
      url: `/proxy/my-page?${new URLSearchParams(proxied({ shop: shop.domain, logged_in_customer_id: '51001' }))}`,
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/liquid; charset=utf-8')
    const html = res.body
    expect(html).toContain('<dd data-teiki="next-delivery">2026年12月3日（19時〜21時）</dd>')
    expect(html).toContain('<dd data-teiki="next-billing">2026年12月1日</dd>')
    expect(html).toContain('〒150-0001 東京都渋谷区神宮前1-2-3 テイキビル5階<br>山田 花子 様')
    expect(html).toContain('VISA •••• 4242')
    expect(html).toContain('¥1,980')
    expect(html).toContain('解約済み')
    expect(html).not.toContain('{{')
    expect(html).toContain('&#123;&#123; shop.secret &#125;&#125; グラノーラ')
    expect(html).not.toContain('61003')
  })

  it('nobody signed in: the page asks them to sign in (no contract read)', async () => {
    const { shop } = await arrange()
    const res = await env.app.inject({
      method: 'GET',
      url: `/proxy/my-page?${new URLSearchParams(proxied({ shop: shop.domain, logged_in_customer_id: '' }))}`,
    })
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('ログインしてください')
    expect(res.body).not.toContain('data-contract')
  })
})

describe('verifyAppProxy', () => {
  it('signs as the platform documents: sorted key=value pairs, several values joined by commas, no separators', () => {
    // shopify.dev "Authenticate app proxies": extra=1,2 and the others sorted, joined without separators.
    const query = {
      extra: ['1', '2'],
      logged_in_customer_id: '',
      path_prefix: '/apps/awesome_reviews',
      shop: 'shop-name.myshopify.com',
      timestamp: '1317327555',
    }
    const message =
      'extra=1,2logged_in_customer_id=path_prefix=/apps/awesome_reviewsshop=shop-name.myshopify.comtimestamp=1317327555'
    expect(appProxySignature(query, 'hush')).toBe(createHmac('sha256', 'hush').update(message).digest('hex'))
    const signed = { ...query, signature: appProxySignature(query, 'hush') }
    expect(verifyAppProxy(signed, { apiSecret: 'hush', nowSeconds: 1317327555 + 10 })).toEqual({
      shop: 'shop-name.myshopify.com',
      customerId: null,
    })
    expect(verifyAppProxy(signed, { apiSecret: 'hush', nowSeconds: 1317327555 + 301 })).toBeNull()
    expect(
      verifyAppProxy({ ...signed, signature: 'zz' }, { apiSecret: 'hush', nowSeconds: 1317327555 }),
    ).toBeNull()
  })
})
