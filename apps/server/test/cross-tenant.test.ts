import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setShopFlag } from '../src/features/shop-flags/service.ts'
import { inBatches, rawRequest, shopDataDigest } from './support/raw-http.ts'
import { type ShopIds, startTwoShops, type TwoShops } from './support/two-shops.ts'

// Issue 11 item 3, cross-tenant: shop B, correctly authenticated, names shop A's real ids
// (contracts, lines, customers, variants, payment methods, reasons, exports, billing runs) on
// every route that takes an id, alone or mixed with its own. It gets 404 or 400, sees nothing
// of A, changes nothing of A, and no platform call is made for A.

let env: TwoShops
beforeAll(async () => {
  env = await startTwoShops('x')
  // B may use parent products: its refusals of A's ids are then about the ids, not the flag.
  await setShopFlag(env.pool, env.b.id, 'parent_products', true)
}, 120_000)
afterAll(() => env?.close())

type Call = { path: string; body?: unknown }
const address = {
  lastName: '山田',
  firstName: '花子',
  zip: '150-0001',
  provinceCode: 'JP-13',
  city: '渋谷区',
  address1: '神宮前1-1-1',
}

/**
 * What B sends on each route that takes an id: `a` is the other shop's ids, `b` B's own.
 * The key is the route as registered; a suffix after `#` names a second mix on one route.
 */
