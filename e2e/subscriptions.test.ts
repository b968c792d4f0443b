import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, CHROMIUM_ARGS } from '../bench/web-vitals.ts'
import { ROOT, type RunningApp, startApp } from './support/app-process.ts'
import { demoShopTruth } from './support/emulator-state.ts'

const ARTIFACTS = join(ROOT, 'artifacts/e2e')
const dataDir = mkdtempSync(join(tmpdir(), 'teiki-e2e-'))
let app: RunningApp
let browser: Browser
let page: Page

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true })
  app = await startApp(dataDir)
  // The first start fills the mirror through the rate-limited Admin API; wait for the end.
  await app.waitFor(/を同期しました: 契約 \d+ 件/)
  browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, '--lang=ja'] })
  page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: 'ja-JP' })
})

afterAll(async () => {
  await browser?.close()
  await app?.interrupt()
  rmSync(dataDir, { recursive: true, force: true })
})

const ROW = '[data-testid="subscription-row"]'

async function visibleContractIds(): Promise<string[]> {
  const texts = await page.locator(ROW).allInnerTexts()
  return texts.map((text) => text.match(/\b\d{11}\b/)?.[0] ?? `?${text}`)
}

async function search(input: string, expected: string[]) {
  const box = page.locator('#subscription-search')
  await box.fill(input)
  await box.press('Enter')
  await expect.poll(visibleContractIds, { timeout: 15_000 }).toEqual(expected)
}

