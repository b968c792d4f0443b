import { chromium } from 'playwright-core'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/**
 * LCP and CLS of a page in headless Chromium, each load in a fresh context (cold cache).
 * The observers are installed before any script of the page runs.
 */
export async function measureVitals(url: string, opts: { runs: number; readySelector: string }) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true })
  const runs: Array<{ lcpMs: number; cls: number }> = []
  try {
    for (let i = 0; i < opts.runs; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'ja-JP' })
      const page = await context.newPage()
      await page.addInitScript(() => {
        const w = window as unknown as { __lcp: number; __cls: number }
        w.__lcp = 0
        w.__cls = 0
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) w.__lcp = entry.startTime
        }).observe({ type: 'largest-contentful-paint', buffered: true })
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Array<
            PerformanceEntry & { value: number; hadRecentInput: boolean }
          >) {
            if (!entry.hadRecentInput) w.__cls += entry.value
          }
        }).observe({ type: 'layout-shift', buffered: true })
      })
      await page.goto(url, { waitUntil: 'load' })
      await page.waitForSelector(opts.readySelector, { timeout: 30_000 })
      await page.waitForTimeout(1_000)
      const vitals = await page.evaluate(() => {
        const w = window as unknown as { __lcp: number; __cls: number }
        return { lcpMs: w.__lcp, cls: w.__cls }
      })
      runs.push({ lcpMs: Math.round(vitals.lcpMs), cls: Math.round(vitals.cls * 10000) / 10000 })
      await context.close()
    }
  } finally {
    await browser.close()
  }
  const median = <T>(values: T[], key: (v: T) => number) =>
    values.map(key).sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
  return {
    runs,
    lcpMsMedian: median(runs, (r) => r.lcpMs),
    clsMedian: median(runs, (r) => r.cls),
    lcpMsMax: Math.max(...runs.map((r) => r.lcpMs)),
    clsMax: Math.max(...runs.map((r) => r.cls)),
  }
}
