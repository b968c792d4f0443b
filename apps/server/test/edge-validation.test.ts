import { beforeAll, describe, expect, it } from 'vitest'
import { useEmulatedApp } from './support/emulated-app.ts'
import { testDomain } from './support/fixtures.ts'

// Issue 11 items 2 and 4, issue 12 items 5 and 9: hostile ids and text are answered 400 in
// Japanese at the edge, before the platform is asked and before anything is written.

const DOMAIN = testDomain('edge')
const SECRET = 's3cret-edge'
const AUTH = `shop=${DOMAIN}&secret=${SECRET}`
const TOO_BIG = '9223372036854775808' // 2^63
const JAPANESE = /[ぁ-んァ-ン一-龥]/

let contractId = ''
let lineId = ''
let revision = ''

const env = useEmulatedApp({ shops: [{ domain: DOMAIN, contracts: 4 }], secret: SECRET })
beforeAll(async () => {
  await env.sync(DOMAIN, { bulk: false })
  const c = env.emulator.store.shop(DOMAIN)!.contracts.find((c) => c.status === 'ACTIVE')!
  contractId = String(c.id)
  lineId = String(c.lines[0]!.id)
  revision = String(c.revisionId)
}, 60_000)

/** What a refused request may not leave behind: a platform call, a history row, an export job. */
async function footprint() {
  const { rows } = await env.pool.query<{ events: number; exports: number; reasons: number }>(
    `select (select count(*)::int from contract_events where shop_id = $1) as events,
            (select count(*)::int from contract_exports where shop_id = $1) as exports,
            (select count(*)::int from cancellation_reasons where shop_id = $1) as reasons`,
    [env.shopIds[DOMAIN]],
  )
  return { calls: env.emulator.callLog.length, ...rows[0] }
}

async function expectRefused(method: string, url: string, body?: unknown, message?: RegExp) {
  const before = await footprint()
  const sep = url.includes('?') ? '&' : '?'
  const res = await env.app.inject({
    method: method as 'GET',
    url: `/app-admin${url}${sep}${AUTH}`,
    ...(body === undefined ? {} : { payload: body as object }),
  })
  expect(res.statusCode, res.body).toBe(400)
  const error = res.json().error
  expect(error.code).toBe('INVALID_INPUT')
  expect(error.message).toMatch(message ?? JAPANESE)
  expect(await footprint()).toEqual(before)
}

describe('the request guard (before authentication)', () => {
  it.each([
    ['a NUL in ?shop= (encoded), unauthenticated', `/app-admin/plan?shop=x%00y&secret=s`],
    ['a NUL in ?shop= of the real shop', `/app-admin/plan?shop=${DOMAIN}%00&secret=${SECRET}`],
    ['a NUL after valid credentials', `/app-admin/subscriptions/search?${AUTH}&customerQuery=%00`],
    ['a raw NUL', `/app-admin/plan?shop=x\u0000&secret=s`],
    ['a C1 control, encoded as UTF-8', `/app-admin/plan?${AUTH}&x=%C2%85`],
    ['an escape sequence', `/app-admin/plan?${AUTH}&x=%1B%5B31m`],
    ['a malformed escape in the query', `/app-admin/plan?${AUTH}&x=%zz`],
    ['invalid UTF-8 in the query', `/app-admin/plan?${AUTH}&x=%E3%81`],
    ['a malformed escape in the path', `/app-admin/subscriptions/%zz?${AUTH}`],
    ['an absurdly long URL', `/app-admin/plan?${AUTH}&x=${'a'.repeat(5000)}`],
    ['a path parameter past the router limit', `/app-admin/subscriptions/${'9'.repeat(200)}?${AUTH}`],
    ['a NUL outside /app-admin', '/health?x=%00'],
  ])('answers 400 in Japanese for %s', async (_name, url) => {
    const calls = env.emulator.callLog.length
    const res = await env.app.inject({ method: 'GET', url })
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json()).toEqual({ error: { code: 'INVALID_INPUT', message: expect.stringMatching(JAPANESE) } })
    expect(env.emulator.callLog.length).toBe(calls)
  })

  it('runs before authentication: a wrong secret with a NUL is 400, not 401', async () => {
    const res = await env.app.inject({
      method: 'GET',
      url: '/app-admin/plan?shop=nobody.myshopify.com%00&secret=no',
    })
    expect(res.statusCode).toBe(400)
    const clean = await env.app.inject({
      method: 'GET',
      url: '/app-admin/plan?shop=nobody.myshopify.com&secret=no',
    })
    expect(clean.statusCode).toBe(401)
  })

  it('lets ordinary Japanese, encoded, through', async () => {
    const q = encodeURIComponent('山田 太郎')
    const res = await env.app.inject({
      method: 'GET',
      url: `/app-admin/subscriptions/search?${AUTH}&customerQuery=${q}`,
    })
    expect(res.statusCode, res.body).toBe(200)
  })
})

