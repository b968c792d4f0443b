import { createHmac, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, type RouteEntry } from '../src/http/app.ts'
import { INTERNAL_HMAC_HEADER } from '../src/http/auth.ts'
import { TEST_API_KEY, TEST_API_SECRET, testSessionToken } from './support/fixtures.ts'
import { inBatches, rawRequest, shopDataDigest } from './support/raw-http.ts'
import { type ShopIds, startTwoShops, type TwoShops } from './support/two-shops.ts'

// Issue 11 item 3: authentication is decided by the route Fastify matched, so no spelling of a
// path reaches a handler without its check. Every non-public route of `app.routeList`, in every
// spelling below, with every wrong credential: never 2xx, never 5xx, the handler never reached
// (the preValidation spy of support/two-shops.ts), nothing written, no platform call.

let env: TwoShops
beforeAll(async () => {
  env = await startTwoShops('auth')
}, 120_000)
afterAll(() => env?.close())

/** The route's path with shop A's real ids in its parameters. */
function fill(url: string, ids: ShopIds | null): string {
  return url.replace(/:(\w+)/g, (_, name: string) => {
    if (!ids) return name === 'code' || name === 'lineId' ? 'x1' : '1'
    if (name === 'lineId') return ids.lineId
    if (name === 'code') return 'WELCOME10'
    if (name === 'contractId') return ids.contractId
    if (url.startsWith('/app-admin/cancellation-reasons/')) return ids.reasonId
    if (url.startsWith('/app-admin/export-subscription-contracts/')) return ids.exportId
    if (url.startsWith('/app-admin/products/variants/')) return ids.variantId
    return ids.contractId
  })
}

const encodeAll = (segment: string) =>
  [...segment].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('')

/** Every spelling of one path that a server normalising paths differently from its router would let through. */
function pathForms(path: string): Array<[string, string]> {
  const [, first, ...rest] = path.split('/')
  const tail = rest.join('/')
  return [
    ['as registered', path],
    ['percent-encoded letter', `/%61${first!.slice(1)}/${tail}`],
    ['every character percent-encoded', `/${[first!, ...rest].map(encodeAll).join('/')}`],
    ['upper-case hex escape', path.replace('admin', 'ad%6Din')],
    ['encoded slashes', `/${[first!, ...rest].join('%2F')}`],
    ['encoded slash after the prefix', `/${first}%2f${tail}`],
    ['leading double slash', `/${path}`],
    ['inner double slash', `/${first}//${tail}`],
    ['trailing dot', `${path}.`],
    ['trailing slash', `${path}/`],
    ['upper case', path.toUpperCase()],
    ['mixed case', `/${first![0]!.toUpperCase()}${first!.slice(1)}/${tail}`],
    ['/./ segment', `/${first}/./${tail}`],
    ['/../ segment', `/${first}/x/../${tail}`],
    ['/../ from outside', `/static/../${first}/${tail}`],
    ['encoded dot segments', `/${first}/x/%2e%2e/${tail}`],
    ['; parameter on the prefix', `/${first};a=1/${tail}`],
    ['; parameter at the end', `${path};a=1`],
  ]
}

const nowS = () => Math.floor(Date.now() / 1000)
const sessionToken = testSessionToken

type Credential = { query?: string; headers?: Record<string, string> }
const bearer = (token: string): Credential => ({ headers: { authorization: `Bearer ${token}` } })

/** Wrong credentials of a merchant's request for shop A. */
function merchantCases(): Array<[string, Credential]> {
  const { a, b } = env
  const unsigned = sessionToken(a.domain, {}, TEST_API_SECRET, 'none').split('.').slice(0, 2).join('.')
  return [
    ['no credentials', {}],
    ['a wrong secret', { query: `shop=${a.domain}&secret=wrong-secret` }],
    [
      "another installed shop's secret with this shop's domain",
      { query: `shop=${a.domain}&secret=${b.secret}` },
    ],
    ['an unknown shop', { query: `shop=unknown-${b.id}.myshopify.com&secret=${a.secret}` }],
    ['an expired session token', bearer(sessionToken(a.domain, { exp: nowS() - 60, nbf: nowS() - 120 }))],
    ['a session token signed with another key', bearer(sessionToken(a.domain, {}, 'another-key-0123456789'))],
    ['a session token for another aud', bearer(sessionToken(a.domain, { aud: 'another-app' }))],
    [
      "a session token with another shop's dest",
      bearer(sessionToken(a.domain, { dest: `https://${b.domain}` })),
    ],
    ['a session token with alg none', bearer(`${unsigned}.`)],
    ['Authorization: Bearer without a token', { headers: { authorization: 'Bearer' } }],
    [
      'a bearer header with the right secret in the query',
      { query: `shop=${a.domain}&secret=${a.secret}`, headers: { authorization: 'Bearer ' } },
    ],
  ]
}