const CALLS: Record<string, (a: ShopIds, b: ShopIds) => Call> = {
  'GET /app-admin/subscriptions/:contractId': (a) => ({ path: `/subscriptions/${a.contractId}` }),
  'GET /app-admin/subscriptions/:id/next-delivery-date': (a) => ({
    path: `/subscriptions/${a.contractId}/next-delivery-date`,
  }),
  'PUT /app-admin/subscriptions/:id/next-delivery-date': (a) => ({
    path: `/subscriptions/${a.contractId}/next-delivery-date`,
    body: { nextDeliveryDate: '2027-01-20' },
  }),
  'PUT /app-admin/subscription-contracts/:id/specify-delivery-time': (a) => ({
    path: `/subscription-contracts/${a.contractId}/specify-delivery-time`,
    body: { deliveryTime: 'AM' },
  }),
  'PUT /app-admin/next-billing-date': (a) => ({
    path: '/next-billing-date',
    body: { contractId: a.contractId, nextBillingDate: '2027-01-10' },
  }),
  'PUT /app-admin/interval-and-interval-count': (a) => ({
    path: '/interval-and-interval-count',
    body: { contractId: a.contractId, interval: 'MONTH', intervalCount: 2 },
  }),
  'POST /app-admin/create-order-now': (a) => ({
    path: '/create-order-now',
    body: { contractId: a.contractId },
  }),
  'POST /app-admin/subscriptions/:id/lines': (a) => ({
    path: `/subscriptions/${a.contractId}/lines`,
    body: { variantId: a.variantId },
  }),
  "POST /app-admin/subscriptions/:id/lines#own contract, A's variant": (a, b) => ({
    path: `/subscriptions/${b.contractId}/lines`,
    body: { variantId: a.variantId },
  }),
  'DELETE /app-admin/subscriptions/:contractId/lines/:lineId': (a) => ({
    path: `/subscriptions/${a.contractId}/lines/${a.lineId}`,
  }),
  "DELETE /app-admin/subscriptions/:contractId/lines/:lineId#own contract, A's line": (a, b) => ({
    path: `/subscriptions/${b.contractId}/lines/${a.lineId}`,
  }),
  'PUT /app-admin/subscriptions/:contractId/:lineId/quantity': (a) => ({
    path: `/subscriptions/${a.contractId}/${a.lineId}/quantity`,
    body: { quantity: 3 },
  }),
  "PUT /app-admin/subscriptions/:contractId/:lineId/quantity#own contract, A's line": (a, b) => ({
    path: `/subscriptions/${b.contractId}/${a.lineId}/quantity`,
    body: { quantity: 3 },
  }),
  'POST /app-admin/subscription-contracts/:id/price-manually-changed': (a) => ({
    path: `/subscription-contracts/${a.contractId}/price-manually-changed`,
    body: { lineId: a.lineId, price: '100' },
  }),
  "POST /app-admin/subscription-contracts/:id/price-manually-changed#own contract, A's line": (a, b) => ({
    path: `/subscription-contracts/${b.contractId}/price-manually-changed`,
    body: { lineId: a.lineId, price: '100' },
  }),
  'PUT /app-admin/subscriptions/:contractId/:lineId/product-variant': (a) => ({
    path: `/subscriptions/${a.contractId}/${a.lineId}/product-variant`,
    body: { variantId: a.variantId },
  }),
  "PUT /app-admin/subscriptions/:contractId/:lineId/product-variant#own line, A's variant": (a, b) => ({
    path: `/subscriptions/${b.contractId}/${b.lineId}/product-variant`,
    body: { variantId: a.variantId },
  }),
  'PUT /app-admin/subscription-contracts/:id/note': (a) => ({
    path: `/subscription-contracts/${a.contractId}/note`,
    body: { note: 'B のメモ' },
  }),
  'GET /app-admin/subscription-contracts/:id/order-count': (a) => ({
    path: `/subscription-contracts/${a.contractId}/order-count`,
  }),
  'PUT /app-admin/subscription-contracts/:id/order-count': (a) => ({
    path: `/subscription-contracts/${a.contractId}/order-count`,
    body: { count: 7 },
  }),
  'PUT /app-admin/subscriptions/:id/delivery-address': (a) => ({
    path: `/subscriptions/${a.contractId}/delivery-address`,
    body: { address },
  }),
  'GET /app-admin/subscription-contracts/:id/payment-methods': (a) => ({
    path: `/subscription-contracts/${a.contractId}/payment-methods`,
  }),
  'PUT /app-admin/modify-payment-method': (a) => ({
    path: '/modify-payment-method',
    body: { contractId: a.contractId, paymentMethodId: a.paymentMethodId },
  }),
  "PUT /app-admin/modify-payment-method#own contract, A's payment method": (a, b) => ({
    path: '/modify-payment-method',
    body: { contractId: b.contractId, paymentMethodId: a.paymentMethodId },
  }),
  'POST /app-admin/subscription-contracts/:id/payment-method-update-email': (a) => ({
    path: `/subscription-contracts/${a.contractId}/payment-method-update-email`,
  }),
  'GET /app-admin/subscriptions/:id/discount-code/': (a) => ({
    path: `/subscriptions/${a.contractId}/discount-code/`,
  }),
  'PUT /app-admin/subscriptions/:id/discount-code/apply': (a) => ({
    path: `/subscriptions/${a.contractId}/discount-code/apply`,
    body: { discountCode: 'WELCOME10' },
  }),
  'DELETE /app-admin/subscriptions/:id/discount-code/:code': (a) => ({
    path: `/subscriptions/${a.contractId}/discount-code/WELCOME10`,
  }),
  'POST /app-admin/pause': (a) => ({
    path: '/pause',
    body: { contractId: a.contractId, customerId: a.customerId },
  }),
  'POST /app-admin/resume': (a) => ({
    path: '/resume',
    body: { contractId: a.contractId, customerId: a.customerId },
  }),
  'POST /app-admin/churn': (a) => ({
    path: '/churn',
    body: { contractId: a.contractId, customerId: a.customerId, reasonId: a.reasonId },
  }),
  "POST /app-admin/churn#own contract, A's customer": (a, b) => ({
    path: '/churn',
    body: { contractId: b.contractId, customerId: a.customerId },
  }),
  "POST /app-admin/churn#own contract, A's reason": (a, b) => ({
    path: '/churn',
    body: { contractId: b.contractId, customerId: b.customerId, reasonId: a.reasonId },
  }),
  'PUT /app-admin/cancellation-reasons/:id': (a) => ({
    path: `/cancellation-reasons/${a.reasonId}`,
    body: { reason: 'B が書き換えた理由' },
  }),
  'DELETE /app-admin/cancellation-reasons/:id': (a) => ({ path: `/cancellation-reasons/${a.reasonId}` }),
  'PUT /app-admin/retention-offers/:id': (a) => ({
    path: `/retention-offers/${a.reasonId}`,
    body: { offer: { kind: 'percent', percent: 50, orders: 1 } },
  }),
  'GET /app-admin/subscription-contracts/:id/cancellation-reason': (a) => ({
    path: `/subscription-contracts/${a.contractId}/cancellation-reason`,
  }),
  'GET /app-admin/products/variants/:id': (a) => ({ path: `/products/variants/${a.variantId}` }),
  'GET /app-admin/themes/:id/templates/:t/app-block-support': (a) => ({
    path: `/themes/${a.themeId}/templates/product/app-block-support`,
  }),
  'POST /app-admin/themes/:id/product-page-widget': (a) => ({
    path: `/themes/${a.themeId}/product-page-widget`,
  }),
  'PUT /app-admin/add-theme-section/:themeId': (a) => ({
    path: `/add-theme-section/${a.themeId}`,
    body: { sectionName: 'teiki-x', content: '<p>x</p>', userTimeStamp: '20261125093000' },
  }),
  'DELETE /app-admin/script-tags/:id': (a) => ({ path: `/script-tags/${a.scriptTagId}` }),
  'GET /app-admin/export-subscription-contracts/:id': (a) => ({
    path: `/export-subscription-contracts/${a.exportId}`,
  }),
  'GET /app-admin/export-subscription-contracts/:id/download': (a) => ({
    path: `/export-subscription-contracts/${a.exportId}/download`,
  }),
  'GET /app-admin/subscriptions/sellingPlanGroups/:id/sellingPlans': (a) => ({
    path: `/subscriptions/sellingPlanGroups/${a.sellingPlanGroupId}/sellingPlans`,
  }),
  'GET /app-admin/selling-plan-groups/:id': (a) => ({ path: `/selling-plan-groups/${a.sellingPlanGroupId}` }),
  'PUT /app-admin/selling-plan-groups/:id': (a) => ({
    path: `/selling-plan-groups/${a.sellingPlanGroupId}`,
    body: {
      name: 'B',
      plans: [{ name: 'B', interval: 'MONTH', intervalCount: 1, minCycles: 1, discountType: 'noDiscount' }],
    },
  }),
  "PUT /app-admin/selling-plan-groups/:id#own group, A's plan": (a, b) => ({
    path: `/selling-plan-groups/${b.sellingPlanGroupId}`,
    body: {
      name: 'B',
      plans: [
        {
          id: a.sellingPlanId,
          name: 'B',
          interval: 'MONTH',
          intervalCount: 1,
          minCycles: 1,
          discountType: 'noDiscount',
        },
      ],
    },
  }),
  'DELETE /app-admin/selling-plan-groups/:id': (a) => ({
    path: `/selling-plan-groups/${a.sellingPlanGroupId}`,
  }),
  'POST /app-admin/selling-plan-groups/:id/products': (a) => ({
    path: `/selling-plan-groups/${a.sellingPlanGroupId}/products`,
    body: { addProductIds: [a.productId] },
  }),
  "POST /app-admin/selling-plan-groups/:id/products#own group, A's product": (a, b) => ({
    path: `/selling-plan-groups/${b.sellingPlanGroupId}/products`,
    body: { addProductIds: [a.productId] },
  }),
  'GET /app-admin/selling-plan-groups/:id/variants': (a) => ({
    path: `/selling-plan-groups/${a.sellingPlanGroupId}/variants`,
  }),
  'PUT /app-admin/selling-plan-groups/:id/sync': (a) => ({
    path: `/selling-plan-groups/${a.sellingPlanGroupId}/sync`,
  }),
  'GET /app-admin/selling-plans/:id/custom-cycle-discounts': (a) => ({
    path: `/selling-plans/${a.sellingPlanId}/custom-cycle-discounts`,
  }),
  'PUT /app-admin/selling-plans/:id/custom-cycle-discounts': (a) => ({
    path: `/selling-plans/${a.sellingPlanId}/custom-cycle-discounts`,
    body: { adjustmentType: 'PERCENTAGE', cycleDiscounts: [{ cycle: 1, value: 50 }] },
  }),
  'DELETE /app-admin/selling-plans/:id/custom-cycle-discounts-all': (a) => ({
    path: `/selling-plans/${a.sellingPlanId}/custom-cycle-discounts-all`,
  }),
  'GET /app-admin/selling-plans/:id/selling-plan-group-id': (a) => ({
    path: `/selling-plans/${a.sellingPlanId}/selling-plan-group-id`,
  }),
  'GET /app-admin/selling-plan-groups/:id/variants/:variantId/parent': (a) => ({
    path: `/selling-plan-groups/${a.sellingPlanGroupId}/variants/0/parent`,
  }),
  "GET /app-admin/selling-plan-groups/:id/variants/:variantId/parent#own group, A's variant": (a, b) => ({
    path: `/selling-plan-groups/${b.sellingPlanGroupId}/variants/${a.variantId}/parent`,
  }),
  'PUT /app-admin/selling-plan-groups/:id/variants/:variantId/parent': (a) => ({
    path: `/selling-plan-groups/${a.sellingPlanGroupId}/variants/0/parent`,
    body: { parentVariantId: a.variantId },
  }),
  "PUT /app-admin/selling-plan-groups/:id/variants/:variantId/parent#own group, A's parent": (a, b) => ({
    path: `/selling-plan-groups/${b.sellingPlanGroupId}/variants/0/parent`,
    body: { parentVariantId: a.variantId },
  }),
  'GET /app-admin/free-shipping-profile/exist': (a) => ({
    path: `/free-shipping-profile/exist?sellingPlanGroupId=${a.sellingPlanGroupId}`,
  }),
  'GET /app-admin/free-shipping-profile/update': (a) => ({
    path: `/free-shipping-profile/update?sellingPlanGroupId=${a.sellingPlanGroupId}&free=true`,
  }),
  'POST /app-admin/batch-product-update': (a, b) => ({
    path: '/batch-product-update',
    body: { variantIdFrom: a.variantId, variantIdTo: b.variantId },
  }),
  'POST /app-admin/batch-product-delete': (a) => ({
    path: '/batch-product-delete',
    body: { variantId: a.variantId },
  }),
  'GET /app-admin/batch-product-delete/preview': (a) => ({
    path: `/batch-product-delete/preview?variantId=${a.variantId}`,
  }),
  'GET /app-admin/batch-updates/:id': (a) => ({ path: `/batch-updates/${a.batchId}` }),
  'GET /app-admin/batch-updates/:id/items': (a) => ({ path: `/batch-updates/${a.batchId}/items` }),
  'POST /app-admin/batch-updates/:id/cancel': (a) => ({ path: `/batch-updates/${a.batchId}/cancel` }),
  'POST /app-admin/boxes': (a) => ({ path: '/boxes', body: { sellingPlanGroupId: a.sellingPlanGroupId } }),
  'GET /app-admin/boxes/:id': (a) => ({ path: `/boxes/${a.boxId}` }),
  'PUT /app-admin/boxes/:id': (a) => ({ path: `/boxes/${a.boxId}`, body: { name: 'B のボックス名' } }),
  "PUT /app-admin/boxes/:id#own box, A's group": (a, b) => ({
    path: `/boxes/${b.boxId}`,
    body: { sellingPlanGroupId: a.sellingPlanGroupId },
  }),
  'DELETE /app-admin/boxes/:id': (a) => ({ path: `/boxes/${a.boxId}` }),
  'GET /app-admin/cdp-segment-data': (a) => ({ path: `/cdp-segment-data?segmentId=${a.segmentId}` }),
  'GET /app-admin/cdp-customer-list': (a) => ({ path: `/cdp-customer-list?segmentId=${a.segmentId}` }),
  'GET /app-admin/cdp-segment-delete': (a) => ({ path: `/cdp-segment-delete?segmentId=${a.segmentId}` }),
  'POST /app-admin/cdp-segment-update': (a) => ({
    path: '/cdp-segment-update',
    body: { data: { id: a.segmentId, name: 'B の名前', conditions: {} } },
  }),
  'POST /app-admin/cdp-customer-list-export': (a) => ({
    path: '/cdp-customer-list-export',
    body: { segmentId: a.segmentId, email: 'b@example.jp' },
  }),
  'GET /app-admin/cdp-customer-data': (a) => ({ path: `/cdp-customer-data?customerId=${a.customerId}` }),
  'GET /app-admin/cdp-log-data': (a) => ({ path: `/cdp-log-data?customerId=${a.customerId}` }),
  'POST /app-admin/cdp-customer-tag-add/': (a) => ({
    path: '/cdp-customer-tag-add/',
    body: { customerId: a.customerId, tags: ['B のタグ'] },
  }),
  'POST /app-admin/cdp-customer-tag-add/#a segment': (a) => ({
    path: '/cdp-customer-tag-add/',
    body: { segmentId: a.segmentId, tags: ['B のタグ'] },
  }),
  'POST /app-admin/cdp-customer-tag-delete/': (a) => ({
    path: '/cdp-customer-tag-delete/',
    body: { customerId: a.customerId, tags: ['定期購入者'] },
  }),
  // Issue 16: A's variant on B's my page (not in B's catalogue: 404); a template "type" that is
  // one of A's ids is no mail (400), whatever the method.
  'POST /app-admin/my-page-target-product-variants': (a) => ({
    path: '/my-page-target-product-variants',
    body: { variantIds: [a.variantId] },
  }),
  'DELETE /app-admin/my-page-target-product-variants': (a) => ({
    path: `/my-page-target-product-variants?variantId=${a.variantId}`,
  }),
  'GET /app-admin/mail-template/:type': (a) => ({ path: `/mail-template/${a.contractId}` }),
  'PUT /app-admin/mail-template/:type': (a) => ({
    path: `/mail-template/${a.contractId}`,
    body: { title: '件名', body: '本文', signature: '' },
  }),
  'DELETE /app-admin/mail-template/:type': (a) => ({ path: `/mail-template/${a.contractId}` }),
  'POST /app-admin/test-mail/:type': (a) => ({
    path: `/test-mail/${a.contractId}`,
    body: { email: 'someone@example.jp' },
  }),
}