describe('ids out of the platform range are 400 on every route family', () => {
  it.each([
    ['search contractId', 'GET', () => `/subscriptions/search?contractId=${TOO_BIG}`],
    ['search box: 20 digits', 'GET', () => '/subscriptions/search?customerQuery=99999999999999999999'],
    ['search box: 19 digits above 2^63', 'GET', () => `/subscriptions/search?customerQuery=${TOO_BIG}`],
    [
      'search box: a variant gid beyond the range',
      'GET',
      () =>
        `/subscriptions/search?customerQuery=${encodeURIComponent(`gid://shopify/ProductVariant/${TOO_BIG}`)}`,
    ],
    [
      'search-variant-id: a gid beyond the range',
      'GET',
      () =>
        `/subscriptions/search-variant-id?variantId=${encodeURIComponent(`gid://shopify/ProductVariant/${TOO_BIG}`)}`,
    ],
    ['detail', 'GET', () => `/subscriptions/${TOO_BIG}`],
    ['detail: 0', 'GET', () => '/subscriptions/0'],
    ['next delivery date', 'GET', () => `/subscriptions/${TOO_BIG}/next-delivery-date`],
    ['order count', 'GET', () => '/subscription-contracts/18446744073709551616/order-count'],
    ['payment methods', 'GET', () => `/subscription-contracts/${TOO_BIG}/payment-methods`],
    ['discounts', 'GET', () => `/subscriptions/${TOO_BIG}/discount-code/`],
    [
      'cancellation reason of a contract',
      'GET',
      () => `/subscription-contracts/${TOO_BIG}/cancellation-reason`,
    ],
    ['a variant', 'GET', () => `/products/variants/${TOO_BIG}`],
  ])('%s', async (_name, method, url) => {
    await expectRefused(method, url())
  })

  it.each([
    ['pause', 'POST', () => '/pause', () => ({ contractId: TOO_BIG, customerId: '1' })],
    [
      'resume: customer id 2^64',
      'POST',
      () => '/resume',
      () => ({ contractId, customerId: '18446744073709551616' }),
    ],
    ['churn: reason id', 'POST', () => '/churn', () => ({ contractId, customerId: '1', reasonId: TOO_BIG })],
    [
      'next billing date',
      'PUT',
      () => '/next-billing-date',
      () => ({ contractId: '-1', nextBillingDate: '2027-01-01' }),
    ],
    [
      'interval',
      'PUT',
      () => '/interval-and-interval-count',
      () => ({ contractId: '1e400', interval: 'MONTH', intervalCount: 1 }),
    ],
    ['order now', 'POST', () => '/create-order-now', () => ({ contractId: TOO_BIG })],
    [
      'add a line: variant',
      'POST',
      () => `/subscriptions/${contractId}/lines`,
      () => ({ variantId: TOO_BIG }),
    ],
    [
      'add a line: variant gid',
      'POST',
      () => `/subscriptions/${contractId}/lines`,
      () => ({ variantId: `gid://shopify/ProductVariant/${TOO_BIG}` }),
    ],
    [
      'swap: variant',
      'PUT',
      () => `/subscriptions/${contractId}/${lineId}/product-variant`,
      () => ({ variantId: '0' }),
    ],
    [
      'quantity: contract',
      'PUT',
      () => `/subscriptions/${TOO_BIG}/${lineId}/quantity`,
      () => ({ quantity: 1 }),
    ],
    [
      'payment method',
      'PUT',
      () => '/modify-payment-method',
      () => ({ contractId, paymentMethodId: TOO_BIG }),
    ],
    [
      'revision beyond UnsignedInt64',
      'PUT',
      () => `/subscription-contracts/${contractId}/note`,
      () => ({ note: 'a', revision: '18446744073709551616' }),
    ],
    ['a reason id', 'PUT', () => `/cancellation-reasons/${TOO_BIG}`, () => ({ reason: '引っ越し' })],
  ])('%s', async (_name, method, url, body) => {
    await expectRefused(method, url(), body())
  })
})

