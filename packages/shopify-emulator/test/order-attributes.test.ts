import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toGid } from '../src/gid.ts'
import type { Emulator } from '../src/server.ts'
import { validateAgainstRealSchema } from './support/conformance.ts'
import { gql, SHOP, smallEmulator, webhookReceiver } from './support/harness.ts'
import { BUYER, shopper } from './support/storefront-client.ts'

// An order's note attributes (customAttributes) as the platform keeps them: the cart's
// attributes at checkout (and the contracts' custom attributes), the contract's on a renewal,
// and orderUpdate replacing the list (write_orders, the order readable, orders/updated).

const ORDER_UPDATE = `mutation($input: OrderInput!) {
  orderUpdate(input: $input) { order { id customAttributes { key value } } userErrors { field message } }
}`
const ORDER = `query($id: ID!) { order(id: $id) { customAttributes { key value } } }`

describe('order note attributes', () => {
  let emulator: Emulator
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>
  let baseUrl: string
  const shop = () => emulator.store.shop(SHOP)!

  beforeAll(async () => {
    receiver = await webhookReceiver()
    emulator = await smallEmulator()
    emulator.webhooks.subscribe(SHOP, 'orders/updated', receiver.url)
    baseUrl = (await emulator.listen(0)).url
  })
  afterAll(async () => {
    await emulator.close()
    await receiver.close()
  })

  it('the documents are valid against the real schema', () => {
    expect(validateAgainstRealSchema(ORDER_UPDATE)).toEqual([])
    expect(validateAgainstRealSchema(ORDER)).toEqual([])
  })

  it('the cart’s attributes (set with /cart/update.js) go on the order and the contract', async () => {
    const group = shop().sellingPlanGroups.find((g) => g.merchantCode === 'weekly')!
    const variantId = shop().products.find((p) => p.id === group.productIds[0])!.variantIds[0]!
    const browser = shopper(baseUrl, SHOP)
    const json = (path: string, body: unknown) =>
      browser.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    await json('/cart/add.js', {
      items: [{ id: variantId, quantity: 1, selling_plan: group.sellingPlans[0]!.id }],
    })
    const set = await json('/cart/update.js', {
      attributes: { お届け予定日: '2025-06-05', 配送時間帯: '19時〜21時', 消える: 'x' },
    })
    expect(set.status).toBe(200)
    // An empty value removes a key (the Ajax API's rule); a form post sets keys too.
    await json('/cart/update.js', { attributes: { 消える: '' } })
    await browser.form('/cart/update.js', { 'attributes[ギフト包装]': '希望する' })
    expect(JSON.parse((await browser.get('/cart.js')).text).attributes).toEqual({
      お届け予定日: '2025-06-05',
      配送時間帯: '19時〜21時',
      ギフト包装: '希望する',
    })
    // More than 255 characters is refused and changes nothing.
    expect((await json('/cart/update.js', { attributes: { 長い: 'x'.repeat(256) } })).status).toBe(422)
    const before = shop().orders.length
    const bought = await browser.form('/checkout', { ...BUYER })
    expect(bought.status).toBe(303)
    const order = shop().orders[before]!
    const expected = [
      { key: 'お届け予定日', value: '2025-06-05' },
      { key: '配送時間帯', value: '19時〜21時' },
      { key: 'ギフト包装', value: '希望する' },
    ]
    const read = await gql(emulator, ORDER, { id: toGid('Order', order.id) })
    expect(read.order.customAttributes).toEqual(expected)
    const contract = shop().contracts.find((c) => c.originOrderId === order.id)!
    expect(contract.customAttributes).toEqual(expected)
    // The next cart starts without them.
    expect(JSON.parse((await browser.get('/cart.js')).text).attributes).toEqual({})
  })

  it('orderUpdate replaces the list, tells apps with orders/updated, and refuses what it cannot keep', async () => {
    const order = shop().orders.at(-1)!
    const id = toGid('Order', order.id)
    const attrs = [
      { key: '配送時間帯コード', value: '1921' },
      { key: '定期回数', value: '2' },
    ]
    const before = receiver.received.length
    const done = await gql(emulator, ORDER_UPDATE, { input: { id, customAttributes: attrs } })
    expect(done.orderUpdate).toEqual({ order: { id, customAttributes: attrs }, userErrors: [] })
    expect((await gql(emulator, ORDER, { id })).order.customAttributes).toEqual(attrs)
    await expect.poll(() => receiver.received.length).toBeGreaterThan(before)
    const payload = JSON.parse(receiver.received.at(-1)!.body)
    expect(payload.note_attributes).toEqual([
      { name: '配送時間帯コード', value: '1921' },
      { name: '定期回数', value: '2' },
    ])

    const blank = await gql(emulator, ORDER_UPDATE, {
      input: { id, customAttributes: [{ key: ' ', value: 'x' }] },
    })
    expect(blank.orderUpdate.userErrors).toEqual([
      { field: ['customAttributes', '0', 'key'], message: "Key can't be blank" },
    ])
    const missing = await gql(emulator, ORDER_UPDATE, {
      input: { id: toGid('Order', 999_999_999), customAttributes: [] },
    })
    expect(missing.orderUpdate).toEqual({
      order: null,
      userErrors: [{ field: ['id'], message: 'Order does not exist' }],
    })
    // Nothing of that changed the order.
    expect((await gql(emulator, ORDER, { id })).order.customAttributes).toEqual(attrs)
  })

  it('needs write_orders: without it, ACCESS_DENIED and the order unchanged', async () => {
    const order = shop().orders.at(-1)!
    const scopes = shop().installation.scopes
    shop().installation.scopes = scopes.filter((s) => s !== 'write_orders')
    try {
      const res = await emulator.graphql(SHOP, {
        query: ORDER_UPDATE,
        variables: { input: { id: toGid('Order', order.id), customAttributes: [{ key: 'a', value: 'b' }] } },
      })
      expect(res.errors?.[0]?.extensions?.code).toBe('ACCESS_DENIED')
      expect(res.data?.orderUpdate).toBeNull()
      expect(order.customAttributes?.some((a) => a.key === 'a')).not.toBe(true)
    } finally {
      shop().installation.scopes = scopes
    }
  })

  it('a renewal’s order carries the contract’s custom attributes', async () => {
    const contract = shop().contracts.find((c) => c.status === 'ACTIVE' && c.customAttributes.length > 0)!
    const attempt = await gql(
      emulator,
      `mutation($id: ID!, $key: String!) {
        subscriptionBillingAttemptCreate(subscriptionContractId: $id, subscriptionBillingAttemptInput: { idempotencyKey: $key }) {
          subscriptionBillingAttempt { id } userErrors { message } }
      }`,
      { id: toGid('SubscriptionContract', contract.id), key: `attrs-${contract.id}` },
    )
    expect(attempt.subscriptionBillingAttemptCreate.userErrors).toEqual([])
    const attemptId = attempt.subscriptionBillingAttemptCreate.subscriptionBillingAttempt.id
    const read = async () =>
      (
        await gql(
          emulator,
          `query($id: ID!) { subscriptionBillingAttempt(id: $id) { ready order { customAttributes { key value } } } }`,
          { id: attemptId },
        )
      ).subscriptionBillingAttempt
    await expect.poll(async () => (await read()).ready, { timeout: 5000 }).toBe(true)
    const order = (await read()).order
    if (order === null) return expect.fail('the demo card was declined: pick a contract with a good card')
    expect(order.customAttributes).toEqual(
      contract.customAttributes.map((a) => ({ key: a.key, value: a.value ?? '' })),
    )
  })
})
