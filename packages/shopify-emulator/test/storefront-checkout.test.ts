import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toGid } from '../src/gid.ts'
import type { SellingPlanGroupRecord } from '../src/records.ts'
import type { Emulator } from '../src/server.ts'
import { Carts } from '../src/storefront/cart.ts'
import { placeOrder } from '../src/storefront/checkout.ts'
import { gql, SHOP, smallEmulator, webhookReceiver } from './support/harness.ts'
import * as m from './support/mutations.ts'
import { BUYER, mainTheme, productTemplateWithBlock, shopper } from './support/storefront-client.ts'

// The emulated online store: a product page with the theme's app block, the cart, checkout with
// the demo card, and what the platform makes of the sale (customer, order, contract, webhooks).

const SECRET = 'shpss_storefront'
const DAY = 86_400_000

describe('emulated storefront and checkout', () => {
  let emulator: Emulator
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>
  let baseUrl: string
  const shop = () => emulator.store.shop(SHOP)!
  const weekly = () => shop().sellingPlanGroups.find((g) => g.merchantCode === 'weekly')!
  const product = () => shop().products.find((p) => p.id === weekly().productIds[0])!
  const variant = () => shop().variants.find((v) => v.id === product().variantIds[0])!

  beforeAll(async () => {
    receiver = await webhookReceiver()
    // The theme is arranged with themeFilesUpsert, as a theme developer's tool would (exempt).
    emulator = await smallEmulator({ apiSecret: SECRET, themeFilesExemption: true })
    for (const topic of ['orders/create', 'subscription_contracts/create'])
      emulator.webhooks.subscribe(SHOP, topic, receiver.url)
    baseUrl = (await emulator.listen(0)).url
  })
  afterAll(async () => {
    await emulator.close()
    await receiver.close()
  })

  it('points the Admin API’s onlineStoreUrl at the product page, which hints at the missing block', async () => {
    const data = await gql(emulator, `query($id: ID!) { product(id: $id) { onlineStoreUrl } }`, {
      id: toGid('Product', product().id),
    })
    expect(data.product.onlineStoreUrl).toBe(`${baseUrl}/s/${SHOP}/products/${product().handle}`)
    const page = await shopper(baseUrl, SHOP).get(`/products/${product().handle}`)
    expect(page.status).toBe(200)
    expect(page.text).toContain('テーマの商品ページに Teiki のウィジェットがまだありません')
    expect(page.text).not.toContain('data-teiki-plans')
  })

  it('renders the app block the theme’s product template holds, with its script and stylesheet', async () => {
    await gql(emulator, m.themeFilesUpsert, {
      themeId: toGid('OnlineStoreTheme', mainTheme(emulator, SHOP)!.id),
      files: [
        { filename: 'templates/product.json', body: { type: 'TEXT', value: productTemplateWithBlock() } },
      ],
    })
    const page = await shopper(baseUrl, SHOP).get(`/products/${product().handle}`)
    expect(page.text).toContain('data-teiki-plans data-form="product-form-main"')
    expect(page.text).toContain('<form id="product-form-main"')
    expect(page.text).toContain(`<script src="/s/${SHOP}/assets/teiki-blocks.js" defer></script>`)
    expect(page.text).toContain('毎週お届け（初回20%オフ）')
    expect(page.text).not.toContain('ウィジェットがまだありません')
    const script = await shopper(baseUrl, SHOP).get('/assets/teiki-blocks.js')
    expect(script.status).toBe(200)
    expect(script.text).toContain('data-teiki-plans')
  })

  it('sells a variant on a plan: new customer, order, contract with the plan’s policies, and webhooks', async () => {
    const plan = weekly().sellingPlans[0]!
    const browser = shopper(baseUrl, SHOP)
    const added = await browser.form('/cart/add', {
      id: String(variant().id),
      quantity: '2',
      selling_plan: String(plan.id),
    })
    expect([added.status, added.location]).toEqual([303, `/s/${SHOP}/cart`])
    expect((await browser.get('/cart')).text).toContain(`定期購入: ${plan.name}`)
    expect((await browser.get('/checkout')).text).toContain('デモカードで支払う')
    const contractsBefore = shop().contracts.length
    const paid = await browser.form('/checkout', BUYER)
    expect([paid.status, paid.location]).toEqual([303, `/s/${SHOP}/thank-you`])

    const c = shop().contracts.at(-1)!
    expect(shop().contracts).toHaveLength(contractsBefore + 1)
    const customer = shop().customers.find((x) => x.id === c.customerId)!
    expect(customer).toMatchObject({ email: BUYER.email, displayName: '山田 花子', numberOfOrders: 1 })
    const order = shop().orders.find((o) => o.id === c.originOrderId)!
    // First cycle: 20% off the variant's price, whole yen; shipping ¥550 under ¥5,000.
    const first = Math.round(variant().price * 0.8)
    expect(order).toMatchObject({ customerId: customer.id, contractId: c.id, totalPriceSet: first * 2 + 550 })
    expect(c).toMatchObject({
      status: 'ACTIVE',
      orderIds: [order.id],
      deliveryPrice: 550,
      billingPolicy: { interval: 'WEEK', intervalCount: 1, anchors: [] },
      deliveryPolicy: { interval: 'WEEK', intervalCount: 1, anchors: [] },
    })
    // A weekly plan without anchors: one week after the order, same time of day (Tokyo has no DST).
    expect(c.nextBillingDate! - c.createdAt).toBe(7 * DAY)
    expect(c.lines).toEqual([
      expect.objectContaining({
        variantId: variant().id,
        quantity: 2,
        sellingPlanId: plan.id,
        sellingPlanName: plan.name,
        currentPrice: first,
        pricingPolicy: { basePrice: variant().price, cycleDiscounts: plan.pricingPolicies },
      }),
    ])
    const thanks = await browser.get('/thank-you')
    expect(thanks.text).toContain(`ご注文番号 <strong>#${order.number}</strong>`)
    expect(thanks.text).toContain(`定期購入契約 #${c.id}`)

    await emulator.idle()
    const mine = receiver.received.filter(
      (r) => JSON.parse(r.body).id === order.id || JSON.parse(r.body).id === c.id,
    )
    expect(mine.map((r) => r.headers['x-shopify-topic'])).toEqual([
      'orders/create',
      'subscription_contracts/create',
    ])
    const created = mine[1]!
    expect(created.headers['x-shopify-hmac-sha256']).toBe(
      createHmac('sha256', SECRET).update(created.body).digest('base64'),
    )
    expect(JSON.parse(created.body)).toMatchObject({
      admin_graphql_api_id: toGid('SubscriptionContract', c.id),
      status: 'active',
      origin_order_id: order.id,
      customer_id: customer.id,
    })
  })

  it('the Admin API reads the new contract with its lines’ pricing policies and origin order', async () => {
    const c = shop().contracts.at(-1)!
    const data = await gql(
      emulator,
      `query($id: ID!) { subscriptionContract(id: $id) {
        status nextBillingDate originOrder { id } customer { email }
        lines(first: 5) { nodes { currentPrice { amount } sellingPlanId
          pricingPolicy { basePrice { amount } cycleDiscounts { afterCycle adjustmentType computedPrice { amount } } } } }
      } }`,
      { id: toGid('SubscriptionContract', c.id) },
    )
    const price = variant().price
    expect(data.subscriptionContract).toEqual({
      status: 'ACTIVE',
      nextBillingDate: new Date(c.nextBillingDate!).toISOString().replace('.000', ''),
      originOrder: { id: toGid('Order', c.originOrderId!) },
      customer: { email: BUYER.email },
      lines: {
        nodes: [
          {
            currentPrice: { amount: `${Math.round(price * 0.8)}.0` },
            sellingPlanId: toGid('SellingPlan', c.lines[0]!.sellingPlanId!),
            pricingPolicy: {
              basePrice: { amount: `${price}.0` },
              cycleDiscounts: [
                {
                  afterCycle: 0,
                  adjustmentType: 'PERCENTAGE',
                  computedPrice: { amount: `${Math.round(price * 0.8)}.0` },
                },
                {
                  afterCycle: 1,
                  adjustmentType: 'PERCENTAGE',
                  computedPrice: { amount: `${Math.round(price * 0.9)}.0` },
                },
              ],
            },
          },
        ],
      },
    })
  })

  it('refuses a checkout form with a bad e-mail in Japanese and creates nothing', async () => {
    const browser = shopper(baseUrl, SHOP)
    await browser.form('/cart/add', { id: String(variant().id), quantity: '1' })
    const counts = () => [shop().contracts.length, shop().orders.length, shop().customers.length]
    const before = counts()
    const refused = await browser.form('/checkout', { ...BUYER, email: 'not-an-email' })
    expect(refused.status).toBe(400)
    expect(refused.text).toContain('メールアドレスを正しく入力してください。')
    expect(counts()).toEqual(before)
  })

  it('refuses a plan the variant is not sold on', async () => {
    const other = shop().sellingPlanGroups.find((g) => !g.productIds.includes(product().id))
    const browser = shopper(baseUrl, SHOP)
    const plan = other?.sellingPlans[0]?.id ?? 999_999
    const res = await browser.form('/cart/add', { id: String(variant().id), selling_plan: String(plan) })
    expect(res.status).toBe(422)
    expect((await browser.get('/cart')).text).toContain('カートは空です。')
  })
})

