import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import iconv from 'iconv-lite'
import { type Browser, chromium, type Locator, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, CHROMIUM_ARGS } from '../bench/web-vitals.ts'
import { ROOT, type RunningApp, startApp } from './support/app-process.ts'
import { demoShopTruth } from './support/emulator-state.ts'

const ARTIFACTS = join(ROOT, 'artifacts/e2e')
const dataDir = mkdtempSync(join(tmpdir(), 'teiki-e2e-edits-'))
let app: RunningApp
let browser: Browser
let page: Page

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true })
  app = await startApp(dataDir)
  await app.waitFor(/を同期しました: 契約 \d+ 件/)
  browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, '--lang=ja'] })
  page = await browser.newPage({
    viewport: { width: 1280, height: 900 },
    locale: 'ja-JP',
    acceptDownloads: true,
  })
})

afterAll(async () => {
  await browser?.close()
  await app?.interrupt()
  rmSync(dataDir, { recursive: true, force: true })
})

const ROW = '[data-testid="subscription-row"]'

/** A button tagged by test id, on the button itself or on its wrapper. */
const button = (testId: string, scope: Page | Locator = page) =>
  scope.locator(`button[data-testid="${testId}"], [data-testid="${testId}"] button`).first()

const input = (testId: string) => page.locator(`[data-testid="${testId}"] input`).first()

/** Opens the detail page of the n-th active contract of the list; returns its id. */
async function openActiveContract(skip = 0): Promise<string> {
  await page.goto(app.url)
  const rows = page.locator(ROW)
  await rows.first().waitFor({ timeout: 15_000 })
  const texts = await rows.allInnerTexts()
  const active = texts.flatMap((text, index) => (text.includes('有効') ? [index] : []))
  const index = active[skip]!
  const contractId = texts[index]!.match(/\b\d{11}\b/)![0]
  await rows.nth(index).click()
  await page.waitForURL(new RegExp(`/subscriptions/${contractId}\\?`))
  await expect
    .poll(() => page.locator('[data-testid="contract-status"]').innerText(), { timeout: 15_000 })
    .toMatch(/有効$/)
  return contractId
}

const tokyoDate = (epochMs: number) =>
  new Date(epochMs).toLocaleDateString('sv-SE', { timeZone: 'Asia/Tokyo' })