/** Wrong signatures (and a merchant's credentials, which do not open these routes). */
function signedCases(header: string, body: string): Array<[string, Credential]> {
  const { a } = env
  const sign = (text: string, key: string) => createHmac('sha256', key).update(text).digest('base64')
  return [
    ['no signature', {}],
    ['a signature with another key', { headers: { [header]: sign(body, 'another-key-0123456789') } }],
    ['the signature of another body', { headers: { [header]: sign(`${body} `, TEST_API_SECRET) } }],
    ['a malformed signature', { headers: { [header]: 'not-base64' } }],
    ["shop A's secret", { query: `shop=${a.domain}&secret=${a.secret}` }],
    ["shop A's session token", bearer(sessionToken(a.domain))],
  ]
}

/** Wrong pixel keys (and a merchant's credentials, which do not open the pixel's route). */
function pixelCases(): Array<[string, Credential]> {
  const { a, b } = env
  return [
    ['no key', { query: `shop=${a.domain}` }],
    ['a wrong key', { query: `shop=${a.domain}&key=wrong-key` }],
    ["shop A's secret as the key", { query: `shop=${a.domain}&key=${a.secret}` }],
    ["shop B's secret for shop A", { query: `shop=${a.domain}&secret=${b.secret}&key=${b.secret}` }],
    ['no shop', { query: 'key=wrong-key' }],
    ["shop A's session token", bearer(sessionToken(a.domain))],
  ]
}

function signedBody(route: RouteEntry): { body: string; headers: Record<string, string> } {
  const { a, ids } = env
  if (route.config.auth === 'internal') {
    return { body: JSON.stringify({ shop: a.domain, now: new Date().toISOString() }), headers: {} }
  }
  const body = JSON.stringify({
    admin_graphql_api_id: `gid://shopify/SubscriptionContract/${ids.a.contractId}`,
  })
  return {
    body,
    headers: {
      'x-shopify-topic': 'subscription_contracts/cancel',
      'x-shopify-shop-domain': a.domain,
      'x-shopify-webhook-id': randomUUID(),
    },
  }
}

function send(
  route: RouteEntry,
  path: string,
  credential: Credential,
  extra: Record<string, string>,
  body?: string,
) {
  const sep = path.includes('?') ? '&' : '?'
  const url = credential.query ? `${path}${sep}${credential.query}` : path
  const hasBody = body !== undefined && !['GET', 'HEAD'].includes(route.method)
  return rawRequest(
    env.base,
    route.method,
    url,
    {
      accept: 'application/json',
      ...(hasBody ? { 'content-type': 'application/json' } : {}),
      ...extra,
      ...credential.headers,
    },
    hasBody ? body : undefined,
  )
}

