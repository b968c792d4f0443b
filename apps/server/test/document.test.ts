import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppInstance, buildApp } from '../src/http/app.ts'
import { APP_BRIDGE_SCRIPT, frameAncestors, renderDocument } from '../src/http/document.ts'
import { TEST_API_KEY, TEST_API_SECRET, testPool } from './support/fixtures.ts'

/** What a browser sends when it opens a page. */
const NAVIGATION = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' }

const INDEX = `<!doctype html>
<html lang="ja">
  <head>
    <meta charset="UTF-8" />
    <title>Teiki 定期購買管理</title>
    <script type="module" src="/assets/main.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>
`

describe('renderDocument', () => {
  it('puts App Bridge first in <head> when embedded, before every other script', () => {
    const html = renderDocument(INDEX, { apiKey: 'client-123' })
    const bridge = html.indexOf(`<script src="${APP_BRIDGE_SCRIPT}"></script>`)
    expect(html).toContain('<meta name="shopify-api-key" content="client-123" />')
    expect(bridge).toBeGreaterThan(html.indexOf('<head>'))
    expect(bridge).toBeLessThan(html.indexOf('<script type="module"'))
  })

  it('escapes the client id and leaves a standalone document as built', () => {
    expect(renderDocument(INDEX, { apiKey: '"><x' })).toContain('content="&#34;&#62;&#60;x"')
    expect(renderDocument(INDEX, undefined)).toBe(INDEX)
  })
})

describe('frameAncestors', () => {
  it.each([
    [
      'teiki-demo.myshopify.com',
      'frame-ancestors https://teiki-demo.myshopify.com https://admin.shopify.com;',
    ],
    [null, "frame-ancestors 'none';"],
    ['evil.example.com', "frame-ancestors 'none';"],
    ['x.myshopify.com https://evil.example.com', "frame-ancestors 'none';"],
  ])('%s → %s', (shop, policy) => {
    expect(frameAncestors(shop)).toBe(policy)
  })
})

describe('the SPA document as served', () => {
  let pool: pg.Pool
  let dist: string
  const apps: AppInstance[] = []

  async function appWith(embedded: { apiKey: string } | undefined) {
    const app = await buildApp({
      db: pool,
      platform: { adminOrigin: (shop) => `https://${shop}`, apiKey: TEST_API_KEY },
      apiSecret: TEST_API_SECRET,
      webDist: dist,
      ...(embedded ? { embedded } : {}),
    })
    await app.ready()
    apps.push(app)
    return app
  }

  beforeAll(() => {
    pool = testPool()
    dist = mkdtempSync(join(tmpdir(), 'teiki-dist-'))
    writeFileSync(join(dist, 'index.html'), INDEX)
    writeFileSync(join(dist, 'app.js'), 'console.log(1)')
  })
  afterAll(async () => {
    for (const app of apps) await app.close()
    await pool.end()
    rmSync(dist, { recursive: true, force: true })
  })

  it('embedded: every client route gets App Bridge and the shop’s frame-ancestors, never cached', async () => {
    const app = await appWith({ apiKey: TEST_API_KEY })
    for (const url of [
      '/?shop=a-shop.myshopify.com&host=abc',
      '/billing/upcoming?shop=a-shop.myshopify.com',
      '/index.html?shop=a-shop.myshopify.com',
    ]) {
      const res = await app.inject({ method: 'GET', url, headers: NAVIGATION })
      expect(res.statusCode, url).toBe(200)
      expect(res.headers['content-type']).toMatch(/^text\/html/)
      expect(res.headers['content-security-policy']).toBe(
        'frame-ancestors https://a-shop.myshopify.com https://admin.shopify.com;',
      )
      expect(res.headers['cache-control']).toBe('no-store')
      expect(res.body).toContain(APP_BRIDGE_SCRIPT)
      expect(res.body).toContain(`content="${TEST_API_KEY}"`)
    }
    // Built assets are still files.
    expect((await app.inject({ method: 'GET', url: '/app.js' })).body).toBe('console.log(1)')
    // Other misses are JSON 404s: other methods, and API calls (they ask for JSON).
    for (const miss of [
      await app.inject({ method: 'POST', url: '/nothing-here', headers: NAVIGATION }),
      await app.inject({ method: 'GET', url: '/billing/upcoming', headers: { accept: 'application/json' } }),
      await app.inject({ method: 'GET', url: '/app-admin/nothing-here' }),
    ]) {
      expect(miss.statusCode).toBe(404)
      expect(miss.json()).toMatchObject({ error: { code: 'NOT_FOUND' } })
    }
  })

  it('standalone (the emulator): the document as built, and no framing without a shop', async () => {
    const app = await appWith(undefined)
    const res = await app.inject({ method: 'GET', url: '/', headers: NAVIGATION })
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe(INDEX)
    expect(res.headers['content-security-policy']).toBe("frame-ancestors 'none';")
    // The root is the document for curl and health probes too (no Accept, or */*), not a 404.
    for (const headers of [{}, { accept: '*/*' }]) {
      const root = await app.inject({ method: 'GET', url: '/', headers })
      expect(root.statusCode).toBe(200)
      expect(root.body).toBe(INDEX)
    }
    const api = await app.inject({ method: 'GET', url: '/', headers: { accept: 'application/json' } })
    expect(api.statusCode).toBe(404)
    expect(api.json()).toMatchObject({ error: { code: 'NOT_FOUND' } })
    const other = await app.inject({ method: 'GET', url: '/billing/upcoming', headers: { accept: '*/*' } })
    expect(other.statusCode).toBe(404)
  })
})
