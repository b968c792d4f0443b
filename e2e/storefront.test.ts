import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, CHROMIUM_ARGS } from '../bench/web-vitals.ts'
import { ROOT, type RunningApp, startApp } from './support/app-process.ts'
import { addWidgetInThemeEditor } from './support/theme-widget.ts'

// The storefront as a merchant and a shopper meet it on the embedded default: the テーマ page
// adds the widget to the published theme, ストアで確認 opens the emulated store's product page
// with the block, the shopper buys on a plan with the demo card, and the new contract shows in
// the app (mirrored from subscription_contracts/create).

const ARTIFACTS = join(ROOT, 'artifacts/e2e')
const dataDir = mkdtempSync(join(tmpdir(), 'teiki-e2e-store-'))
let app: RunningApp
let browser: Browser
let page: Page

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true })
  app = await startApp(dataDir)
  await app.waitFor(/を同期しました: 契約 \d+ 件/)
  browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, '--lang=ja'] })
  page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: 'ja-JP' })
})

afterAll(async () => {
  await browser?.close()
  await app?.interrupt()
  rmSync(dataDir, { recursive: true, force: true })
})

const appPath = (path: string) => app.url.replace('/?', `${path}?`)

describe('storefront widget and checkout', () => {
  let storeUrl = ''
  let contractId = ''
  let deliveryDate = ''

  it('the テーマ page adds the widget to the published theme', async () => {
    await page.goto(appPath('/theme'))
    await page
      .getByText('このテーマの商品ページはアプリブロックに対応しています。')
      .waitFor({ timeout: 20_000 })
    await page.getByText('未追加').waitFor()
    await addWidgetInThemeEditor(page)
    await page.screenshot({ path: join(ARTIFACTS, 'theme-page.png'), fullPage: true })
    storeUrl = (await page.getByRole('link', { name: 'ストアで確認' }).getAttribute('href')) ?? ''
    expect(storeUrl).toMatch(/\/s\/teiki-demo\.myshopify\.com\/products\/[a-z0-9-]+$/)
  })

  it('ストアで確認 shows the product page with each plan’s prices, switching with the variant', async () => {
    await page.goto(storeUrl)
    const block = page.locator('[data-teiki-plans]')
    await block.waitFor()
    expect(await block.locator('legend').innerText()).toBe('購入方法')
    const options = block.locator('.teiki-plans__option')
    expect(await options.count()).toBeGreaterThan(1)
    expect(await options.first().innerText()).toMatch(/通常購入（1回のみ）\s*¥[\d,]+/)
    // The first plan is chosen, and belongs to the theme's product form.
    const checked = block.locator('input[name="selling_plan"]:checked')
    expect(await checked.getAttribute('form')).toBe('product-form-main')
    expect(await checked.getAttribute('value')).toMatch(/^\d+$/)
    const visiblePrices = () => block.locator('.teiki-price:visible').allInnerTexts()
    const before = await visiblePrices()
    expect(before.join(' ')).toMatch(/(毎回|\d+回目)\s*¥[\d,]+/)
    await page.screenshot({ path: join(ARTIFACTS, 'storefront-product.png'), fullPage: true })
  })

  it('a variant change shows that variant’s prices (the block’s script, in the theme’s form)', async () => {
    // A product of the store with several variants and the block.
    await page.goto(storeUrl.replace(/\/products\/[^/]+$/, '/'))
    const links = await page
      .locator('main a')
      .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href))
    let found = false
    for (const link of links) {
      await page.goto(link)
      if (
        (await page.locator('select[name="id"] option').count()) > 1 &&
        (await page.locator('[data-teiki-plans]').count()) > 0
      ) {
        found = true
        break
      }
    }
    expect(found).toBe(true)
    const block = page.locator('[data-teiki-plans]')
    const visiblePrices = () => block.locator('.teiki-price:visible').allInnerTexts()
    const before = await visiblePrices()
    await page.locator('select[name="id"]').selectOption({ index: 1 })
    await expect.poll(visiblePrices).not.toEqual(before)
    expect((await visiblePrices()).length).toBe(before.length)
    await page.screenshot({ path: join(ARTIFACTS, 'storefront-variant.png'), fullPage: true })
    await page.locator('select[name="id"]').selectOption({ index: 0 })
    await expect.poll(visiblePrices).toEqual(before)
    await page.goto(storeUrl)
  })

  it('buys on a plan with the demo card, with a delivery date and 19時〜21時; the thank-you page names the new contract', async () => {
    const plan = await page
      .locator('[data-teiki-plans] input[name="selling_plan"]:checked')
      .getAttribute('value')
    // お届け日時: the script filled the deliverable dates (配送設定's defaults: the shop saved none).
    const picker = page.locator('[data-teiki-delivery][data-ready="true"]')
    await picker.waitFor()
    const dates = picker.locator('select[data-teiki-date] option')
    expect(await dates.first().innerText()).toBe('指定なし')
    expect(await dates.count()).toBeGreaterThan(20)
    expect(await dates.nth(1).innerText()).toMatch(/^\d{1,2}月\d{1,2}日（[日月火水木金土]）$/)
    deliveryDate = (await dates.nth(3).getAttribute('value')) ?? ''
    await picker.locator('select[data-teiki-date]').selectOption(deliveryDate)
    await picker.locator('select[data-teiki-slot]').selectOption('19時〜21時')
    await expect.poll(() => picker.getAttribute('data-saved')).toBe(`${deliveryDate}|19時〜21時`)
    await page.screenshot({ path: join(ARTIFACTS, 'storefront-delivery.png'), fullPage: true })
    await page.getByRole('button', { name: 'カートに追加' }).click()
    await page.waitForURL(/\/cart$/)
    expect(await page.locator('table').innerText()).toContain('定期購入: ')
    await page.getByRole('link', { name: 'ご購入手続きへ' }).click()
    await page.getByRole('button', { name: 'デモカードで支払う' }).click()
    await page.getByText('ご注文ありがとうございます').waitFor()
    const text = await page.locator('main').innerText()
    contractId = /定期購入契約 #(\d+)/.exec(text)?.[1] ?? ''
    expect(contractId).toMatch(/^\d+$/)
    expect(plan).toMatch(/^\d+$/)
    await page.screenshot({ path: join(ARTIFACTS, 'storefront-thank-you.png') })
  })

  it('the app shows the new contract, mirrored from the webhook, with the new customer', async () => {
    await page.goto(appPath(`/subscriptions/${contractId}`))
    await expect
      .poll(
        async () => {
          const status = page.locator('[data-testid="contract-status"]')
          if ((await status.count()) === 0) await page.reload()
          return (await status.count()) > 0 ? status.innerText() : ''
        },
        { timeout: 20_000 },
      )
      .toMatch(/有効$/)
    const body = await page.locator('body').innerText()
    expect(body).toContain('山田 花子')
    // The date and slot chosen on the product page, carried by the cart to the contract.
    const [y, m, d] = deliveryDate.split('-').map(Number)
    expect(body).toContain(`${y}年${m}月${d}日`)
    expect(body).toContain('19時〜21時')
    await page.screenshot({ path: join(ARTIFACTS, 'storefront-contract.png'), fullPage: true })
  })
})