/** Lists and searches B may call with A's ids as filters: 200, and none of A's rows. */
const LISTS: Record<string, (a: ShopIds) => string> = {
  'GET /app-admin/subscriptions/search': (a) => `/subscriptions/search?contractId=${a.contractId}`,
  'GET /app-admin/subscriptions/search#by customer': (a) =>
    `/subscriptions/search?customerQuery=${a.customerEmail}`,
  'GET /app-admin/subscriptions/search-variant-id': (a) =>
    `/subscriptions/search-variant-id?variantId=${a.variantId}`,
  'GET /app-admin/products/variants/search': (a) => `/products/variants/search?query=${a.variantId}`,
  'GET /app-admin/cancellation-reasons': () => '/cancellation-reasons',
  'GET /app-admin/export-subscription-contracts': () => '/export-subscription-contracts',
  'GET /app-admin/billing/runs': () => '/billing/runs',
  'GET /app-admin/billing/upcoming': () => '/billing/upcoming?days=31',
  'GET /app-admin/subscription-contracts/cancellation-reasons-grouped-by': () =>
    '/subscription-contracts/cancellation-reasons-grouped-by',
  'GET /app-admin/subscriptions/sellingPlanGroups': () => '/subscriptions/sellingPlanGroups',
  'GET /app-admin/boxes': () => '/boxes',
  'GET /app-admin/products': () => '/products',
  'GET /app-admin/mail-template/:type#B’s own, previewed with B’s newest contract': () =>
    '/mail-template/pause',
  'GET /app-admin/my-page-target-product-variants': () => '/my-page-target-product-variants',
  // A's group and plan as filters: B's own (empty) cohorts, nothing of A's contracts.
  'GET /app-admin/subscriptions/persistence-rate': (a) =>
    `/subscriptions/persistence-rate?baseDate=2024-1-1&sellingPlanGroupId=${a.sellingPlanGroupId}&sellingPlanId=${a.sellingPlanId}`,
}