describe('the first billing date of a checkout follows the plan’s anchors and cutoff', () => {
  // platform-facts.md, pre-anchor behaviour: anchor the 15th, orders on 12 January 2023.
  let emulator: Emulator
  beforeAll(async () => {
    emulator = await smallEmulator()
  })
  afterAll(() => emulator.close())

  function anchoredGroup(cutoff: number, preAnchorBehavior: 'ASAP' | 'NEXT'): SellingPlanGroupRecord {
    const s = emulator.store.shop(SHOP)!
    const g = structuredClone(s.sellingPlanGroups[0]!)
    const anchors = [{ type: 'MONTHDAY' as const, day: 15, month: null, cutoffDay: null }]
    const plan = g.sellingPlans[0]!
    plan.billingPolicy = { ...plan.billingPolicy, interval: 'MONTH', intervalCount: 1, anchors }
    plan.deliveryPolicy = {
      ...plan.deliveryPolicy,
      interval: 'MONTH',
      intervalCount: 1,
      anchors,
      cutoff,
      preAnchorBehavior,
    }
    s.sellingPlanGroups[0] = g
    return g
  }

  it.each([
    ['2023-01-12T03:00:00Z', 0, 'ASAP', '2023-01-15T03:00:00.000Z'],
    ['2023-01-12T03:00:00Z', 5, 'ASAP', '2023-02-15T03:00:00.000Z'],
    ['2023-01-15T03:00:00Z', 0, 'ASAP', '2023-02-15T03:00:00.000Z'],
    ['2023-01-12T03:00:00Z', 5, 'NEXT', '2023-03-15T03:00:00.000Z'],
  ] as const)('ordered %s, cutoff %d, %s: next billing %s', (at, cutoff, behaviour, expected) => {
    const s = emulator.store.shop(SHOP)!
    const g = anchoredGroup(cutoff, behaviour)
    const carts = new Carts()
    const cart = carts.get(SHOP, undefined)
    const variantId = s.products.find((p) => p.id === g.productIds[0])!.variantIds[0]!
    carts.add(cart, { variantId, quantity: 1, sellingPlanId: g.sellingPlans[0]!.id, properties: {} })
    const runtime = { emit: () => {} } as never
    const { contracts } = placeOrder(
      { shop: s, store: emulator.store, now: () => Date.parse(at), runtime },
      cart,
      { ...BUYER, deliveryTime: null },
    )
    expect(new Date(contracts[0]!.nextBillingDate!).toISOString()).toBe(expected)
  })
})

