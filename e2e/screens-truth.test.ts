import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from './support/app-process.ts'
import { e2eSession } from './support/session.ts'

// Issue 22, in Chromium on a fresh `npm start`: the calendar opens after a date was typed, a
// date that does not exist refuses the list instead of being dropped, 解約理由 counts every
// cancellation 分析 counts, and the browser finds a favicon.

const ARTIFACTS = join(ROOT, 'artifacts/e2e')
const session = e2eSession('screens', /デモ用に用意しました: .*解約理由/)
beforeAll(() => mkdirSync(ARTIFACTS, { recursive: true }))
const page = () => session.page
const at = (path: string) => session.at(path)

const ROW = '[data-testid="subscription-row"]'
const calendar = () => page().locator('.Polaris-DatePicker')

describe('what the merchant reads is true (issue 22)', () => {
  it('the calendar button opens the calendar after a date was typed in the field', async () => {
    await page().goto(session.app.url)
    await page().locator(ROW).first().waitFor({ timeout: 30_000 })
    const field = page().getByTestId('next-billing-from')
    await field.locator('input').fill('2026/12/1')
    // One click, as a merchant gives it: before, the field narrowed as focus left the input
    // (its clear button left the layout), the button slid from under the pointer between
    // mousedown and mouseup, and the click was lost.
    await field.getByRole('button', { name: '次回請求日（から）をカレンダーから選ぶ' }).click()
    await expect.poll(() => calendar().isVisible(), { timeout: 10_000 }).toBe(true)
    // It opens on the typed day's month (its heading is drawn from this property).
    expect(await page().locator('.teiki-date-picker').getAttribute('style')).toContain('"2026年12月"')
    await page().keyboard.press('Escape')
  })

  it('a filter date that does not exist is refused on screen, not dropped', async () => {
    await page().goto(session.app.url)
    await page().locator(ROW).first().waitFor({ timeout: 30_000 })
    await page().getByTestId('next-billing-from').locator('input').fill('2026/13/45')
    await page().keyboard.press('Tab')
    const refused = page().getByTestId('filter-refused')
    await expect
      .poll(() => refused.innerText(), { timeout: 10_000 })
      .toContain('2026年13月45日は存在しない日付です')
    expect(await page().locator(ROW).count()).toBe(0)
    // Kept in the URL, so a reload refuses it again rather than listing every contract.
    await page().reload()
    await expect.poll(() => refused.isVisible(), { timeout: 15_000 }).toBe(true)
    expect(await page().locator(ROW).count()).toBe(0)
    // The server refuses it too, naming the day.
    const url = new URL(session.app.url)
    url.pathname = '/app-admin/subscriptions/search'
    url.searchParams.set('nextBillingDateFrom', '2026-13-45')
    const res = await fetch(url, { headers: { accept: 'application/json' } })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain(
      '2026年13月45日は存在しない日付です',
    )
  })

  it('解約理由 counts, by the shop’s reasons, every cancellation 分析 counts', async () => {
    await page().goto(at('/analytics'))
    await page().getByTestId('figure-cancel').waitFor({ timeout: 30_000 })
    await page().getByLabel('期間').selectOption({ label: '全期間' })
    await expect.poll(() => page().getByText('月別の解約数').isVisible(), { timeout: 30_000 }).toBe(true)
    const cancellations = Number(
      (await page().getByTestId('figure-cancel').innerText())
        .match(/解約数\s*([\d,]+)/)![1]!
        .replace(/,/g, ''),
    )
    expect(cancellations).toBeGreaterThan(0)

    await page().goto(at('/cancellation-reasons'))
    // The counts card (the 解約防止オファー card below has its own 合計).
    const counts = page().getByTestId('cancellation-reason-counts')
    const total = counts.getByRole('row', { name: /合計/ })
    await expect.poll(() => total.innerText(), { timeout: 30_000 }).toContain(`${cancellations}件`)
    await expect.poll(() => page().getByText('解約理由はまだ登録されていません').count()).toBe(0)
    const rows = await counts.getByRole('row').allInnerTexts()
    const counted = rows.filter((r) => /\d+件\s+[\d.]+%/.test(r))
    expect(counted.length).toBeGreaterThanOrEqual(5)
    // Most frequent first (the demo draws its reasons at random, weighted, so any may lead).
    const perReason = counted.map((r) => Number(r.match(/(\d+)件/)![1]))
    expect(perReason).toEqual([...perReason].sort((a, b) => b - a))
    expect(perReason.reduce((n, c) => n + c, 0)).toBe(cancellations)
    await page().screenshot({ path: join(ARTIFACTS, 'cancellation-reasons.png') })
  })

  it('serves a favicon the document links', async () => {
    const res = await fetch(at('/favicon.ico'))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/icon/)
    await page().goto(session.app.url)
    expect(await page().locator('link[rel="icon"]').getAttribute('href')).toBe('/favicon.ico')
  })
})
