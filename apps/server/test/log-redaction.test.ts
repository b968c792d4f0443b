import { createHmac } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppInstance, buildApp } from '../src/http/app.ts'
import { REDACTED, redactText } from '../src/http/log-redaction.ts'
import { createShop, TEST_API_KEY, TEST_API_SECRET, testPool, testSessionToken } from './support/fixtures.ts'
import { rawRequest } from './support/raw-http.ts'

// Issue 11 item 7: the request secret was in every access log line. The app logs through pino
// into a real file (pino's destination, as in production); the test makes authenticated
// requests, signed ones and a failing one, then reads the file.

const OFFLINE_TOKEN = 'shpat_0123456789abcdef0123456789abcdef'
let pool: pg.Pool
let dir: string
let logFile: string
let shop: Awaited<ReturnType<typeof createShop>>
let lines: Array<Record<string, unknown>>
let text: string
let bearer: string

beforeAll(async () => {
  pool = testPool()
  shop = await createShop(pool, { prefix: 'logs' })
  dir = mkdtempSync(join(tmpdir(), 'teiki-logs-'))
  logFile = join(dir, 'app.log')
  const app: AppInstance = await buildApp({
    db: pool,
    platform: { adminOrigin: (s) => `https://${s}`, apiKey: TEST_API_KEY },
    apiSecret: TEST_API_SECRET,
    dataDir: dir,
    logger: { level: 'info', file: logFile },
  })
  bearer = testSessionToken(shop.domain)
  // A handler that fails quoting what it was given, as a library's error message may.
  app.get('/app-admin/test-fail', (request) => {
    throw new Error(`upstream refused ${request.url} with Bearer ${bearer} and ${OFFLINE_TOKEN}`)
  })
  // A handler that logs its headers and a record holding tokens.
  app.get('/app-admin/test-log', (request) => {
    request.log.warn(
      { headers: request.headers, install: { accessToken: OFFLINE_TOKEN, secret: shop.secret } },
      'x',
    )
    return { ok: true }
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  const query = `shop=${shop.domain}&secret=${shop.secret}`
  const signed = (body: string) => createHmac('sha256', TEST_API_SECRET).update(body).digest('base64')

  expect((await rawRequest(base, 'GET', `/app-admin/subscriptions/search?${query}`)).status).toBe(200)
  expect(
    (await rawRequest(base, 'GET', `/app-admin/plan?${query}&id_token=${bearer}&hmac=abc123`)).status,
  ).toBe(200)
  const withToken = await rawRequest(base, 'GET', '/app-admin/subscriptions/search', {
    authorization: `Bearer ${bearer}`,
  })
  expect(withToken.status).toBe(200)
  expect(
    (await rawRequest(base, 'GET', `/app-admin/test-log?${query}`, { cookie: `s=${shop.secret}` })).status,
  ).toBe(200)
  expect(
    (await rawRequest(base, 'GET', `/app-admin/test-fail?${query}`, { authorization: `Bearer ${bearer}` }))
      .status,
  ).toBe(500)
  // The web pixel's hits write no access lines (thousands a second), answered or refused.
  const pixel = await rawRequest(base, 'GET', `/app-admin/traffic/pixel-settings?${query}`)
  const pixelKey = (JSON.parse(pixel.body) as { accountID: string }).accountID
  const hit = JSON.stringify({
    events: [{ id: 'log-hit-1', name: 'page_viewed', timestamp: new Date().toISOString(), clientId: 'c1' }],
  })
  for (const [key, status] of [
    [pixelKey, 200],
    ['wrong-key', 401],
  ] as const) {
    const headers = { 'content-type': 'text/plain' }
    const answer = await rawRequest(
      base,
      'POST',
      `/pixel/events?shop=${shop.domain}&key=${key}`,
      headers,
      hit,
    )
    expect(answer.status).toBe(status)
  }
  const body = '{}'
  const webhook = await rawRequest(
    base,
    'POST',
    '/webhooks',
    { 'content-type': 'application/json', 'x-shopify-hmac-sha256': signed(body) },
    body,
  )
  expect(webhook.status).toBe(400)
  await app.close()
  // pino writes the file asynchronously: wait (bounded) for the last request's lines (in and
  // out) and the failure's, which a loaded machine wrote after close() had returned.
  const complete = () => {
    if (!existsSync(logFile)) return false
    const written = readFileSync(logFile, 'utf8')
    return (
      written.split('"incoming request"').length > 7 &&
      written.split('"request completed"').length > 7 &&
      written.includes('upstream refused')
    )
  }
  for (let i = 0; i < 250 && !complete(); i++) await new Promise((r) => setTimeout(r, 20))
  text = readFileSync(logFile, 'utf8')
  lines = text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
})
afterAll(async () => {
  await pool.end()
  rmSync(dir, { recursive: true, force: true })
})

describe('the log file', () => {
  it('never holds the secret, the session token, an HMAC or the platform token', () => {
    expect(text).not.toContain(shop.secret)
    expect(text).not.toContain(bearer)
    expect(text).not.toContain(bearer.split('.')[2])
    expect(text).not.toContain(OFFLINE_TOKEN)
    expect(text).not.toContain('abc123')
  })

  it('still logs every request, with its credentials replaced', () => {
    const urls = lines.filter((l) => l.msg === 'incoming request').map((l) => (l.req as { url: string }).url)
    expect(urls).toEqual([
      `/app-admin/subscriptions/search?shop=${shop.domain}&secret=${REDACTED}`,
      `/app-admin/plan?shop=${shop.domain}&secret=${REDACTED}&id_token=${REDACTED}&hmac=${REDACTED}`,
      '/app-admin/subscriptions/search',
      `/app-admin/test-log?shop=${shop.domain}&secret=${REDACTED}`,
      `/app-admin/test-fail?shop=${shop.domain}&secret=${REDACTED}`,
      `/app-admin/traffic/pixel-settings?shop=${shop.domain}&secret=${REDACTED}`,
      '/webhooks',
    ])
    expect(text).not.toContain('/pixel/events')
    expect(
      lines
        .filter((l) => l.msg === 'request completed')
        .map((l) => (l.res as { statusCode: number }).statusCode),
    ).toEqual([200, 200, 200, 200, 500, 200, 400])
  })

  it('logs the failure with its message and stack, credentials replaced', () => {
    const failure = lines.find((l) => l.msg === 'unhandled error') as {
      err: { message: string; stack: string }
    }
    expect(failure.err.message).toBe(
      `upstream refused /app-admin/test-fail?shop=${shop.domain}&secret=${REDACTED} with Bearer ${REDACTED} and shpat_${REDACTED}`,
    )
    expect(failure.err.stack).toContain(`Bearer ${REDACTED}`)
  })

  it('censors credential headers and secret fields of logged objects', () => {
    const logged = lines.find((l) => l.msg === 'x') as {
      headers: Record<string, string>
      install: Record<string, string>
    }
    expect(logged.headers.cookie).toBe(REDACTED)
    expect(logged.headers.host).toMatch(/^127\.0\.0\.1:/)
    expect(logged.install).toEqual({ accessToken: REDACTED, secret: REDACTED })
  })
})

describe('redactText', () => {
  it.each([
    ['/?shop=a.myshopify.com&secret=s3cr3t', `/?shop=a.myshopify.com&secret=${REDACTED}`],
    ['/x?code=abc&state=xyz&countryCode=JP', `/x?code=${REDACTED}&state=${REDACTED}&countryCode=JP`],
    [
      '/x?session=1&signature=2&access_token=3&token=4',
      `/x?session=${REDACTED}&signature=${REDACTED}&access_token=${REDACTED}&token=${REDACTED}`,
    ],
    ['Authorization: Bearer eyJ.a-b_c.d==', `Authorization: Bearer ${REDACTED}`],
    ['token shpat_abc123 and shpss_X', `token shpat_${REDACTED} and shpss_${REDACTED}`],
    ['/app-admin/subscriptions/search?limit=10', '/app-admin/subscriptions/search?limit=10'],
  ])('%s', (input, output) => {
    expect(redactText(input)).toBe(output)
  })
})