describe('app-data metafields and the box block', () => {
  let emulator: Emulator
  let baseUrl: string
  beforeAll(async () => {
    emulator = await smallEmulator({ themeFilesExemption: true })
    baseUrl = (await emulator.listen(0)).url
  })
  afterAll(() => emulator.close())

  it('metafieldsSet keeps the app’s box settings, which the box block renders on the storefront', async () => {
    const s = emulator.store.shop(SHOP)!
    const group = s.sellingPlanGroups[0]!
    const handles = group.productIds.slice(0, 3).map((id) => s.products.find((p) => p.id === id)!.handle)
    const owner = (await gql(emulator, m.appMetafield, { namespace: 'teiki', key: 'boxes' }))
      .currentAppInstallation
    expect(owner.metafield).toBeNull()
    const boxes = [
      {
        id: '1',
        name: 'よりどりボックス',
        minSelection: 2,
        maxSelection: 3,
        sellingPlanIds: group.sellingPlans.map((p) => String(p.id)),
        productHandles: handles,
      },
    ]
    const set = await gql(emulator, m.metafieldsSet, {
      metafields: [
        { ownerId: owner.id, namespace: 'teiki', key: 'boxes', type: 'json', value: JSON.stringify(boxes) },
      ],
    })
    expect(set.metafieldsSet.userErrors).toEqual([])
    expect(set.metafieldsSet.metafields[0]).toMatchObject({
      namespace: 'teiki',
      key: 'boxes',
      type: 'json',
      jsonValue: boxes,
    })
    const read = (await gql(emulator, m.appMetafield, { namespace: 'teiki', key: 'boxes' }))
      .currentAppInstallation.metafield
    expect(read.compareDigest).toBe(set.metafieldsSet.metafields[0].compareDigest)

    await gql(emulator, m.themeFilesUpsert, {
      themeId: toGid('OnlineStoreTheme', mainTheme(emulator, SHOP)!.id),
      files: [
        {
          filename: 'templates/product.json',
          body: { type: 'TEXT', value: productTemplateWithBlock('subscription-box') },
        },
      ],
    })
    const page = await shopper(baseUrl, SHOP).get(`/products/${handles[0]}`)
    expect(page.text).toContain('よりどりボックス')
    expect(page.text).toContain('2〜3個お選びください')
    expect(page.text.match(/class="teiki-box__item"/g)).toHaveLength(handles.length)
  })

  it('refuses, all or nothing: a broken JSON value, another owner, a stale digest', async () => {
    const owner = (await gql(emulator, m.appMetafield, { key: 'x1' })).currentAppInstallation
    const set = (metafields: object[]) => gql(emulator, m.metafieldsSet, { metafields })
    const bad = await set([
      { ownerId: owner.id, namespace: 'teiki', key: 'ok', type: 'json', value: '{}' },
      { ownerId: owner.id, namespace: 'teiki', key: 'broken', type: 'json', value: '{' },
    ])
    expect(bad.metafieldsSet.userErrors).toEqual([
      {
        code: 'INVALID_VALUE',
        elementIndex: 1,
        field: ['metafields', '1', 'value'],
        message: 'Value is invalid for type json',
      },
    ])
    expect(
      (await gql(emulator, m.appMetafield, { namespace: 'teiki', key: 'ok' })).currentAppInstallation
        .metafield,
    ).toBeNull()
    const foreign = await set([
      { ownerId: toGid('Product', 1), namespace: 'teiki', key: 'k', type: 'json', value: '{}' },
    ])
    expect(foreign.metafieldsSet.userErrors[0].field).toEqual(['metafields', '0', 'ownerId'])
    const stale = await set([
      { ownerId: owner.id, namespace: 'teiki', key: 'boxes', value: '[]', compareDigest: 'old' },
    ])
    expect(stale.metafieldsSet.userErrors[0].code).toBe('STALE_OBJECT')
  })
})
