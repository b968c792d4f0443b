import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Emulator } from '../src/server.ts'
import { gql, SHOP, smallEmulator } from './support/harness.ts'
import * as m from './support/mutations.ts'
import { BUYER, shopper } from './support/storefront-client.ts'

// The app's web pixel (extensions/teiki-pixel) runs in the emulated store as the platform runs
// it: once the app created it (webPixelCreate), every store page carries the web pixels manager
// and the page's standard events, and the pixel's sandbox script is the extension's own code,
// bundled, under a runtime that calls its `register` with analytics, browser, init and the
// settings the app gave. Here the sandbox runs in a VM context standing for the Web Worker; the
// top frame's part (manager.js) runs in Chromium in e2e/storefront-pixel.test.ts.

const settings = {
  accountID: 'k'.repeat(24),
  ingestUrl: `https://teiki.example.com/pixel/events?shop=${SHOP}`,
  // 設定 › サンクスページの計測タグ (ADR 0039): one for subscription orders, one for every order.
  conversionTags: JSON.stringify([
    {
      url: 'https://px.a8.example/a8fly/earnings?so={order_id}&si={total}.1.{total}.teiki',
      subscriptionOnly: true,
    },
    { url: 'https://ads.example/cv?o={order_id}&c={currency}', subscriptionOnly: false },
  ]),
}
const TARGET = `${settings.ingestUrl}&key=${settings.accountID}`

type Setup = {
  pixel: { id: string; settings: Record<string, unknown> }
  sandboxUrl: string
  init: Record<string, unknown>
  events: Array<{ name: string; data: Record<string, unknown> }>
}
const setupOf = (html: string): Setup | null => {
  const json = /<script type="application\/json" id="web-pixels-manager-setup">(.*?)<\/script>/s.exec(html)
  return json ? (JSON.parse(json[1]!) as Setup) : null
}

type Message = { type: string; id?: number; method?: string; args?: unknown[] }

/** The sandbox script in a context of its own, as a Worker runs it: `self`, postMessage, fetch. */
function sandbox(script: string) {
  const posted: Message[] = []
  const fetched: unknown[][] = []
  const self: { postMessage: (m: Message) => void; onmessage?: (e: { data: unknown }) => void } = {
    postMessage: (message) => posted.push(message),
  }
  runInNewContext(script, {
    self,
    structuredClone,
    console,
    URL,
    fetch: (...args: unknown[]) => {
      fetched.push(args)
      return Promise.resolve({})
    },
  })
  return { posted, fetched, send: (data: unknown) => self.onmessage!({ data }) }
}

/** A standard event as the manager publishes it (the platform's shape). */
const standard = (name: string, data: Record<string, unknown>, href: string, seq = 1) => ({
  id: `sh-test-${name}-${seq}`,
  name,
  type: 'standard',
  seq,
  timestamp: '2026-11-24T01:02:03.000Z',
  clientId: 'client-1',
  context: { document: { location: { href }, referrer: '', title: 't', characterSet: 'UTF-8' } },
  data,
})

const beacons = (posted: Message[]) =>
  posted.filter((p) => p.type === 'call' && p.method === 'sendBeacon').map((p) => p.args!)

