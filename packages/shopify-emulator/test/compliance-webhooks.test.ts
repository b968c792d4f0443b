import { createHmac } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { GRAPHQL_PATH } from '../src/http.ts'
import type { Emulator } from '../src/server.ts'
import { gql, SHOP, smallEmulator, webhookReceiver } from './support/harness.ts'
import * as m from './support/mutations.ts'

type Receiver = Awaited<ReturnType<typeof webhookReceiver>>

describe('uninstall and compliance webhooks', () => {
  const open: Array<Emulator | Receiver> = []
  afterEach(async () => {
    for (const x of open.splice(0)) await x.close()
  })

  /** The app's endpoint subscribed to no topic at all: compliance topics come unasked. */
  const setUp = async (status?: (n: number) => number) => {
    const receiver = await webhookReceiver(status)
    const emulator = await smallEmulator({
      apiSecret: 'secret',
      webhooks: { callbackUrl: receiver.url, topics: ['app/uninstalled'] },
    })
    open.push(emulator, receiver)
    return { emulator, receiver, shop: emulator.store.shop(SHOP)! }
  }
  const signed = (r: Receiver['received'][number]) =>
    r.headers['x-shopify-hmac-sha256'] === createHmac('sha256', 'secret').update(r.body).digest('base64')

  it('revokes the token before app/uninstalled goes out, then answers 401 to it', async () => {
    let revokedWhenReceived: boolean | null = null
    const { emulator, receiver, shop } = await setUp(() => {
      revokedWhenReceived = emulator.store.shopByToken(token) === undefined
      return 200
    })
    const { accessToken: token } = emulator.install(SHOP)
    const { url } = await emulator.listen(0)
    emulator.uninstall(SHOP)
    await emulator.idle()
    expect(receiver.topics()).toEqual(['app/uninstalled'])
    expect(revokedWhenReceived).toBe(true)
    expect(signed(receiver.received[0]!)).toBe(true)
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({
      id: shop.info.id,
      name: shop.info.name,
      myshopify_domain: SHOP,
      domain: shop.info.primaryDomain.host,
    })
    const res = await fetch(`${url}${GRAPHQL_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shopify-access-token': token },
      body: JSON.stringify({ query: '{ shop { id } }' }),
    })
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({
      errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
    })
  })

  it('sends customers/redact and customers/data_request with the real payloads, signed', async () => {
    const { emulator, receiver, shop } = await setUp()
    const customer = shop.customers.find((c) => shop.orders.some((o) => o.customerId === c.id))!
    const orders = shop.orders.filter((o) => o.customerId === customer.id).map((o) => o.id)
    emulator.redactCustomer(SHOP, customer.id)
    emulator.requestCustomerData(SHOP, customer.id)
    await emulator.idle()
    expect(receiver.topics()).toEqual(['customers/redact', 'customers/data_request'])
    expect(receiver.received.every(signed)).toBe(true)
    const [redact, request] = receiver.received.map((r) => JSON.parse(r.body))
    const who = {
      shop_id: shop.info.id,
      shop_domain: SHOP,
      customer: { id: customer.id, email: customer.email, phone: customer.phone },
    }
    expect(redact).toEqual({ ...who, orders_to_redact: orders })
    expect(request).toEqual({ ...who, orders_requested: orders, data_request: { id: expect.any(Number) } })
    expect(orders.length).toBeGreaterThan(0)
    expect(() => emulator.redactCustomer(SHOP, 1)).toThrow(/no customer 1/)
  })

  it('sends shop/redact only for a shop whose app was uninstalled', async () => {
    const { emulator, receiver, shop } = await setUp()
    emulator.install(SHOP)
    expect(() => emulator.redactShop(SHOP)).toThrow(/installed/)
    emulator.uninstall(SHOP)
    emulator.redactShop(SHOP)
    await emulator.idle()
    expect(receiver.topics()).toEqual(['app/uninstalled', 'shop/redact'])
    expect(JSON.parse(receiver.received[1]!.body)).toEqual({ shop_id: shop.info.id, shop_domain: SHOP })
  })

  it('gives every delivery of one event the same X-Shopify-Event-Id and its own webhook id', async () => {
    const { emulator, receiver } = await setUp()
    emulator.webhooks.subscribe(SHOP, 'subscription_contracts/pause', receiver.url)
    emulator.webhooks.subscribe(SHOP, 'subscription_contracts/pause', `${receiver.url}?copy`)
    const contract = emulator.store.shop(SHOP)!.contracts.find((c) => c.status === 'ACTIVE')!
    await gql(emulator, m.contractPause, { id: `gid://shopify/SubscriptionContract/${contract.id}` })
    await emulator.idle()
    const pauses = receiver.received.filter(
      (r) => r.headers['x-shopify-topic'] === 'subscription_contracts/pause',
    )
    expect(pauses).toHaveLength(2)
    expect(pauses[0]!.headers['x-shopify-event-id']).toBe(pauses[1]!.headers['x-shopify-event-id'])
    expect(pauses[0]!.headers['x-shopify-webhook-id']).not.toBe(pauses[1]!.headers['x-shopify-webhook-id'])
  })
})
