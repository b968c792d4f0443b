import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { formatNumber } from '@teiki/domain'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningApp, startApp } from './support/app-process.ts'
import { closeAll, openJapanesePage } from './support/browser.ts'

// Issue 14: the merchant's analytics screens on the demo shop show what the report calls
// answer (the figures are computed from the 18 months of demo history, not canned).

const dataDir = mkdtempSync(join(tmpdir(), 'teiki-e2e-analytics-'))
let app: RunningApp
let browser: Browser
let page: Page

beforeAll(async () => {
  app = await startApp(dataDir)
  await app.waitFor(/ウェブピクセルを接続/)
  ;({ browser, page } = await openJapanesePage())
}, 300_000)

afterAll(() => closeAll(browser, app, dataDir))

const at = (path: string) => {
  const url = new URL(app.url)
  url.pathname = path
  return url.toString()
}
async function api<T>(path: string, query: Record<string, string>): Promise<T> {
  const url = new URL(app.url)
  url.pathname = `/app-admin/${path}`
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v)
  const res = await fetch(url, { headers: { accept: 'application/json' } })
  expect(res.status).toBe(200)
  return (await res.json()) as T
}

describe('analytics screens', () => {
  it('分析: this month’s new contracts card equals the sum of the daily report', async () => {
    await page.goto(at('/analytics'))
    const card = page.getByTestId('figure-new')
    await card.waitFor({ timeout: 30_000 })
    const subtitle = await page.locator('text=/\\d+年\\d+月1日〜/').first().innerText()
    const [, y, m, toY, toM, toD] = subtitle.match(/(\d+)年(\d+)月1日〜(\d+)年(\d+)月(\d+)日/)!
    const daily = await api<Array<{ count: number }>>('daily-report/new-contract', {
      startDate: `${y}-${m}-1`,
      endDate: `${toY}-${toM}-${toD}`,
    })
    const sum = daily.reduce((s, d) => s + d.count, 0)
    await expect.poll(() => card.innerText()).toContain(formatNumber(sum))
    // The chart's table view holds one row per day of the period.
    const chart = page.getByTestId('chart-new')
    await chart.getByRole('button', { name: '表' }).click()
    await expect.poll(() => chart.locator('tbody tr').count()).toBe(daily.length)
  })

  it('分析: the sales chart (polaris-viz) reads yen on its axis, 11月24日 under it, the full day in its tooltip', async () => {
    await page.goto(at('/analytics'))
    const sales = page.getByTestId('chart-sales-JPY')
    const figure = sales.locator('figure')
    await figure.locator('svg').first().waitFor({ timeout: 30_000 })
    expect(await figure.getAttribute('aria-label')).toMatch(/^日別の売上（JPY）のグラフ（\d+年\d+月1日〜/)
    const labels = async () => (await figure.locator('svg text').allTextContents()).map((t) => t.trim())
    await expect.poll(async () => (await labels()).some((t) => /^¥\d{1,3}(,\d{3})*$/.test(t))).toBe(true)
    expect((await labels()).some((t) => /^\d+月\d+日$/.test(t))).toBe(true)
    // No 表 view is open: a day written in full can only be the tooltip's title.
    const fullDay = page.getByText(/^\d{4}年\d+月\d+日$/)
    expect(await fullDay.count()).toBe(0)
    const box = (await figure.boundingBox())!
    // The tooltip: the day, then the series and its amount in yen. Hovered again on each try: a
    // re-render while the page settles (the previous period's data arriving) can close it.
    let nudge = 0
    const tooltipText = async () => {
      nudge = (nudge + 1) % 2
      await page.mouse.move(box.x + box.width * 0.5 + nudge * 4, box.y + box.height * 0.5)
      if ((await fullDay.count()) !== 1) return ''
      const tooltip = fullDay.locator('xpath=ancestor::div[contains(., "¥")][1]')
      return tooltip.innerText({ timeout: 1_000 }).catch(() => '')
    }
    await expect.poll(tooltipText, { timeout: 30_000 }).toMatch(/売上（JPY）\s*¥\d{1,3}(,\d{3})*/)
  })

  it('継続率: the table shows the cohorts the persistence call answers', async () => {
    await page.goto(at('/persistence-rate'))
    await page.locator('tbody tr').first().waitFor({ timeout: 30_000 })
    const rows = await page.locator('tbody tr').allInnerTexts()
    const first = rows[0]!.match(/^(\d+)年(\d+)月\s+(\d+)件/)!
    // The first row is the base month's cohort, as the call answers it.
    const rate = await api<{ rows: Array<{ contracts: number; entries: Array<{ percent: string }> }> }>(
      'subscriptions/persistence-rate',
      { baseDate: `${first[1]}-${first[2]}-1` },
    )
    expect(rows).toHaveLength(rate.rows.length)
    expect(Number(first[3])).toBe(rate.rows[0]!.contracts)
    expect(rows[0]).toContain(rate.rows[0]!.entries[1]!.percent)
  })

  it('流入元: the channels of the demo history with their rates', async () => {
    await page.goto(at('/traffic'))
    await page.locator('th', { hasText: '成果率' }).first().waitFor({ timeout: 30_000 })
    const text = await page.locator('tbody').innerText()
    expect(text).toContain('instagram')
    expect(text).toMatch(/\d+\.\d%/)
    // The screen connected the shop's web pixel through the platform (the emulator's webPixelCreate).
    const pixel = page.locator('[data-testid="pixel-card"]')
    await expect.poll(() => pixel.innerText(), { timeout: 15_000 }).toMatch(/接続済み[\s\S]*日に接続しました/)
    expect(await pixel.getByRole('button').count()).toBe(0)
  })
})