function asB(method: string, path: string, body?: unknown) {
  const { b } = env
  const sep = path.includes('?') ? '&' : '?'
  const url = `/app-admin${path}${sep}shop=${b.domain}&secret=${b.secret}`
  const json = body === undefined ? undefined : JSON.stringify(body)
  return rawRequest(
    env.base,
    method,
    url,
    json === undefined
      ? { accept: 'application/json' }
      : { accept: 'application/json', 'content-type': 'application/json' },
    json,
  )
}

/** Route keys (method + pattern) that take an id: a path parameter, or an id field in the body or query. */
function routesTakingIds(): string[] {
  const spec = env.app.swagger() as {
    paths: Record<
      string,
      Record<string, { parameters?: Array<{ name: string; in: string }>; requestBody?: unknown }>
    >
  }
  const keys: string[] = []
  for (const route of env.app.routeList) {
    if (route.config.auth !== 'shop' || route.method === 'HEAD') continue
    const operation = spec.paths[route.url.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()]
    const bodyFields = Object.keys(
      (operation?.requestBody as { content?: Record<string, { schema?: { properties?: object } }> })
        ?.content?.['application/json']?.schema?.properties ?? {},
    )
    const queryFields = (operation?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name)
    const idField = [...bodyFields, ...queryFields].some((name) => /id$/i.test(name))
    if (route.url.includes(':') || idField) keys.push(`${route.method} ${route.url}`)
  }
  return keys
}

