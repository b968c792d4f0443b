import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import iconv from 'iconv-lite'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, CHROMIUM_ARGS } from '../bench/web-vitals.ts'
import { ROOT, type RunningApp, startApp } from './support/app-process.ts'
import { npmRunBilling } from './support/billing-cli.ts'
import { waitForOrders } from './support/contract-orders.ts'
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
// An affiliate's conversion endpoint (設定 › サンクスページの計測タグ): what the pixel requested.
const conversions: string[] = []
let tagServer: Server
let tagUrl = ''

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true })
  tagServer = createServer((req, res) => {
    conversions.push(req.url ?? '')
    res.writeHead(204).end()
  })
  await new Promise<void>((resolve) => tagServer.listen(0, '127.0.0.1', resolve))
  tagUrl = `http://127.0.0.1:${(tagServer.address() as AddressInfo).port}`
  app = await startApp(dataDir)
  await app.waitFor(/を同期しました: 契約 \d+ 件/)
  browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, '--lang=ja'] })
  page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: 'ja-JP' })
})

afterAll(async () => {
  tagServer?.close()
  await browser?.close()
  await app?.interrupt()
  rmSync(dataDir, { recursive: true, force: true })
})

const appPath = (path: string) => app.url.replace('/?', `${path}?`)
const SHOP = 'teiki-demo.myshopify.com'

/** `hh:mm` Japan time on the day of a Japanese date (2026年12月29日), as an ISO instant. */
function japanTime(text: string, hhmm: string): string {
  const m = /(\d{4})年(\d{1,2})月(\d{1,2})日/.exec(text)
  if (!m) throw new Error(`no Japanese date in ${JSON.stringify(text)}`)
  const [h, min] = hhmm.split(':').map(Number) as [number, number]
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), h - 9, min)).toISOString()
}

type SavedOrder = {
  contractId: number | null
  name: string
  customAttributes?: Array<{ key: string; value: string }>
}

