import { createEmulator, type Emulator, mintSessionToken, TOKEN_EXCHANGE_PATH } from '@teiki/shopify-emulator'
import type pg from 'pg'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AppInstance } from '../src/http/app.ts'
import type { ShopRow } from '../src/platform/shops-repo.ts'
import { buildTestApp, STAMP, TEST_API_KEY, TEST_API_SECRET, testPool } from './support/fixtures.ts'

const shopName = (name: string) => `tx-${name}-${STAMP}.myshopify.com`

let pool: pg.Pool
let app: AppInstance
let emulator: Emulator
let emulatorUrl = ''
/** Every token exchange the app sent, by shop. */
let exchanges: string[] = []
const installed: ShopRow[] = []

/** The app's platform HTTP client: counts exchanges, and lets one shop's exchange be refused. */
const countingFetch: typeof fetch = async (input, init) => {
  const url = String(input)
  if (url.endsWith(TOKEN_EXCHANGE_PATH)) {
    const subject = JSON.parse(String(init?.body)).subject_token as string
    const dest = JSON.parse(Buffer.from(subject.split('.')[1]!, 'base64url').toString()).dest as string
    exchanges.push(new URL(dest).hostname)
    if (dest.includes('tx-refused-')) {
      return new Response(JSON.stringify({ error: 'invalid_subject_token' }), { status: 400 })
    }
  }
  return fetch(input, init)
}

beforeAll(async () => {
  pool = testPool()
  emulator = await createEmulator({
    shops: [],
    throttle: false,
    apiKey: TEST_API_KEY,
    apiSecret: TEST_API_SECRET,
  })
  emulatorUrl = (await emulator.listen(0)).url
  app = await buildTestApp(pool, {
    platform: { adminOrigin: () => emulatorUrl, fetch: countingFetch },
    onInstalled: (shop) => {
      installed.push(shop)
    },
  })
  await app.ready()
})
afterAll(async () => {
  await app.close()
  await emulator.close()
  await pool.end()
})
beforeEach(() => {
  exchanges = []
})

function request(token: string) {
  return app.inject({
    method: 'GET',
    url: '/app-admin/shop-currency-code',
    headers: { authorization: `Bearer ${token}` },
  })
}

async function shopRow(domain: string) {
  const { rows } = await pool.query(
    'select access_token, scopes, secret_hash, uninstalled_at from shops where domain = $1',
    [domain],
  )
  return rows[0]
}

describe('token exchange on the first request of a new shop', () => {
  it('installs the shop with the platform offline token and answers the request', async () => {
    const domain = shopName('new')
    const res = await request(emulator.sessionToken(domain))
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ currencyCode: 'JPY' })
    expect(exchanges).toEqual([domain])

    const row = await shopRow(domain)
    expect(row.access_token).toBe(emulator.store.shop(domain)!.installation.accessToken)
    expect(row.scopes).toEqual(emulator.store.shop(domain)!.installation.scopes)
    expect(row.secret_hash).toBeNull() // no standalone secret login for production shops
    expect(row.uninstalled_at).toBeNull()
    await new Promise((r) => setImmediate(r))
    expect(installed.map((s) => s.domain)).toContain(domain)

    // The token works against the Admin API.
    const graphql = await fetch(`${emulatorUrl}/admin/api/2025-04/graphql.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shopify-access-token': row.access_token },
      body: JSON.stringify({ query: '{ shop { myshopifyDomain } }' }),
    })
    expect((await graphql.json()).data.shop.myshopifyDomain).toBe(domain)

    // Later requests use the stored token: no second exchange.
    exchanges = []
    expect((await request(emulator.sessionToken(domain))).statusCode).toBe(200)
    expect(exchanges).toEqual([])
  })

  it('answers 401 for a bad session token without calling the platform', async () => {
    const domain = shopName('bad')
    for (const token of [
      mintSessionToken(domain, { apiKey: TEST_API_KEY, apiSecret: 'another-secret' }),
      mintSessionToken(domain, { apiKey: 'another-app', apiSecret: TEST_API_SECRET }),
      emulator.sessionToken(domain, { now: Date.now() - 3_600_000 }),
    ]) {
      const res = await request(token)
      expect(res.statusCode).toBe(401)
      expect(res.json().error.code).toBe('UNAUTHENTICATED')
    }
    expect(exchanges).toEqual([])
    expect(await shopRow(domain)).toBeUndefined()
  })

  it('exchanges once for concurrent first requests of one shop', async () => {
    const domain = shopName('race')
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => request(emulator.sessionToken(domain))),
    )
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200])
    expect(exchanges).toEqual([domain])
    const { rows } = await pool.query('select count(*)::int as n from shops where domain = $1', [domain])
    expect(rows[0].n).toBe(1)
  })

  it('answers 401 with a Japanese message when the platform refuses the exchange', async () => {
    const domain = shopName('refused')
    const res = await request(emulator.sessionToken(domain))
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({
      error: { code: 'UNAUTHENTICATED', message: expect.stringMatching(/インストール/) },
    })
    expect(exchanges).toEqual([domain])
    expect(await shopRow(domain)).toBeUndefined()
  })

  it('re-installs an uninstalled shop on its next session-token request', async () => {
    const domain = shopName('back')
    expect((await request(emulator.sessionToken(domain))).statusCode).toBe(200)
    await pool.query('update shops set uninstalled_at = now(), access_token = null where domain = $1', [
      domain,
    ])
    app.forgetShop(domain)
    emulator.uninstall(domain)

    exchanges = []
    expect((await request(emulator.sessionToken(domain))).statusCode).toBe(200)
    expect(exchanges).toEqual([domain])
    const row = await shopRow(domain)
    expect(row.uninstalled_at).toBeNull()
    expect(row.access_token).toBe(emulator.store.shop(domain)!.installation.accessToken)
  })
})
