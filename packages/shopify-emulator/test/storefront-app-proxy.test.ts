import { createHmac } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_API_SECRET } from '../src/emulator-api.ts'
import type { Emulator } from '../src/server.ts'
import { SHOP, smallEmulator } from './support/harness.ts'
import { shopper } from './support/storefront-client.ts'

// The platform's app proxy and customer sign-in in the emulated store (issue 26): /apps/teiki/…
// reaches the app's /proxy/… with the query the platform sets and signs (shopify.dev
// "Authenticate app proxies"), the signed-in customer in logged_in_customer_id; a shopper's own
// values for those parameters never get through; an application/liquid answer is shown in the
// store's layout. Sign-in is by a one-time link.

const forwarded: Array<{ path: string; query: Record<string, string> }> = []
let appServer: Server
let emulator: Emulator
let baseUrl = ''

const signatureOf = (query: Record<string, string>) =>
  createHmac('sha256', DEFAULT_API_SECRET)
    .update(
      Object.keys(query)
        .filter((k) => k !== 'signature')
        .sort()
        .map((k) => `${k}=${query[k]}`)
        .join(''),
    )
    .digest('hex')

beforeAll(async () => {
  appServer = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://app')
    forwarded.push({ path: url.pathname, query: Object.fromEntries(url.searchParams) })
    if (url.pathname === '/proxy/api/ping') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
      return
    }
    res.writeHead(200, { 'content-type': 'application/liquid; charset=utf-8' }).end('<h1>定期便のご契約</h1>')
  })
  await new Promise<void>((resolve) => appServer.listen(0, '127.0.0.1', resolve))
  const appUrl = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`
  emulator = await smallEmulator({ webhooks: { callbackUrl: `${appUrl}/webhooks` } })
  baseUrl = (await emulator.listen(0)).url
})
afterAll(async () => {
  await emulator.close()
  appServer.close()
})

const customer = () => emulator.store.shop(SHOP)!.customers.find((c) => c.email)!

async function signIn(browser: ReturnType<typeof shopper>, email: string) {
  const sent = await browser.form('/account/login', { email })
  expect(sent.status).toBe(200)
  const link = /href="\/s\/[^"]+(\/account\/login\/[0-9a-f]{32})"/.exec(sent.text)?.[1]
  return { sent, link }
}

describe('the app proxy', () => {
  it('nobody signed in: the app gets the signed query with an empty customer; a liquid answer is shown in the store', async () => {
    const browser = shopper(baseUrl, SHOP)
    const page = await browser.get('/apps/teiki/my-page?logged_in_customer_id=1&tab=next')
    expect(page.status).toBe(200)
    expect(page.text).toContain('<h1>定期便のご契約</h1>')
    expect(page.text).toContain('<header class="store-header">')
    const { path, query } = forwarded.at(-1)!
    expect(path).toBe('/proxy/my-page')
    expect(query).toMatchObject({
      shop: SHOP,
      logged_in_customer_id: '',
      path_prefix: '/apps/teiki',
      tab: 'next',
    })
    expect(Math.abs(Number(query.timestamp) - Date.now() / 1000)).toBeLessThan(60)
    expect(query.signature).toBe(signatureOf(query))
  })

  it('a signed-in customer is the app’s logged_in_customer_id; other answers pass through as they are', async () => {
    const browser = shopper(baseUrl, SHOP)
    const { link } = await signIn(browser, customer().email!)
    const landed = await browser.get(link!)
    expect(landed.status).toBe(303)
    expect(landed.location).toBe(`/s/${SHOP}/apps/teiki/my-page`)
    const json = await browser.get('/apps/teiki/api/ping')
    expect(json.text).toBe('{"ok":true}')
    const { query } = forwarded.at(-1)!
    expect(query.logged_in_customer_id).toBe(String(customer().id))
    expect(query.signature).toBe(signatureOf(query))
    // The header links マイページ and ログアウト; after ログアウト nobody is signed in.
    expect((await browser.get('/')).text).toContain('マイページ')
    await browser.get('/account/logout')
    await browser.get('/apps/teiki/my-page')
    expect(forwarded.at(-1)!.query.logged_in_customer_id).toBe('')
  })
})

describe('signing in', () => {
  it('a link works once; an unknown address gets the same page and no link', async () => {
    const browser = shopper(baseUrl, SHOP)
    const { link } = await signIn(browser, customer().email!.toUpperCase())
    expect(link).toBeDefined()
    expect((await browser.get(link!)).status).toBe(303)
    expect((await shopper(baseUrl, SHOP).get(link!)).status).toBe(410)
    const unknown = await signIn(shopper(baseUrl, SHOP), 'nobody@example.invalid')
    expect(unknown.link).toBeUndefined()
    expect(unknown.sent.text).toContain('メールを確認してください')
  })
})