describe('authentication by route configuration', () => {
  it('gives every route an auth decision; the public ones are only these', () => {
    const { routeList } = env.app
    expect(routeList.length).toBeGreaterThan(40)
    for (const route of routeList)
      expect(['shop', 'public', 'webhook', 'internal', 'pixel', 'checkout', 'proxy'], route.url).toContain(
        route.config.auth,
      )
    const publicRoutes = routeList
      .filter((r) => r.config.auth === 'public')
      .map((r) => `${r.method} ${r.url}`)
    expect(publicRoutes.sort()).toEqual(
      [
        'GET /health',
        'HEAD /health',
        'GET /app-admin/openapi.json',
        'HEAD /app-admin/openapi.json',
        // The built files; index.html is passed on to the document (App Bridge, frame-ancestors).
        'GET /app.js',
        'HEAD /app.js',
        'GET /index.html',
        'HEAD /index.html',
        // The web pixel's CORS preflight (the POST itself is `pixel`: the shop's pixel key).
        'OPTIONS /pixel/events',
        // The thank-you block's preflight (the GET itself is `checkout`: the checkout session token).
        'OPTIONS /extensions/thank-you',
      ].sort(),
    )
    for (const route of routeList.filter(
      (r) => r.url.startsWith('/app-admin/') && r.config.auth !== 'public',
    )) {
      expect(route.config.auth, route.url).toBe('shop')
    }
  })

  it('refuses to register a route that declares no auth (fail closed)', async () => {
    const app = await buildApp({
      db: env.pool,
      platform: { adminOrigin: (shop) => `https://${shop}`, apiKey: TEST_API_KEY },
      apiSecret: TEST_API_SECRET,
    })
    try {
      expect(() => app.get('/undeclared', () => ({}))).toThrow(/no auth decision/)
      app.get('/app-admin/declared-by-prefix', () => ({}))
      expect(app.routeList.find((r) => r.url === '/app-admin/declared-by-prefix')?.config.auth).toBe('shop')
      app.register(async (scope) => {
        scope.post('/in-a-plugin', () => ({}))
      })
      await expect(app.ready()).rejects.toThrow(/no auth decision/)
    } finally {
      await app.close().catch(() => {})
    }
  })

  it('answers every wrong credential on every route in every spelling with 4xx, reaching no handler', async () => {
    const before = await shopDataDigest(env.pool, [env.a.id, env.b.id])
    const calls = env.emulator.callLog.length
    env.handled.length = 0
    const jobs: Array<() => Promise<string | null>> = []
    for (const route of env.app.routeList.filter((r) => r.config.auth !== 'public')) {
      const path = fill(route.url, env.ids.a)
      const signed = route.config.auth === 'webhook' || route.config.auth === 'internal'
      const { body, headers } = signed ? signedBody(route) : { body: '{}', headers: {} }
      const header = route.config.auth === 'internal' ? INTERNAL_HMAC_HEADER : 'x-shopify-hmac-sha256'
      const cases = signed
        ? signedCases(header, body)
        : route.config.auth === 'pixel'
          ? pixelCases()
          : merchantCases()
      for (const [form, spelled] of pathForms(path)) {
        for (const [name, credential] of cases) {
          jobs.push(async () => {
            const res = await send(route, spelled, credential, { ...headers, 'x-test-case': name }, body)
            const ok = res.status >= 400 && res.status < 500
            return ok
              ? null
              : `${route.method} ${spelled} (${form}, ${name}) → ${res.status} ${res.body.slice(0, 120)}`
          })
        }
      }
    }
    const failures = (await inBatches(jobs)).filter((f) => f !== null)
    expect(failures).toEqual([])
    expect(jobs.length).toBeGreaterThan(5_000)
    // The spy sees requests that reached their route past authentication: for merchant routes
    // none may. Signed routes pass a well-formed signature on to the handler, which checks it
    // against the body before anything else: the digest and the platform's log show it did nothing.
    const merchant = new Set(env.app.routeList.filter((r) => r.config.auth === 'shop').map((r) => r.url))
    expect(env.handled.filter((h) => merchant.has(h.route))).toEqual([])
    const wellFormed = new Set(['a signature with another key', 'the signature of another body'])
    // (route '' is the not-found handler, which answers 404 and reads nothing.)
    expect(env.handled.filter((h) => h.route !== '' && !wellFormed.has(h.tag ?? ''))).toEqual([])
    expect(env.emulator.callLog.length).toBe(calls)
    expect(await shopDataDigest(env.pool, [env.a.id, env.b.id])).toEqual(before)
  }, 180_000)

  it('lets the right credentials through on the plain path (secret and session token)', async () => {
    const merchant = env.app.routeList.filter((r) => r.config.auth === 'shop')
    const { a } = env
    for (const credential of [
      { query: `shop=${a.domain}&secret=${a.secret}` },
      bearer(sessionToken(a.domain)),
    ]) {
      env.handled.length = 0
      // Ids that do not exist and a body that is no object: nothing is changed, every answer is
      // the route's own (200, 400 or 404), none is 401.
      const statuses = await inBatches(
        merchant.map((route) => async () => {
          const res = await send(route, fill(route.url, null), credential, {}, '[]')
          return `${route.method} ${route.url} ${res.status}`
        }),
      )
      expect(statuses.filter((s) => / (401|5\d\d)$/.test(s))).toEqual([])
      expect(new Set(env.handled.map((h) => `${h.method} ${h.route}`))).toEqual(
        new Set(merchant.map((r) => `${r.method} ${r.url}`)),
      )
      expect(env.handled.every((h) => h.shop === a.domain)).toBe(true)
    }
  }, 60_000)
})
