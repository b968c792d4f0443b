// `--only mypage`: マイページ (issue 26) on the 100,000-contract shop of `--only shipping` (the same
// seed: one customer per contract). Measures, through a running server with the production
// settings:
// - the subscriber API (GET /proxy/api/subscriptions, each request signed as the platform's app
//   proxy signs it, for a random customer) at 32 connections for 10 s: p95 against ≤ 50 ms;
// - the page (GET /proxy/my-page, the HTML the platform renders in the theme) in headless
//   Chromium on a throttled phone (4× CPU slowdown, "fast 3G": 150 ms RTT, 1.6 Mbps down,
//   750 kbps up; 360 × 740): first contentful paint, p75 of 10 cold loads, against ≤ 1.5 s, and
//   the JavaScript it loads (gzip), against ≤ 60 KB.
// The page is measured as the app answers it; the store's own theme around it is the merchant's.
import { createHmac } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type pg from 'pg'
import { chromium } from 'playwright-core'
import { runLoad } from './load.ts'
import { SHIPPING_SHOP, seedShippingShop } from './shipping.ts'
import { CHROMIUM, CHROMIUM_ARGS } from './web-vitals.ts'

export const MY_PAGE_TARGETS = { apiP95Ms: 50, pageFcpP75Ms: 1_500, pageJsGzipKB: 60 }
const CUSTOMERS = 100_000
const FIRST_CUSTOMER = 7_100_000_000_000

/** The query the platform adds to a proxied request, signed with the app's secret. */
export function signedProxyQuery(customerId: string, secret: string): string {
  const query: Record<string, string> = {
    shop: SHIPPING_SHOP,
    logged_in_customer_id: customerId,
    path_prefix: '/apps/teiki',
    timestamp: String(Math.floor(Date.now() / 1000)),
  }
  const message = Object.keys(query)
    .sort()
    .map((k) => `${k}=${query[k]}`)
    .join('')
  const signature = createHmac('sha256', secret).update(message).digest('hex')
  return new URLSearchParams({ ...query, signature }).toString()
}

const customerOf = (i: number) => String(FIRST_CUSTOMER + 1 + ((i * 7919) % CUSTOMERS))

/**
 * The platform's part: it renders the app's `application/liquid` answer inside the store's
 * layout and serves it as HTML. A minimal layout here, so the page is measured as the app made it.
 */
async function storeFront(appPort: number): Promise<{ port: number; close: () => void }> {
  const server = http.createServer(async (req, res) => {
    const query = (req.url ?? '').split('?')[1] ?? ''
    const answer = await fetch(`http://127.0.0.1:${appPort}/proxy/my-page?${query}`)
    const body = await answer.text()
    res.writeHead(answer.status, { 'content-type': 'text/html; charset=utf-8' })
    res.end(
      `<!doctype html><html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>マイページ</title></head><body>${body}</body></html>`,
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { port: (server.address() as AddressInfo).port, close: () => server.close() }
}

async function pageFcp(appPort: number, secret: string, runs: number) {
  const store = await storeFront(appPort)
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true })
  const fcps: number[] = []
  let scriptBytes = 0
  let cards = 0
  try {
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'ja-JP' })
      const page = await context.newPage()
      const cdp = await context.newCDPSession(page)
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
      await cdp.send('Network.enable')
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 150,
        downloadThroughput: (1.6 * 1024 * 1024) / 8,
        uploadThroughput: (750 * 1024) / 8,
      })
      let bytes = 0
      page.on('response', async (res) => {
        if (res.request().resourceType() === 'script') bytes += Number(res.headers()['content-length'] ?? 0)
      })
      await page.goto(
        `http://127.0.0.1:${store.port}/apps/teiki/my-page?${signedProxyQuery(customerOf(i), secret)}`,
        {
          waitUntil: 'load',
        },
      )
      // The paint entry, once the browser has painted (buffered: it may have come before this runs).
      const fcp = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            new PerformanceObserver((list) => {
              const entry = list.getEntriesByName('first-contentful-paint')[0]
              if (entry) resolve(entry.startTime)
            }).observe({ type: 'paint', buffered: true })
            setTimeout(() => resolve(Number.NaN), 10_000)
          }),
      )
      cards = await page.locator('[data-contract]').count()
      if (!Number.isFinite(fcp) || cards === 0)
        throw new Error(`マイページ showed no contract: ${(await page.innerText('body')).slice(0, 600)}`)
      fcps.push(fcp)
      scriptBytes = Math.max(scriptBytes, bytes)
      await context.close()
    }
  } finally {
    await browser.close()
    store.close()
  }
  fcps.sort((a, b) => a - b)
  return {
    runs,
    fcpP50Ms: Math.round(fcps[Math.floor(runs * 0.5)]!),
    fcpP75Ms: Math.round(fcps[Math.min(runs - 1, Math.floor(runs * 0.75))]!),
    scriptKB: Math.round((scriptBytes / 1024) * 10) / 10,
    contractsShown: cards,
  }
}

export async function benchMyPage(opts: {
  pool: pg.Pool
  port: number
  secret: string
  log: (line: string) => void
}): Promise<Record<string, unknown>> {
  const { pool, port, secret, log } = opts
  await seedShippingShop(pool, log)
  const api = await runLoad({
    port,
    connections: 32,
    seconds: 10,
    warmupSeconds: 2,
    nextPath: (i) => `/proxy/api/subscriptions?${signedProxyQuery(customerOf(i), secret)}`,
  })
  log(
    `マイページ API (${CUSTOMERS.toLocaleString()} contracts, 32 connections): ${api.rps} req/s, ` +
      `p50 ${api.p50Ms} ms, p95 ${api.p95Ms} ms (≤ ${MY_PAGE_TARGETS.apiP95Ms}), errors ${api.errors}`,
  )
  const page = await pageFcp(port, secret, 10)
  log(
    `マイページ page on a throttled phone (4× CPU, fast 3G): FCP p50 ${page.fcpP50Ms} ms, p75 ${page.fcpP75Ms} ms ` +
      `(≤ ${MY_PAGE_TARGETS.pageFcpP75Ms}); JavaScript ${page.scriptKB} KB (≤ ${MY_PAGE_TARGETS.pageJsGzipKB})`,
  )
  return { contracts: CUSTOMERS, api, page, targets: MY_PAGE_TARGETS }
}
