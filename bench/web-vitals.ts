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

type Observed = {
  lcp: number
  lcpElement: string
  cls: number
  readyMs: number
  /** The largest painted element of the content (`contentSelector`), and when it painted. */
  contentLcp: number
  contentLcpElement: string
  /** When the last of the content's elements painted. */
  contentPaintedMs: number
  /** Elements removed from the page before the content showed (placeholders). */
  removed: string[]
}

/**
 * Runs in the page before any of its scripts: LCP and CLS observers, when `readySelector` first
 * shows, and, for `contentSelector`, Element Timing on every element inside it (the attribute is
 * set as they are inserted, before their first paint), so the content's own largest paint is
 * known whatever the browser picked as LCP (a skeleton painted earlier is larger than any row).
 */
function installObservers(args: { readySelector: string; contentSelector: string }) {
  // What an element is, for the report: tag, id or first class, and its text.
  const describe = (el: Element) => {
    const name = el.id ? `#${el.id}` : el.classList[0] ? `.${el.classList[0]}` : ''
    const text = (el.textContent ?? '').trim().slice(0, 30)
    return `${el.tagName.toLowerCase()}${name}${text ? ` "${text}"` : ''}`
  }
  const w = window as unknown as { __vitals: Observed }
  const v: Observed = {
    lcp: 0,
    lcpElement: '',
    cls: 0,
    readyMs: 0,
    contentLcp: 0,
    contentLcpElement: '',
    contentPaintedMs: 0,
    removed: [],
  }
  w.__vitals = v
  let largest = -1
  new MutationObserver((records) => {
    for (const el of document.querySelectorAll(`${args.contentSelector} *:not([elementtiming])`))
      el.setAttribute('elementtiming', 'content')
    if (v.readyMs) return
    for (const r of records)
      for (const n of r.removedNodes)
        if (n instanceof Element && (n.id || n.classList.length)) v.removed.push(describe(n))
    if (document.querySelector(args.readySelector)) v.readyMs = performance.now()
  }).observe(document, { childList: true, subtree: true })
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Array<PerformanceEntry & { element?: Element | null }>) {
      v.lcp = entry.startTime
      v.lcpElement = entry.element ? describe(entry.element) : '(an element since removed from the page)'
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true })
  type ElementEntry = PerformanceEntry & {
    element: Element | null
    renderTime: number
    intersectionRect: DOMRectReadOnly
  }
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as ElementEntry[]) {
      const area = e.intersectionRect.width * e.intersectionRect.height
      v.contentPaintedMs = Math.max(v.contentPaintedMs, e.renderTime)
      if (area <= largest) continue
      largest = area
      v.contentLcp = e.renderTime
      v.contentLcpElement = e.element ? describe(e.element) : '?'
    }
  }).observe({ type: 'element', buffered: true })
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Array<
      PerformanceEntry & { value: number; hadRecentInput: boolean }
    >) {
      if (!entry.hadRecentInput) v.cls += entry.value
    }
  }).observe({ type: 'layout-shift', buffered: true })
}

/**
 * LCP and CLS of a page in headless Chromium, each load in a fresh context (cold cache). The
 * browser's LCP is reported with the element it was: on a page that shows skeletons first, that
 * can be a placeholder the data replaced, so with `contentSelector` the LCP of that content (the
 * list's rendered rows) is measured too, by Element Timing: the paint of its largest element.
 */
export async function measureVitals(
  url: string,
  opts: { runs: number; readySelector: string; contentSelector?: string },
) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true })
  const runs: Array<Record<string, number | string | string[]>> = []
  const contentSelector = opts.contentSelector ?? opts.readySelector
  try {
    for (let i = 0; i < opts.runs; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'ja-JP' })
      const page = await context.newPage()
      // tsx compiles this file with esbuild's keepNames, which wraps named functions in a
      // `__name` helper the page does not have: give it one before the observers' script.
      await page.addInitScript({ content: 'globalThis.__name ??= (f) => f' })
      await page.addInitScript(installObservers, {
        readySelector: opts.readySelector,
        contentSelector,
      })
      await page.goto(url, { waitUntil: 'load' })
      await page.waitForSelector(opts.readySelector, { timeout: 30_000 }).catch(async (error: unknown) => {
        // What the page showed instead, for whoever reads the failure.
        await page.screenshot({ path: 'bench/results/vitals-failure.png' }).catch(() => {})
        throw error
      })
      await page.waitForTimeout(1_000)
      const v = await page.evaluate(() => (window as unknown as { __vitals: Observed }).__vitals)
      runs.push({
        lcpMs: Math.round(v.lcp),
        lcpElement: v.lcpElement,
        contentLcpMs: Math.round(v.contentLcp),
        contentLcpElement: v.contentLcpElement,
        contentPaintedMs: Math.round(v.contentPaintedMs),
        cls: Math.round(v.cls * 10000) / 10000,
        readyMs: Math.round(v.readyMs),
        removedBeforeReady: [...new Set(v.removed)].slice(0, 5),
      })
      await context.close()
    }
  } finally {
    await browser.close()
  }
  return summarize(runs)
}

function summarize(runs: Array<Record<string, number | string | string[]>>) {
  const num = (r: Record<string, unknown>, key: string) => r[key] as number
  const median = (key: string) =>
    runs.map((r) => num(r, key)).sort((a, b) => a - b)[Math.floor(runs.length / 2)] ?? 0
  const mostCommon = (key: string) => {
    const counts = new Map<string, number>()
    for (const r of runs) counts.set(String(r[key]), (counts.get(String(r[key])) ?? 0) + 1)
    return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? ''
  }
  return {
    runs,
    lcpMsMedian: median('lcpMs'),
    lcpMsMax: Math.max(...runs.map((r) => num(r, 'lcpMs'))),
    lcpElement: mostCommon('lcpElement'),
    /** LCP of the content (`contentSelector`): the merchant's figure on a page with skeletons. */
    contentLcpMsMedian: median('contentLcpMs'),
    contentLcpMsMax: Math.max(...runs.map((r) => num(r, 'contentLcpMs'))),
    contentLcpElement: mostCommon('contentLcpElement'),
    clsMedian: median('cls'),
    clsMax: Math.max(...runs.map((r) => num(r, 'cls'))),
    /** When the ready selector (the page's data) first appeared in the DOM. */
    readyMsMedian: median('readyMs'),
  }
}