describe('a merchant opens Teiki for the first time', () => {
  it('sees the subscription list of the demo shop in Japanese', async () => {
    await page.goto(app.url)
    await page.locator(ROW).first().waitFor({ timeout: 30_000 })
    await expect.poll(() => page.locator(ROW).count()).toBe(10)
    await expect(page.getByRole('heading', { name: '定期購買契約' }).count()).resolves.toBe(1)

    const truth = demoShopTruth(dataDir)
    const newest = truth.contracts
      .map((c) => c.id)
      .sort((a, b) => b - a)
      .slice(0, 10)
      .map(String)
    expect(await visibleContractIds()).toEqual(newest)

    const rows = await page.locator(ROW).allInnerTexts()
    for (const row of rows) {
      expect(row).toMatch(/有効|決済失敗|一時停止|期限切れ|解約済み/)
      // An ended contract (cancelled or expired) has no next billing date: its row shows — (issue 22).
      if (/解約済み|期限切れ/.test(row)) expect(row).not.toMatch(/\d{4}年\d{1,2}月\d{1,2}日/)
      else expect(row).toMatch(/\d{4}年\d{1,2}月\d{1,2}日/)
      expect(row).toMatch(
        /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+ [\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/u,
      )
    }
    await page.screenshot({ path: join(ARTIFACTS, 'list.png'), fullPage: true })
  })

  it("finds a customer's contracts by e-mail", async () => {
    const truth = demoShopTruth(dataDir)
    const customer = truth.customers.find((c) => c.email && truth.contractsOfCustomer(c.id).length >= 2)!
    await search(customer.email!, truth.contractsOfCustomer(customer.id))
    const names = await page.locator(ROW).allInnerTexts()
    expect(names.every((row) => row.includes(customer.displayName))).toBe(true)
    await page.screenshot({ path: join(ARTIFACTS, 'search-email.png') })
  })

  it('finds one contract by its id', async () => {
    const truth = demoShopTruth(dataDir)
    const contract = truth.contracts[Math.floor(truth.contracts.length / 2)]!
    await search(String(contract.id), [String(contract.id)])
  })

  it('finds the contracts holding a 14-digit variant id', async () => {
    const truth = demoShopTruth(dataDir)
    const variantId = truth.contracts[0]!.lines[0]!.variantId
    expect(String(variantId)).toMatch(/^\d{14}$/)
    const expected = truth.contractsWithVariant(variantId)
    await search(String(variantId), expected.slice(0, 10))
    await page.screenshot({ path: join(ARTIFACTS, 'search-variant.png') })
  })

  it('keeps the filters and page in the URL: back from a contract returns to the same place', async () => {
    await page.goto(app.url)
    await page.locator(ROW).first().waitFor({ timeout: 15_000 })
    const params = () => new URL(page.url()).searchParams
    await page.locator('[data-testid="status-filter"] button').click()
    await page.getByLabel('有効').check()
    await page.keyboard.press('Escape')
    await expect.poll(() => params().get('status')).toBe('ACTIVE')
    await page.locator('[data-testid="pagination-next"]').click()
    await expect.poll(() => params().get('page')).toBe('2')

    const active = demoShopTruth(dataDir)
      .contracts.filter((c) => c.status === 'ACTIVE')
      .map((c) => c.id)
      .sort((a, b) => b - a)
      .map(String)
    const pagination = page.locator('[data-testid="subscription-pagination"]')
    await expect.poll(visibleContractIds, { timeout: 15_000 }).toEqual(active.slice(10, 20))
    await expect.poll(() => pagination.innerText()).toContain(`11〜20件 / 全${active.length}件`)
    const listUrl = page.url()
    // The shop and secret stay beside the list's own parameters.
    expect([...params().keys()].sort()).toEqual(['page', 'secret', 'shop', 'status'])

    // Browser Back from a contract: the same page of the same filter.
    await page.locator(ROW).nth(2).click()
    await page.waitForURL(/\/subscriptions\/\d+\?/)
    await page.locator('[data-testid="contract-status"]').waitFor({ timeout: 15_000 })
    await page.goBack()
    await page.waitForURL(listUrl)
    await expect.poll(visibleContractIds, { timeout: 15_000 }).toEqual(active.slice(10, 20))
    await expect(page.locator('[data-testid="status-filter"]').innerText()).resolves.toContain(
      'ステータス：有効',
    )

    // The detail page's own back arrow does the same.
    await page.locator(ROW).nth(4).click()
    await page.locator('[data-testid="contract-status"]').waitFor({ timeout: 15_000 })
    await page.locator('a[aria-label="定期購買契約"]').click()
    await page.waitForURL(listUrl)
    await expect.poll(visibleContractIds, { timeout: 15_000 }).toEqual(active.slice(10, 20))
    await page.screenshot({ path: join(ARTIFACTS, 'list-page-2-after-back.png') })
  })

  it('filters by next billing date with the calendar, in Japanese', async () => {
    await page.goto(app.url)
    await page.locator(ROW).first().waitFor({ timeout: 15_000 })
    await page.locator('[data-testid="next-billing-from"] button[aria-label*="カレンダー"]').click()
    const picker = page.locator('.teiki-date-picker')
    await picker.waitFor()
    const title = await picker.evaluate((el) => getComputedStyle(el).getPropertyValue('--teiki-month-title'))
    expect(title).toMatch(/^"\d{4}年\d{1,2}月"$/)
    const weekdays = await picker.locator('thead th').allInnerTexts()
    expect(weekdays).toEqual(['日', '月', '火', '水', '木', '金', '土'])
    await page.screenshot({ path: join(ARTIFACTS, 'list-date-picker.png') })
    // The 15th of the month shown: the field reads it the Japanese way, the URL as a day.
    await picker.locator('.Polaris-DatePicker__Day').filter({ hasText: /^15$/ }).first().click()
    const [, year, month] = title.match(/(\d{4})年(\d{1,2})月/)!
    const day = `${year}-${month!.padStart(2, '0')}-15`
    await expect.poll(() => new URL(page.url()).searchParams.get('from')).toBe(day)
    await expect(page.locator('[data-testid="next-billing-from"] input').inputValue()).resolves.toBe(
      `${year}年${Number(month)}月15日`,
    )
  })

  it('shows the empty state for a search without results', async () => {
    await page.locator('#subscription-search').fill('nobody-at-all@example.jp')
    await page.locator('#subscription-search').press('Enter')
    await page.getByText('該当する契約はありません').waitFor({ timeout: 15_000 })
  })

  it('shows the current plan from the platform on /plans', async () => {
    const plans = new URL(app.url)
    plans.pathname = '/plans'
    await page.goto(plans.toString())
    // The demo shop holds プロ (the emulator's seeded plan), named and priced as the catalogue does.
    await page.getByText('現在のプラン').first().waitFor({ timeout: 15_000 })
    await expect(page.getByText('¥29,800／月').count()).resolves.toBeGreaterThan(0)
    await expect(page.getByRole('button', { name: '現在のプラン' }).count()).resolves.toBe(0)
    await page.screenshot({ path: join(ARTIFACTS, 'plans.png') })
  })

  it('sends a shop without an active plan to /plans, keeping only shop and secret', async () => {
    const context = await browser.newContext({ locale: 'ja-JP' })
    const gated = await context.newPage()
    // What the app answers for a shop without a plan (the platform reports none).
    await gated.route('**/app-admin/app-usage-eligibility?*', (route) =>
      route.fulfill({
        json: {
          eligible: false,
          reason: '有効なプランがありません。プランを選んでください',
          basis: 'no_plan',
          title: '有効なプランがありません',
          features: [],
          planKey: null,
        },
      }),
    )
    const url = new URL(app.url)
    url.searchParams.set('host', 'YWRtaW4uc2hvcGlmeS5jb20')
    url.searchParams.set('utm_source', 'mail')
    await gated.goto(url.toString())
    await gated.waitForURL(/\/plans\?/, { timeout: 15_000 })
    const landed = new URL(gated.url())
    expect([...landed.searchParams.keys()].sort()).toEqual(['secret', 'shop'])
    await gated.getByText('有効なプランがありません。プランを選んでください').waitFor()
    expect(await gated.locator(ROW).count()).toBe(0)
    await context.close()
  })

  it('blocks the app with the update modal when new permissions are needed', async () => {
    const context = await browser.newContext({ locale: 'ja-JP' })
    const gated = await context.newPage()
    await gated.route('**/app-admin/app-scope-eligibility?*', (route) =>
      route.fulfill({
        json: { eligible: false, redirect_uri: 'https://teiki-demo.myshopify.com/admin/oauth/authorize' },
      }),
    )
    await gated.goto(app.url)
    const modal = gated.locator('[data-testid="update-required-modal"]')
    await modal.waitFor({ timeout: 15_000 })
    await expect(modal.innerText()).resolves.toMatch(/新機能.*テーマデータへのアクセス権限/s)
    await expect(modal.innerText()).resolves.toContain('全期間の注文の読み取り')
    await expect(modal.getByRole('button', { name: 'アプリを更新' }).count()).resolves.toBe(1)
    expect(await gated.locator(ROW).count()).toBe(0)
    await gated.screenshot({ path: join(ARTIFACTS, 'update-required.png') })
    await context.close()
  })

  it('opens a contract, pauses it and resumes it, and the list follows', async () => {
    await page.goto(app.url)
    const rows = page.locator(ROW)
    await rows.first().waitFor({ timeout: 15_000 })
    const texts = await rows.allInnerTexts()
    const index = texts.findIndex((text) => text.includes('有効'))
    expect(index).toBeGreaterThanOrEqual(0)
    const contractId = texts[index]!.match(/\b\d{11}\b/)![0]
    await rows.nth(index).click()
    await page.waitForURL(new RegExp(`/subscriptions/${contractId}\\?`))
    // Polaris badges carry a visually hidden tone word (「成功」…) before the label.
    const status = page.locator('[data-testid="contract-status"]')
    await expect.poll(() => status.innerText(), { timeout: 15_000 }).toMatch(/有効$/)
    await page.screenshot({ path: join(ARTIFACTS, 'detail.png'), fullPage: true })

    await page.locator('[data-testid="contract-action-pause"] button').click()
    await page.getByRole('dialog').getByRole('button', { name: '一時停止する' }).click()
    await expect.poll(() => status.innerText(), { timeout: 15_000 }).toMatch(/一時停止$/)

    await page.locator('[data-testid="contract-action-resume"] button').click()
    await page.getByRole('dialog').getByRole('button', { name: '再開する' }).click()
    await expect.poll(() => status.innerText(), { timeout: 15_000 }).toMatch(/有効$/)

    // The platform holds the change too (the emulator saves its state to disk).
    await expect
      .poll(() => demoShopTruth(dataDir).contracts.find((c) => String(c.id) === contractId)?.status, {
        timeout: 5_000,
      })
      .toBe('ACTIVE')
    await page.goto(app.url)
    await search(contractId, [contractId])
    expect(await page.locator(ROW).first().innerText()).toContain('有効')
  })

  it('stops cleanly on Ctrl-C and keeps everything for the next start', async () => {
    const firstUrl = app.url
    await app.interrupt()
    // The app's own shutdown: every part stopped without error (it exits 1 otherwise).
    expect(app.output()).toMatch(/SIGINT: 停止しています…\s+\[teiki\] 停止しました\n/)
    expect(app.output()).not.toMatch(/停止処理に失敗/)

    app = await startApp(dataDir)
    // Ports are chosen anew (PORT=0); the shop and its secret are the same.
    expect(new URL(app.url).search).toBe(new URL(firstUrl).search)
    // Only what was updated since the last sync is read again (the contract paused above), and
    // the line says so instead of 「契約 0 件」.
    const [line] = await app.waitFor(/teiki-demo\.myshopify\.com (?:を確認しました|の前回の同期).*\n/)
    expect(line).toMatch(/前回の同期（\d{4}年\d{1,2}月\d{1,2}日 \d{1,2}:\d{2}）以降/)
    expect(line).toMatch(/変更はありませんでした|の更新を読み込みました: 契約 [01] 件/)
    await page.goto(app.url)
    const truth = demoShopTruth(dataDir)
    const newest = truth.contracts
      .map((c) => c.id)
      .sort((a, b) => b - a)
      .slice(0, 10)
      .map(String)
    await expect.poll(visibleContractIds, { timeout: 15_000 }).toEqual(newest)
  })
})