describe('a merchant edits a contract', () => {
  it('changes the next billing date and sees it in the list in Japan time', async () => {
    const contractId = await openActiveContract(0)
    await button('edit-next-billing-date').click()
    await input('next-billing-date-input').fill('2027-01-15')
    await page.locator('[data-testid="edit-save"]').click()
    const shown = page.locator('[data-testid="contract-next-billing-date"]')
    await expect.poll(() => shown.innerText(), { timeout: 15_000 }).toContain('2027年1月15日')
    await page.screenshot({ path: join(ARTIFACTS, 'detail-next-billing-date.png'), fullPage: true })

    // The platform holds the new date: the 15th in Japan, whatever the server's zone.
    await expect
      .poll(
        () => {
          const c = demoShopTruth(dataDir).contracts.find((c) => String(c.id) === contractId) as
            | { nextBillingDate?: number }
            | undefined
          return c?.nextBillingDate ? tokyoDate(c.nextBillingDate) : null
        },
        { timeout: 10_000 },
      )
      .toBe('2027-01-15')

    await page.goto(app.url)
    const box = page.locator('#subscription-search')
    await box.fill(contractId)
    await box.press('Enter')
    await expect.poll(() => page.locator(ROW).count(), { timeout: 15_000 }).toBe(1)
    expect(await page.locator(ROW).first().innerText()).toContain('2027年1月15日')
    await page.screenshot({ path: join(ARTIFACTS, 'list-after-date-change.png') })
  })

  it('picks the delivery date in the calendar, which offers no day before the next billing date', async () => {
    const contractId = await openActiveContract(2)
    const billingText = await page.locator('[data-testid="contract-next-billing-date"]').innerText()
    const [, y, m, d] = billingText.match(/(\d{4})年(\d{1,2})月(\d{1,2})日/)!.map(Number) as number[]
    const billingDay = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`
    const today = tokyoDate(Date.now())
    const earliest = billingDay > today ? billingDay : today

    await button('edit-next-delivery-date').click()
    await page.locator('[data-testid="next-delivery-date-input"] button[aria-label*="カレンダー"]').click()
    const picker = page.locator('.teiki-date-picker')
    await picker.waitFor()
    // The calendar opens on the first day it allows, headed in Japanese order.
    const [ey, em, ed] = earliest.split('-').map(Number) as [number, number, number]
    await expect(
      picker.evaluate((el) => getComputedStyle(el).getPropertyValue('--teiki-month-title')),
    ).resolves.toBe(`"${ey}年${em}月"`)
    const days = picker.locator('.Polaris-DatePicker__Day')
    const states = await days.evaluateAll((buttons) =>
      buttons.map((b) => [Number(b.textContent), b.getAttribute('aria-disabled') === 'true'] as const),
    )
    for (const [day, disabled] of states) expect(disabled, `day ${day}`).toBe(day < ed)
    await page.screenshot({ path: join(ARTIFACTS, 'detail-delivery-date-picker.png') })

    await days
      .filter({ hasText: new RegExp(`^${ed}$`) })
      .first()
      .click()
    await expect(input('next-delivery-date-input').inputValue()).resolves.toBe(`${ey}年${em}月${ed}日`)
    await page.locator('[data-testid="edit-save"]').click()
    const shown = page.locator('[data-testid="contract-next-delivery-date"]')
    await expect.poll(() => shown.innerText(), { timeout: 15_000 }).toBe(`${ey}年${em}月${ed}日`)
    // The custom attribute the platform keeps reads as a Japanese date on the page too.
    await expect(page.locator('[data-testid="contract-info"]').innerText()).resolves.toContain(
      `お届け予定日: ${ey}年${em}月${ed}日`,
    )
    await expect
      .poll(
        () =>
          (
            demoShopTruth(dataDir).contracts.find((c) => String(c.id) === contractId) as
              | { customAttributes?: Array<{ key: string; value: string }> }
              | undefined
          )?.customAttributes?.find((a) => a.key === 'お届け予定日')?.value,
        { timeout: 10_000 },
      )
      .toBe(earliest)
  })

  it('adds a line and sees it on the detail page', async () => {
    const contractId = await openActiveContract(1)
    const lines = page.locator('[data-testid^="line-row-"]')
    await lines.first().waitFor()
    const before = await lines.count()

    // A product the shop sells, found the way the merchant finds it: by its name.
    const auth = new URL(app.url).search.slice(1)
    const res = await fetch(`${new URL(app.url).origin}/app-admin/products/variants/search?${auth}&limit=50`)
    const { variants } = (await res.json()) as {
      variants: Array<{ id: string; productTitle: string; title: string }>
    }
    const onContract = await lines.allInnerTexts()
    const variant = variants.find((v) => !onContract.some((text) => text.includes(v.productTitle)))!
    expect(variant).toBeDefined()

    await button('add-line').click()
    await input('variant-search-input').fill(variant.productTitle)
    await page.locator(`[data-testid="variant-option-${variant.id}"]`).click()
    await input('line-quantity-input').fill('2')
    await page.locator('[data-testid="edit-save"]').click()

    await expect.poll(() => lines.count(), { timeout: 15_000 }).toBe(before + 1)
    const added = lines.nth(before)
    expect(await added.innerText()).toContain(variant.productTitle)
    expect(await added.innerText()).toMatch(/2/)
    await page.screenshot({ path: join(ARTIFACTS, 'detail-line-added.png'), fullPage: true })

    // The platform holds the new line, with the variant chosen.
    await expect
      .poll(
        () =>
          demoShopTruth(dataDir)
            .contracts.find((c) => String(c.id) === contractId)
            ?.lines.map((l) => String(l.variantId)),
        { timeout: 10_000 },
      )
      .toContain(variant.id)
  })

  it.each([
    { encoding: 'utf-8', label: /UTF-8/ },
    { encoding: 'shift_jis', label: /Shift_JIS/ },
  ])(
    'exports the contracts as CSV ($encoding) and the Japanese names read back intact',
    async ({ encoding, label }) => {
      await page.goto(app.url)
      await page.locator(ROW).first().waitFor({ timeout: 15_000 })
      await button('export-open').click()
      // Polaris radios are visually hidden; the merchant clicks the label.
      await page.locator('[data-testid="export-encoding"] label').filter({ hasText: label }).click()
      await expect(
        page.locator('[data-testid="export-encoding"]').getByLabel(label).isChecked(),
      ).resolves.toBe(true)
      await button('export-submit').click()
      await page.locator('[data-testid="export-progress"]').first().waitFor({ timeout: 15_000 })
      const download = button('export-download')
      await download.waitFor({ timeout: 30_000 })
      await page.screenshot({ path: join(ARTIFACTS, `export-${encoding}.png`) })
      const [file] = await Promise.all([page.waitForEvent('download'), download.click()])
      expect(file.suggestedFilename()).toMatch(/^subscriptions-\d{8}-\d{4}\.csv$/)
      const bytes = readFileSync((await file.path())!)

      let text: string
      if (encoding === 'utf-8') {
        // The BOM Excel needs to read UTF-8.
        expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
        text = bytes.subarray(3).toString('utf8')
      } else {
        // Windows-31J: not valid UTF-8, and decodes to the same Japanese.
        expect(bytes.toString('utf8')).toContain('\ufffd')
        text = iconv.decode(bytes, 'cp932')
      }
      const lines = text.split('\r\n').filter(Boolean)
      expect(lines[0]).toMatch(/^契約ID,ステータス,顧客ID,顧客名,メールアドレス,次回請求日/)
      const truth = demoShopTruth(dataDir)
      expect(lines).toHaveLength(truth.contracts.length + 1)
      // Every contract's row names its customer as the platform has them, in Japanese.
      const byId = new Map(lines.slice(1).map((line) => [line.split(',')[0], line]))
      for (const contract of truth.contracts) {
        const customer = truth.customers.find((c) => c.id === contract.customerId)!
        expect(byId.get(String(contract.id))).toContain(`,${customer.displayName},`)
      }
      expect(truth.customers.some((c) => /[\u4e00-\u9fff]/.test(c.displayName))).toBe(true)
    },
  )
})
