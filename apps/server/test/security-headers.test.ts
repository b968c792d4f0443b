import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig, parseTrustProxy } from '../src/config.ts'
import { type AppInstance, type BuildAppOptions, buildApp } from '../src/http/app.ts'
import { HSTS, REFERRER_POLICY } from '../src/http/security-headers.ts'
import { createShop, TEST_API_KEY, TEST_API_SECRET, testPool } from './support/fixtures.ts'
import { rawRequest } from './support/raw-http.ts'

// Issue 11 item 7: headers read from the real responses of a listening server, on every kind
// of answer; HSTS only behind TLS; X-Forwarded-* believed only from configured proxies.

const NAVIGATION = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }
let pool: pg.Pool
let dist: string
let shop: Awaited<ReturnType<typeof createShop>>
const apps: AppInstance[] = []

async function listening(extra: Partial<BuildAppOptions> = {}): Promise<string> {
  const app = await buildApp({
    db: pool,
    platform: { adminOrigin: (s) => `https://${s}`, apiKey: TEST_API_KEY, ...extra.platform },
    apiSecret: TEST_API_SECRET,
    webDist: dist,
    dataDir: join(dist, '..', 'data'),
    ...extra,
  })
  // What a handler's unexpected failure answers (500), and what the server takes as the client.
  app.get('/app-admin/test-fail', () => {
    throw new Error('boom')
  })
  app.get('/app-admin/test-client', (request) => ({ ip: request.ip, protocol: request.protocol }))
  await app.listen({ port: 0, host: '127.0.0.1' })
  apps.push(app)
  const address = app.server.address()
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
}

beforeAll(async () => {
  pool = testPool()
  shop = await createShop(pool, { prefix: 'headers' })
  const dir = mkdtempSync(join(tmpdir(), 'teiki-headers-'))
  dist = join(dir, 'dist')
  mkdirSync(dist)
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head></head><body></body></html>')
  writeFileSync(join(dist, 'app.js'), 'console.log(1)')
})
afterAll(async () => {
  for (const app of apps) await app.close()
  await pool.end()
  rmSync(join(dist, '..'), { recursive: true, force: true })
})

describe('security headers on every response', () => {
  it('nosniff, Referrer-Policy and a CSP on JSON, errors, 404s, the document and static files', async () => {
    const base = await listening()
    const auth = `shop=${shop.domain}&secret=${shop.secret}`
    const cases: Array<[string, string, string, Record<string, string>?, number?]> = [
      ['API JSON', 'GET', `/app-admin/subscriptions/search?${auth}`, {}, 200],
      ['public JSON', 'GET', '/health', {}, 200],
      ['401', 'GET', '/app-admin/subscriptions/search', {}, 401],
      ['400 (validation)', 'GET', `/app-admin/subscriptions/search?${auth}&limit=abc`, {}, 400],
      ['400 (bad URL)', 'GET', '/app-admin/subscriptions/%', {}, 400],
      ['404', 'GET', '/app-admin/nothing-here', {}, 404],
      ['404 of another method', 'DELETE', '/', {}, 404],
      ['500', 'GET', `/app-admin/test-fail?${auth}`, {}, 500],
      ['401 of a webhook', 'POST', '/webhooks', { 'content-type': 'application/json' }, 401],
      ['SPA document', 'GET', `/?shop=${shop.domain}`, NAVIGATION, 200],
      ['static file', 'GET', '/app.js', {}, 200],
      ['HEAD of a static file', 'HEAD', '/app.js', {}, 200],
    ]
    for (const [name, method, path, headers, status] of cases) {
      const body = method === 'POST' ? '{}' : undefined
      const res = await rawRequest(base, method, path, headers, body)
      expect(res.status, name).toBe(status)
      expect(res.headers['x-content-type-options'], name).toBe('nosniff')
      expect(res.headers['referrer-policy'], name).toBe(REFERRER_POLICY)
      expect(res.headers['content-security-policy'], name).toMatch(/frame-ancestors/)
      expect(res.headers['strict-transport-security'], `${name}: plain HTTP has no HSTS`).toBeUndefined()
    }
  })

  it('frame-ancestors names only a valid *.myshopify.com shop and the admin', async () => {
    const base = await listening()
    const policy = async (query: string) =>
      (await rawRequest(base, 'GET', `/${query}`, NAVIGATION)).headers['content-security-policy']
    expect(await policy(`?shop=${shop.domain}`)).toBe(
      `frame-ancestors https://${shop.domain} https://admin.shopify.com;`,
    )
    for (const shopParam of [
      'evil.example.com',
      'a.myshopify.com.evil.example.com',
      `${'a'.repeat(64)}.myshopify.com`,
      'SHOP.myshopify.com',
      'x.myshopify.com%20https://evil.example.com',
      'x.myshopify.com;%20script-src%20*',
      '-x.myshopify.com',
    ]) {
      expect(await policy(`?shop=${shopParam}`), shopParam).toBe("frame-ancestors 'none';")
    }
    expect(await policy(`?shop=${shop.domain}&shop=other.myshopify.com`)).toBe("frame-ancestors 'none';")
    expect(await policy('')).toBe("frame-ancestors 'none';")
    expect(await policy(`?shop=${'a'.repeat(63)}.myshopify.com`)).toBe(
      `frame-ancestors https://${'a'.repeat(63)}.myshopify.com https://admin.shopify.com;`,
    )
  })
})

