import { createHmac } from 'node:crypto'
import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from '../src/emulator-api.ts'
import type { Emulator } from '../src/server.ts'
import { SHOP, smallEmulator, webhookReceiver } from './support/harness.ts'
import { BUYER, shopper } from './support/storefront-client.ts'

// The app's thank-you block (extensions/teiki-thank-you) on the emulated thank-you page, as the
// platform runs a checkout UI extension: the extension's own code bundled with the app's URL,
// in a sandbox without DOM that posts its component tree; its session token a JWT signed with
// the app's secret for the shop (bare `dest`), issued only inside a completed checkout. The
// sandbox runs here in a VM context standing for the Web Worker; Chromium runs it in e2e.

type Setup = {
  mountId: string
  target: string
  networkAccess: boolean
  workerUrl: string
  tokenUrl: string
  orderConfirmation: { order: { id: string } }
}
const setupOf = (html: string): Setup | null => {
  const json = /<script type="application\/json" id="checkout-ui-setup">(.*?)<\/script>/s.exec(html)
  return json ? (JSON.parse(json[1]!) as Setup) : null
}

type Tree = Array<string | { type: string; props: Record<string, unknown>; children: Tree }>
const words = (tree: Tree): string[] => tree.flatMap((n) => (typeof n === 'string' ? [n] : words(n.children)))

/** The worker script in a context of its own: `self`, postMessage, and the fetch the test answers. */
function sandbox(script: string, answer: (url: string, init?: RequestInit) => Promise<Response>) {
  const trees: Tree[] = []
  // In a worker `self` is the global object: a fetch replaced on `self` is the code's `fetch`.
  const self: Record<string, unknown> & { onmessage?: (e: { data: unknown }) => void } = {
    postMessage: (m: { type: string; tree: Tree }) => m.type === 'tree' && trees.push(m.tree),
    fetch: answer,
    console,
    queueMicrotask,
    setTimeout,
    URL,
    Headers,
  }
  self.self = self
  runInNewContext(script, self)
  return { trees, start: (setup: Setup) => self.onmessage!({ data: { type: 'init', setup } }) }
}

const decode = (token: string) => {
  const [head, body, signature] = token.split('.') as [string, string, string]
  const expected = createHmac('sha256', DEFAULT_API_SECRET).update(`${head}.${body}`).digest('base64url')
  return { valid: signature === expected, claims: JSON.parse(Buffer.from(body, 'base64url').toString()) }
}

describe('the app’s thank-you block on the emulated thank-you page', () => {
  let emulator: Emulator
  let baseUrl: string
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>
  const shop = () => emulator.store.shop(SHOP)!
  const product = () => shop().products.find((p) => p.status === 'ACTIVE')!
  const plan = () =>
    shop().sellingPlanGroups.find((g) => g.productIds.includes(product().id))!.sellingPlans[0]!

  beforeAll(async () => {
    receiver = await webhookReceiver()
    // The app's deployment: where its webhooks go is its URL (the block's fetch goes there).
    emulator = await smallEmulator({ webhooks: { callbackUrl: receiver.url } })
    baseUrl = (await emulator.listen(0)).url
  })
  afterAll(async () => {
    await emulator.close()
    await receiver.close()
  })

  async function buy() {
    const browser = shopper(baseUrl, SHOP)
    await browser.form('/cart/add', {
      id: String(product().variantIds[0]),
      quantity: '1',
      selling_plan: String(plan().id),
    })
    expect((await browser.form('/checkout', BUYER)).status).toBe(303)
    return { browser, page: await browser.get('/thank-you') }
  }

  it('no session token outside a completed checkout', async () => {
    expect((await shopper(baseUrl, SHOP).get('/checkout-ui/session-token')).status).toBe(403)
  })

  it('the thank-you page carries the block’s place and its setup; the token is the shop’s, signed with the app secret', async () => {
    const { browser, page } = await buy()
    const setup = setupOf(page.text)!
    const order = shop().orders.at(-1)!
    expect(setup).toMatchObject({
      target: 'purchase.thank-you.block.render',
      networkAccess: true,
      orderConfirmation: { order: { id: `gid://shopify/OrderIdentity/${order.id}` } },
    })
    expect(page.text).toContain(`<section id="${setup.mountId}"`)
    const token = await browser.get('/checkout-ui/session-token')
    expect(token.status).toBe(200)
    const { valid, claims } = decode(token.text)
    expect(valid).toBe(true)
    expect(claims).toMatchObject({ dest: SHOP, aud: DEFAULT_API_KEY })
    expect(claims.iss).toBeUndefined()
    expect(claims.exp - claims.iat).toBe(300)
  })

  it('the sandbox runs the extension’s code: it asks the app with the token and draws its answer', async () => {
    const { browser, page } = await buy()
    const setup = setupOf(page.text)!
    const script = await browser.request(setup.workerUrl.slice(`/s/${SHOP}`.length))
    expect(script.status).toBe(200)
    // The extension's own source, its platform package resolved, the app's URL built in.
    expect(script.text).toContain('定期便のご案内')
    expect(script.text).toContain(new URL(receiver.url).origin)
    expect(script.text).not.toMatch(/from ['"]@shopify\//)

    const asked: Array<{ url: string; auth: string | null }> = []
    const box = sandbox(script.text, async (url, init) => {
      if (url.endsWith('/checkout-ui/session-token')) return new Response('token-1')
      asked.push({ url, auth: new Headers(init?.headers).get('authorization') })
      return Response.json({
        message: 'ありがとうございます',
        pending: false,
        contracts: [
          {
            contractId: '1',
            planName: plan().name,
            firstDeliveryDate: '2026-12-03',
            deliveryTime: '19時〜21時',
            nextBillingDate: '2026-12-24',
            nextDeliveryDate: '2026-12-27',
          },
        ],
      })
    })
    box.start({ ...setup, tokenUrl: `${baseUrl}${setup.tokenUrl}` })
    await expect.poll(() => box.trees.length).toBeGreaterThan(1)
    expect(words(box.trees[0]!)).toEqual(['定期便のご案内', 'お届け予定を確認しています…'])
    expect(asked).toEqual([
      {
        url: `${new URL(receiver.url).origin}/extensions/thank-you?order=${encodeURIComponent(setup.orderConfirmation.order.id)}`,
        auth: 'Bearer token-1',
      },
    ])
    expect(words(box.trees.at(-1)!)).toEqual([
      '定期便のご案内',
      plan().name,
      '初回のお届け: 2026年12月3日（19時〜21時）',
      '次回のお届け予定: 2026年12月27日（19時〜21時）',
      '次回のお支払い: 2026年12月24日',
      'ありがとうございます',
    ])
  })

  it('without the network_access capability the platform refuses the fetch: the block shows nothing', async () => {
    const { browser, page } = await buy()
    const setup = setupOf(page.text)!
    const script = (await browser.request(setup.workerUrl.slice(`/s/${SHOP}`.length))).text
    const box = sandbox(script, async () => Response.json({}))
    box.start({ ...setup, networkAccess: false })
    await expect.poll(() => box.trees.length).toBeGreaterThan(1)
    expect(box.trees.at(-1)).toEqual([])
  })
})