describe('cross-tenant: shop B with shop A’s ids', () => {
  it('covers every route that takes an id', () => {
    const covered = new Set([...Object.keys(CALLS), ...Object.keys(LISTS)].map((key) => key.split('#')[0]))
    expect(routesTakingIds().filter((key) => !covered.has(key))).toEqual([])
  })

  it('answers 404 or 400 on every id route, shows nothing of A and changes nothing of A', async () => {
    const { a, b, ids } = env
    const before = await shopDataDigest(env.pool, [a.id])
    const platformA = JSON.stringify(env.emulator.store.shop(a.domain))
    const calls = env.emulator.callLog.length
    const answers = await inBatches(
      Object.entries(CALLS).map(([key, make]) => async () => {
        const call = make(ids.a, ids.b)
        const res = await asB(key.split(' ')[0]!, call.path, call.body)
        return { key, status: res.status, body: res.body }
      }),
      4,
    )
    // One mix is the platform's to judge: a payment method id is not in the mirror, so the
    // platform refuses another shop's (422, "does not exist") and nothing is changed.
    const platformJudged = new Set([
      "PUT /app-admin/modify-payment-method#own contract, A's payment method",
      // A product id is not looked up in the mirror: the platform, asked with B's token, does
      // not know A's product (422, "does not exist") and B's group is left as it was.
      "POST /app-admin/selling-plan-groups/:id/products#own group, A's product",
    ])
    const wrong = answers.filter(
      (r) => r.status !== 404 && r.status !== 400 && !(platformJudged.has(r.key) && r.status === 422),
    )
    expect(wrong.map((r) => `${r.key} → ${r.status} ${r.body.slice(0, 160)}`)).toEqual([])
    for (const answer of answers) {
      expect(JSON.parse(answer.body), answer.key).toMatchObject({ error: { code: expect.any(String) } })
      expect(answer.body, answer.key).not.toContain(ids.a.customerEmail)
      expect(answer.body, answer.key).not.toContain(a.domain)
    }
    expect(await shopDataDigest(env.pool, [a.id])).toEqual(before)
    expect(JSON.stringify(env.emulator.store.shop(a.domain))).toBe(platformA)
    expect(env.emulator.callLog.slice(calls).filter((c) => c.shop === a.domain)).toEqual([])
    expect(b.domain).not.toBe(a.domain)
  }, 60_000)

  it('lists and searches of B hold none of A’s rows, whatever ids they filter by', async () => {
    const { ids } = env
    const forbidden = [
      `"${ids.a.sellingPlanGroupId}"`,
      `"${ids.a.productId}"`,
      ids.a.contractId,
      ids.a.customerEmail,
      ids.a.exportId,
      env.a.domain,
    ]
    // The app's own ids (a box, a reason) are small numbers from the database's sequences: B's
    // run "2" is not A's box "2", so they are looked for as ids of their own kind.
    const ownKind: Record<string, string> = {
      'GET /app-admin/boxes': `"id":"${ids.a.boxId}"`,
      'GET /app-admin/cancellation-reasons': `"id":"${ids.a.reasonId}"`,
    }
    for (const [key, make] of Object.entries(LISTS)) {
      const res = await asB('GET', make(ids.a))
      expect(res.status, `${key} ${res.body.slice(0, 160)}`).toBe(200)
      for (const value of [...forbidden, ...(ownKind[key] ? [ownKind[key]] : [])]) {
        expect(res.body, `${key} shows ${value}`).not.toContain(value)
      }
    }
    // B's own rows are there: the lists work, they are just B's.
    const reasons = await asB('GET', '/cancellation-reasons')
    expect(reasons.body).toContain(`"id":"${ids.b.reasonId}"`)
    expect((await asB('GET', '/boxes')).body).toContain(`"id":"${ids.b.boxId}"`)
    const runs = await asB('GET', '/billing/runs')
    expect(runs.body).toContain(`"${ids.b.billingRunId}"`)
    expect(runs.body).not.toContain(`"${ids.a.billingRunId}"`)
  })
})