/** The platform's orders of a contract, as the emulator saved them (its own truth). */
function platformOrders(contractId: string): SavedOrder[] {
  const state = JSON.parse(readFileSync(join(dataDir, 'emulator', 'emulator-state.json'), 'utf8')) as {
    shops: Array<{ full: { orders: SavedOrder[] } }>
  }
  return state.shops[0]!.full.orders.filter((o) => String(o.contractId) === contractId)
}

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

  it('設定 › 配送設定: ヤマト運輸, 最短お届け日数 2日, 沖縄県 +2日', async () => {
    await page.goto(appPath('/settings'))
    const lead = page.locator('[data-testid="delivery-lead-days"] input')
    await lead.waitFor({ timeout: 20_000 })
    await lead.fill('2')
    expect(await page.locator('[data-testid="delivery-extra-JP-47"] input').inputValue()).toBe('2')
    await page.getByRole('button', { name: '配送設定を保存' }).click()
    await expect
      .poll(async () => (await fetch(appPath('/app-admin/delivery-settings'))).json(), { timeout: 10_000 })
      .toMatchObject({
        settings: { carrier: 'yamato', leadDays: 2, extraDaysByPrefecture: { 'JP-47': 2 } },
      })
    await page.screenshot({ path: join(ARTIFACTS, 'settings-delivery.png'), fullPage: true })
    await page.goto(storeUrl)
  })

  it('設定 › サンクスページ: a message for the thank-you block and a 計測タグ for the web pixel', async () => {
    await page.goto(appPath('/settings'))
    const message = page.locator('[data-testid="settings-thank-you-message"] textarea').first()
    await message.waitFor({ timeout: 20_000 })
    await message.fill('ご注文ありがとうございます。次回のお届けもお楽しみに。')
    const tags = [
      { name: 'アフィリエイト', url: `${tagUrl}/cv?so={order_id}&si={total}`, subscriptionOnly: true },
    ]
    await page.locator('[data-testid="settings-conversion-tags"] textarea').first().fill(JSON.stringify(tags))
    await page.getByRole('button', { name: '保存', exact: true }).click()
    await expect
      .poll(async () => (await fetch(appPath('/app-admin/settings'))).json(), { timeout: 10_000 })
      .toMatchObject({ pixel: { status: 'connected' } })
    const saved = await (await fetch(appPath('/app-admin/settings'))).json()
    expect(JSON.parse(saved.settings.thankPageScript)).toMatchObject({
      message: 'ご注文ありがとうございます。次回のお届けもお楽しみに。',
      tags: [{ ...tags[0], subscriptionOnly: true }],
    })
    expect(await page.locator('body').innerText()).toContain('ウェブピクセル: 接続済み')
    await page.screenshot({ path: join(ARTIFACTS, 'settings-thank-you.png'), fullPage: true })
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
    // The app's thank-you block: the first delivery as chosen, the next one billing will make,
    // and the merchant's message (it asks again while the contract's webhook is on its way).
    const block = page.locator('[data-extension="teiki-thank-you"]')
    await expect.poll(() => block.innerText(), { timeout: 30_000 }).toContain('次回のお届け予定')
    const [y, m, d] = deliveryDate.split('-').map(Number)
    const blockText = await block.innerText()
    expect(blockText).toContain('定期便のご案内')
    expect(blockText).toContain(`初回のお届け: ${y}年${m}月${d}日（19時〜21時）`)
    expect(blockText).toMatch(/次回のお届け予定: \d{4}年\d{1,2}月\d{1,2}日（19時〜21時）/)
    expect(blockText).toMatch(/次回のお支払い: \d{4}年\d{1,2}月\d{1,2}日/)
    expect(blockText).toContain('ご注文ありがとうございます。次回のお届けもお楽しみに。')
    // The 計測タグ: requested by the pixel with this order's id and total.
    const total = /お支払い金額 ¥([\d,]+)/.exec(text)?.[1]?.replaceAll(',', '')
    expect(total).toMatch(/^\d+$/)
    await expect.poll(() => conversions.length, { timeout: 15_000 }).toBe(1)
    expect(conversions[0]).toMatch(new RegExp(`^/cv\\?so=\\d+&si=${total}$`))
    await page.screenshot({ path: join(ARTIFACTS, 'storefront-thank-you.png'), fullPage: true })
    await page.setViewportSize({ width: 360, height: 780 })
    await page.screenshot({ path: join(ARTIFACTS, 'storefront-thank-you-phone.png'), fullPage: true })
    await page.setViewportSize({ width: 1280, height: 900 })
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

  it('出荷予定 lists its next order with 19時〜21時 (1921); the CSV reads back in Shift_JIS', async () => {
    await page.goto(appPath('/shipping'))
    await page.locator('[data-testid="shipping-days"]').waitFor({ timeout: 20_000 })
    await page.locator('[data-testid="shipping-days-select"] select').selectOption('31')
    await expect
      .poll(() => page.locator('[data-testid="shipping-days"] li').count(), { timeout: 10_000 })
      .toBe(31)
    expect(await page.locator('[data-testid="shipping-days"]').innerText()).toContain('19時〜21時（1921）')
    await page.screenshot({ path: join(ARTIFACTS, 'shipping-forecast.png'), fullPage: true })
    const res = await fetch(appPath('/app-admin/shipping-forecast/csv') + '&days=31&encoding=shift_jis')
    expect(res.headers.get('content-type')).toBe('text/csv; charset=Shift_JIS')
    const rows = iconv.decode(Buffer.from(await res.arrayBuffer()), 'cp932').split('\r\n')
    expect(rows[0]).toMatch(/^お届け予定日,請求予定日,配送時間帯,配送時間帯コード,定期回数,契約ID,/)
    const row = rows.find((r) => r.split(',')[5] === contractId)?.split(',')
    expect(row, `a CSV row of contract ${contractId}`).toBeDefined()
    // Windows-31J writes 〜 as ～.
    expect(row!.slice(2, 5)).toEqual(['19時～21時', '1921', '2'])
  })

  it('two billing cycles: each order carries 配送時間帯 1921, its お届け予定日 and 定期回数', async () => {
    const detailUrl = appPath(`/subscriptions/${contractId}`)
    for (const cycle of [2, 3]) {
      await page.goto(detailUrl)
      const due = await page.locator('[data-testid="contract-next-billing-date"]').innerText()
      const run = await npmRunBilling(app, dataDir, SHOP, japanTime(due, '23:59'))
      expect(run.succeeded).toBeGreaterThanOrEqual(1)
      await waitForOrders(page, detailUrl, cycle)
      await expect.poll(() => platformOrders(contractId).length, { timeout: 20_000 }).toBe(cycle)
      const order = platformOrders(contractId).at(-1)!
      const attrs = Object.fromEntries((order.customAttributes ?? []).map((a) => [a.key, a.value]))
      expect(attrs.配送時間帯).toBe('19時〜21時')
      expect(attrs.配送時間帯コード).toBe('1921')
      expect(attrs.定期回数).toBe(String(cycle))
      // Billed on the due day: delivered that day plus the shop's preparation days, never before.
      const [y, m, d] = /(\d{4})年(\d{1,2})月(\d{1,2})日/.exec(due)!.slice(1).map(Number) as [
        number,
        number,
        number,
      ]
      const billingDay = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`
      expect(attrs.お届け予定日! >= billingDay).toBe(true)
    }
    await page.screenshot({ path: join(ARTIFACTS, 'storefront-contract-after-billing.png'), fullPage: true })
  })
})