describe('text with control characters is 400 on every route family', () => {
  const nul = 'a\u0000b'
  it.each([
    [
      'note',
      'PUT',
      () => `/subscription-contracts/${contractId}/note`,
      () => ({ note: `メモ${nul}`, revision }),
    ],
    [
      'note: escape sequence',
      'PUT',
      () => `/subscription-contracts/${contractId}/note`,
      () => ({ note: '\u001b[2J', revision }),
    ],
    [
      'delivery address',
      'PUT',
      () => `/subscriptions/${contractId}/delivery-address`,
      () => ({
        address: {
          lastName: '山田',
          zip: '150-0001',
          provinceCode: 'JP-13',
          city: `渋谷区${nul}`,
          address1: '1-2-3',
        },
        revision,
      }),
    ],
    [
      'discount code',
      'PUT',
      () => `/subscriptions/${contractId}/discount-code/apply`,
      () => ({ discountCode: nul }),
    ],
    ['churn reason', 'POST', () => '/churn', () => ({ contractId, customerId: '1', reason: `理由${nul}` })],
    [
      'churn reason: lone surrogate',
      'POST',
      () => '/churn',
      () => ({ contractId, customerId: '1', reason: '\ud800' }),
    ],
    ['cancellation reason', 'POST', () => '/cancellation-reasons', () => ({ reason: `理由${nul}` })],
    [
      'export e-mail',
      'POST',
      () => '/export-subscription-contracts',
      () => ({ email: `a${nul}@example.jp` }),
    ],
    [
      'export status filter',
      'POST',
      () => '/export-subscription-contracts',
      () => ({ statusFilterDirect: `ACTIVE${nul}` }),
    ],
    [
      'an overlong note',
      'PUT',
      () => `/subscription-contracts/${contractId}/note`,
      () => ({ note: 'あ'.repeat(5001) }),
    ],
  ])('%s', async (_name, method, url, body) => {
    await expectRefused(method, url(), body())
  })
})

describe('JPY prices are whole yen (issue 12 item 5)', () => {
  it('an added line at ¥1980.5 is refused before the platform is asked', async () => {
    const variant = env.emulator.store.shop(DOMAIN)!.contracts[0]!.lines[0]!.variantId
    await expectRefused(
      'POST',
      `/subscriptions/${contractId}/lines`,
      { variantId: String(variant), price: '1980.5', revision },
      /小数点なしの整数/,
    )
  })

  it('a manual line price of ¥1980.5 is refused before the platform is asked', async () => {
    await expectRefused(
      'POST',
      `/subscription-contracts/${contractId}/price-manually-changed`,
      { lineId, price: '1980.5', revision },
      /価格は小数点なしの整数で入力してください（JPY、例: 1980）/,
    )
  })

  it('¥1980 is accepted and reaches the platform', async () => {
    const res = await env.app.inject({
      method: 'POST',
      url: `/app-admin/subscription-contracts/${contractId}/price-manually-changed?${AUTH}`,
      payload: { lineId, price: '1980', revision },
    })
    expect(res.statusCode, res.body).toBe(200)
    const line = env.emulator.store.shop(DOMAIN)!.contracts.find((c) => String(c.id) === contractId)!
      .lines[0]!
    expect(line.currentPrice).toBe(1980)
  })
})