describe('the app’s web pixel in the emulated store', () => {
  let emulator: Emulator
  let baseUrl: string
  const shop = () => emulator.store.shop(SHOP)!
  const product = () => shop().products.find((p) => p.status === 'ACTIVE')!
  const plan = () =>
    shop().sellingPlanGroups.find((g) => g.productIds.includes(product().id))?.sellingPlans[0]

  beforeAll(async () => {
    emulator = await smallEmulator()
    baseUrl = (await emulator.listen(0)).url
  })
  afterAll(() => emulator.close())

  it('pages carry no pixel before the app creates one', async () => {
    const page = await shopper(baseUrl, SHOP).get(`/products/${product().handle}`)
    expect(page.status).toBe(200)
    expect(setupOf(page.text)).toBeNull()
    expect((await shopper(baseUrl, SHOP).get('/web-pixels/1/sandbox.js')).status).toBe(404)
  })

  it('after webPixelCreate, every page starts the pixel with the app’s settings and a page_viewed', async () => {
    const created = (await gql(emulator, m.webPixelCreate, { webPixel: { settings } })).webPixelCreate
    expect(created.userErrors).toEqual([])
    const browser = shopper(baseUrl, SHOP)
    for (const path of ['/', `/products/${product().handle}`, '/cart']) {
      const page = await browser.get(path)
      const setup = setupOf(page.text)!
      expect(setup.pixel).toEqual({
        id: String(shop().extra!.webPixel!.id),
        settings,
        runtimeContext: 'strict',
      })
      expect(setup.events).toEqual([{ name: 'page_viewed', data: {} }])
      expect(page.text).toContain(`<script src="/s/${SHOP}/web-pixels-manager.js" defer></script>`)
    }
    const manager = await browser.get('/web-pixels-manager.js')
    expect(manager.status).toBe(200)
    expect(manager.text).toContain('web-pixels-manager-setup')
  })

  it('the sandbox runs the extension’s own code: register gets the settings, page_viewed is sent with its URL', async () => {
    const browser = shopper(baseUrl, SHOP)
    const setup = setupOf((await browser.get('/')).text)!
    const script = await browser.request(setup.sandboxUrl.slice(`/s/${SHOP}`.length))
    expect(script.status).toBe(200)
    // The extension's source is in the bundle, its import of the platform's package resolved.
    expect(script.text).toContain('analytics.subscribe("page_viewed"')
    expect(script.text).not.toMatch(/\bimport\s*\{|from '@shopify/)

    const box = sandbox(script.text)
    box.send({ type: 'init', settings: setup.pixel.settings, init: { data: setup.init }, pixelInfo: {} })
    const href = `${baseUrl}/s/${SHOP}/?utm_source=instagram&utm_medium=social`
    box.send({ type: 'event', event: standard('page_viewed', {}, href) })
    const [beacon] = beacons(box.posted)
    expect(beacon![0]).toBe(TARGET)
    expect(JSON.parse(beacon![1] as string)).toEqual({
      events: [
        {
          id: 'sh-test-page_viewed-1',
          name: 'page_viewed',
          timestamp: '2026-11-24T01:02:03.000Z',
          clientId: 'client-1',
          url: href,
        },
      ],
    })
    // A beacon the browser would not queue falls back to fetch, as the extension says.
    const call = box.posted.find((p) => p.method === 'sendBeacon')!
    box.send({ type: 'result', id: call.id, value: false })
    await new Promise((resolve) => setImmediate(resolve))
    expect(box.fetched).toEqual([[TARGET, { method: 'POST', body: beacon![1], keepalive: true }]])
  })

  it('a completed checkout sends checkout_completed once, with the order it made', async () => {
    const browser = shopper(baseUrl, SHOP)
    const variant = product().variantIds[0]!
    await browser.form('/cart/add', {
      id: String(variant),
      quantity: '1',
      selling_plan: String(plan()?.id ?? ''),
    })
    const cartSetup = setupOf((await browser.get('/cart')).text)!
    expect(cartSetup.init.cart).toMatchObject({
      totalQuantity: 1,
      lines: [{ merchandise: { id: String(variant) } }],
    })
    const paid = await browser.form('/checkout', BUYER)
    expect(paid.status).toBe(303)
    const thanks = setupOf((await browser.get('/thank-you')).text)!
    const order = shop().orders.at(-1)!
    expect(thanks.events.map((e) => e.name)).toEqual(['page_viewed', 'checkout_completed'])
    const checkout = (thanks.events[1]!.data as { checkout: Record<string, unknown> }).checkout
    expect(checkout).toMatchObject({
      email: BUYER.email,
      currencyCode: 'JPY',
      order: { id: String(order.id), customer: { id: String(order.customerId) } },
      totalPrice: { amount: order.totalPriceSet, currencyCode: 'JPY' },
      lineItems: [{ quantity: 1, variant: { id: String(variant) } }],
    })
    // Once per checkout: the page again is only a page view.
    expect(setupOf((await browser.get('/thank-you')).text)!.events.map((e) => e.name)).toEqual([
      'page_viewed',
    ])

    const box = sandbox((await browser.request(thanks.sandboxUrl.slice(`/s/${SHOP}`.length))).text)
    box.send({ type: 'init', settings: thanks.pixel.settings, init: { data: thanks.init }, pixelInfo: {} })
    box.send({ type: 'event', event: standard('checkout_completed', thanks.events[1]!.data, baseUrl, 2) })
    const [beacon] = beacons(box.posted)
    expect(JSON.parse(beacon![1] as string).events).toEqual([
      expect.objectContaining({ name: 'checkout_completed', orderId: String(order.id) }),
    ])
    // The 計測タグ: the line was bought on a selling plan, so both are requested, filled in.
    expect(checkout.lineItems).toEqual([
      expect.objectContaining({
        sellingPlanAllocation: {
          sellingPlan: { id: `gid://shopify/SellingPlan/${plan()!.id}`, name: plan()!.name },
        },
      }),
    ])
    const tagOptions = { method: 'GET', mode: 'no-cors', credentials: 'omit', keepalive: true }
    expect(box.fetched).toEqual([
      [
        `https://px.a8.example/a8fly/earnings?so=${order.id}&si=${order.totalPriceSet}.1.${order.totalPriceSet}.teiki`,
        tagOptions,
      ],
      [`https://ads.example/cv?o=${order.id}&c=JPY`, tagOptions],
    ])
  })

  it('a deleted pixel is gone from the pages', async () => {
    const id = `gid://shopify/WebPixel/${shop().extra!.webPixel!.id}`
    expect((await gql(emulator, m.webPixelDelete, { id })).webPixelDelete.userErrors).toEqual([])
    expect(setupOf((await shopper(baseUrl, SHOP).get('/')).text)).toBeNull()
  })
})
