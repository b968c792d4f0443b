import { ZEligibilityResponse, ZErrorResponse, ZPlanResponse } from '@teiki/contract'
import { describe, expect, it } from 'vitest'
import { createShop, useTestApp } from './support/fixtures.ts'

const env = useTestApp()

async function get(shop: { domain: string; secret: string }, path: string) {
  const res = await env.app.inject({
    method: 'GET',
    url: `/app-admin/${path}?shop=${shop.domain}&secret=${shop.secret}`,
  })
  return { status: res.statusCode, body: res.json() }
}

describe('GET /app-admin/plan', () => {
  it("answers the shop's active app plan", async () => {
    const shop = await createShop(env.pool, { prefix: 'plan-active' })
    const { status, body } = await get(shop, 'plan')
    expect(status).toBe(200)
    expect(ZPlanResponse.parse(body)).toEqual({
      currentPlan: {
        id: '29000000013',
        name: 'Teiki プロ',
        status: 'ACTIVE',
        price: { amount: '29800.0', currencyCode: 'JPY' },
        trialDays: 14,
        currentPeriodEnd: null,
        test: false,
      },
      isActive: true,
      catalogueKey: 'pro',
      shopifyPlan: null,
    })
  })

  it('answers a plan written a moment ago, not the copy cached for authentication', async () => {
    const shop = await createShop(env.pool, { prefix: 'plan-fresh' })
    await env.pool.query('update shops set app_plan = null where domain = $1', [shop.domain])
    expect((await get(shop, 'plan')).body.isActive).toBe(false)
    // The first sync writes the plan while the shop row is still cached by auth.
    await env.pool.query('update shops set app_plan = $2 where domain = $1', [
      shop.domain,
      JSON.stringify({
        name: 'スタンダードプラン',
        status: 'ACTIVE',
        price: null,
        trialDays: null,
        currentPeriodEnd: null,
        test: true,
      }),
    ])
    expect((await get(shop, 'plan')).body.isActive).toBe(true)
  })

  it.each([
    ['no plan at all', null, null],
    [
      'a cancelled plan',
      {
        name: 'ライト',
        status: 'CANCELLED',
        price: null,
        trialDays: null,
        currentPeriodEnd: null,
        test: false,
      },
      'CANCELLED',
    ],
    ['a plan the server cannot read', { name: 42 }, null],
  ])('is not active with %s', async (_name, appPlan, shownStatus) => {
    const shop = await createShop(env.pool, { prefix: 'plan-none', appPlan })
    const { body } = await get(shop, 'plan')
    expect(body.isActive).toBe(false)
    expect(body.currentPlan?.status ?? null).toBe(shownStatus)
  })
})

describe('GET /app-admin/app-scope-eligibility', () => {
  it('is eligible when every required scope was granted (write implies read)', async () => {
    const shop = await createShop(env.pool, { prefix: 'scopes-ok' })
    const { body } = await get(shop, 'app-scope-eligibility')
    expect(ZEligibilityResponse.parse(body)).toEqual({ eligible: true, redirect_uri: null })
  })

  it('asks for an update, with the authorize URL, when theme access is missing', async () => {
    const shop = await createShop(env.pool, {
      prefix: 'scopes-old',
      scopes: ['write_own_subscription_contracts', 'write_customers', 'write_products', 'read_orders'],
    })
    const { body } = await get(shop, 'app-scope-eligibility')
    expect(body.eligible).toBe(false)
    const url = new URL(body.redirect_uri)
    expect(url.origin).toBe(`https://${shop.domain}`)
    expect(url.pathname).toBe('/admin/oauth/authorize')
    expect(url.searchParams.get('scope')).toContain('read_themes')
    expect(url.searchParams.get('client_id')).toBe('test-client-id')
  })

  it('asks for an update when only the web pixel scopes are missing (installed before 流入元 connected it)', async () => {
    const shop = await createShop(env.pool, {
      prefix: 'scopes-pixel',
      scopes: [
        'write_own_subscription_contracts',
        'write_customers',
        'write_products',
        'write_orders',
        'write_themes',
        'write_script_tags',
        'write_shipping',
        'read_locations',
      ],
    })
    const { body } = await get(shop, 'app-scope-eligibility')
    expect(body.eligible).toBe(false)
    const scopes = new URL(body.redirect_uri).searchParams.get('scope')!.split(',')
    expect(scopes).toEqual(expect.arrayContaining(['write_pixels', 'read_customer_events']))
  })
})

describe('shop basics', () => {
  it('answers the currency code and the primary domain', async () => {
    const shop = await createShop(env.pool, { prefix: 'basics' })
    expect((await get(shop, 'shop-currency-code')).body).toEqual({ currencyCode: 'JPY' })
    expect((await get(shop, 'domain')).body).toEqual({ domain: shop.domain, url: `https://${shop.domain}` })
  })

  it('answers unknown /app-admin paths with a JSON 404 in Japanese', async () => {
    const shop = await createShop(env.pool, { prefix: 'unknown' })
    const { status, body } = await get(shop, 'no-such-thing')
    expect(status).toBe(404)
    expect(ZErrorResponse.parse(body).error.message).toMatch(/見つかりません/)
  })

  it('serves an OpenAPI document of the routes without credentials', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/app-admin/openapi.json' })
    expect(res.statusCode).toBe(200)
    const doc = res.json()
    expect(doc.openapi).toMatch(/^3\./)
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/app-admin/subscriptions/search',
        '/app-admin/subscriptions/search-variant-id',
        '/app-admin/plan',
      ]),
    )
    const params = doc.paths['/app-admin/subscriptions/search'].get.parameters.map(
      (p: { name: string }) => p.name,
    )
    expect(params).toEqual(
      expect.arrayContaining(['nextBillingDateFrom', 'nextBillingDateTo', 'statuses', 'offset', 'limit']),
    )
  })
})
