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
  const runs: Array<{ lcpMs: number; cls: number; lcpElement: string; readyMs: number }> = []
  try {
    for (let i = 0; i < opts.runs; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'ja-JP' })
      const page = await context.newPage()
      await page.addInitScript((readySelector: string) => {
        // When the page's real content (not a skeleton or the title) first shows.
        const r = window as unknown as { __readyMs: number }
        r.__readyMs = 0
        new MutationObserver((_, observer) => {
          if (!r.__readyMs && document.querySelector(readySelector)) {
            r.__readyMs = performance.now()
            observer.disconnect()
          }
        }).observe(document, { childList: true, subtree: true })
        const w = window as unknown as { __lcp: number; __cls: number; __lcpElement: string }
        w.__lcp = 0
        w.__cls = 0
        w.__lcpElement = ''
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Array<PerformanceEntry & { element?: Element | null }>) {
            w.__lcp = entry.startTime
            const text = entry.element?.textContent?.trim().slice(0, 40) ?? ''
            w.__lcpElement = `${entry.element?.tagName.toLowerCase() ?? '?'} "${text}"`
          }
        }).observe({ type: 'largest-contentful-paint', buffered: true })
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Array<
            PerformanceEntry & { value: number; hadRecentInput: boolean }
          >) {
            if (!entry.hadRecentInput) w.__cls += entry.value
          }
        }).observe({ type: 'layout-shift', buffered: true })
      }, opts.readySelector)
      await page.goto(url, { waitUntil: 'load' })
      await page.waitForSelector(opts.readySelector, { timeout: 30_000 }).catch(async (error: unknown) => {
        // What the page showed instead, for whoever reads the failure.
        await page.screenshot({ path: 'bench/results/vitals-failure.png' }).catch(() => {})
        throw error
      })
      await page.waitForTimeout(1_000)
      const vitals = await page.evaluate(() => {
        const w = window as unknown as {
          __lcp: number
          __cls: number
          __lcpElement: string
          __readyMs: number
        }
        return { lcpMs: w.__lcp, cls: w.__cls, lcpElement: w.__lcpElement, readyMs: w.__readyMs }
      })
      runs.push({
        lcpMs: Math.round(vitals.lcpMs),
        cls: Math.round(vitals.cls * 10000) / 10000,
        lcpElement: vitals.lcpElement,
        readyMs: Math.round(vitals.readyMs),
      })
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
    /** When the ready selector (the page's data) first appeared. */
    readyMsMedian: median(runs, (r) => r.readyMs),
    clsMax: Math.max(...runs.map((r) => r.cls)),
  }
}