describe('behind TLS and proxies', () => {
  const tls = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' }

  it('by default believes no X-Forwarded-* header: no HSTS, the socket address is the client', async () => {
    const base = await listening()
    const res = await rawRequest(
      base,
      'GET',
      `/app-admin/test-client?shop=${shop.domain}&secret=${shop.secret}`,
      tls,
    )
    expect(JSON.parse(res.body)).toEqual({ ip: '127.0.0.1', protocol: 'http' })
    expect(res.headers['strict-transport-security']).toBeUndefined()
  })

  it('behind a trusted proxy that says https: HSTS, and the forwarded client address', async () => {
    const base = await listening({ trustProxy: parseTrustProxy('127.0.0.1/32')! })
    const res = await rawRequest(
      base,
      'GET',
      `/app-admin/test-client?shop=${shop.domain}&secret=${shop.secret}`,
      tls,
    )
    expect(JSON.parse(res.body)).toEqual({ ip: '203.0.113.9', protocol: 'https' })
    expect(res.headers['strict-transport-security']).toBe(HSTS)
    const unauthenticated = await rawRequest(base, 'GET', '/app-admin/plan', tls)
    expect(unauthenticated.headers['strict-transport-security']).toBe(HSTS)
    const plain = await rawRequest(base, 'GET', '/health')
    expect(plain.headers['strict-transport-security']).toBeUndefined()
  })

  it('a proxy that is not the configured one is not believed; a hop count is', async () => {
    const other = await listening({ trustProxy: parseTrustProxy('10.0.0.0/8')! })
    const res = await rawRequest(other, 'GET', '/health', tls)
    expect(res.headers['strict-transport-security']).toBeUndefined()
    const hops = await listening({ trustProxy: parseTrustProxy('1')! })
    const client = await rawRequest(
      hops,
      'GET',
      `/app-admin/test-client?shop=${shop.domain}&secret=${shop.secret}`,
      {
        'x-forwarded-for': '198.51.100.1, 203.0.113.9',
      },
    )
    expect(JSON.parse(client.body).ip).toBe('203.0.113.9')
  })

  it('an https SHOPIFY_APP_URL means TLS in front: HSTS on every answer', async () => {
    const base = await listening({
      platform: {
        adminOrigin: (s) => `https://${s}`,
        apiKey: TEST_API_KEY,
        appUrl: 'https://teiki.example.jp',
      },
    })
    for (const path of ['/health', '/app-admin/plan', '/nothing']) {
      expect((await rawRequest(base, 'GET', path)).headers['strict-transport-security'], path).toBe(HSTS)
    }
  })
})

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['true', true],
    ['2', 2],
    ['10.0.0.0/8, 127.0.0.1', ['10.0.0.0/8', '127.0.0.1']],
    ['::1/128,fd00::/8', ['::1/128', 'fd00::/8']],
  ])('%s → %j', (value, trust) => {
    expect(parseTrustProxy(value)).toEqual(trust)
    expect(loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).TRUST_PROXY).toEqual(trust)
  })

  it.each(['yes', '10.0.0.0/33', '1.2.3.4/8/1', 'proxy.internal', '10.0.0.1,'])('refuses %s', (value) => {
    expect(parseTrustProxy(value)).toBeNull()
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/)
  })
})
