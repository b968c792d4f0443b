import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, CHROMIUM_ARGS } from '../bench/web-vitals.ts'
import { ROOT, type RunningApp, startApp } from './support/app-process.ts'
import { npmRunBilling } from './support/billing-cli.ts'
import { orderRows as contractOrders, waitForOrders } from './support/contract-orders.ts'
import { addWidgetInThemeEditor } from './support/theme-widget.ts'

// Issue 13's flow as a merchant and a shopper meet it, on the embedded default: the merchant
// creates a selling plan group with a recurring discount (初回 20%オフ, 2回目以降 10%オフ) in
// 販売プラン and adds two products with the product picker; the テーマ page puts the block on
// the product page; the shopper sees the plan with both prices on one product's page and buys
// it with the demo card; the contract shows in 契約一覧; `npm run billing` charges its next two
// cycles, and the contract's 注文履歴 shows each order at its cycle's price.
//
// Cycles and orders (the checkout is the first order):
//   order 1 = cycle 1, the checkout itself: 初回 price (20%オフ), paid at checkout;
//   order 2 = cycle 2, `npm run billing` at the first billing date: 2回目以降 price (10%オフ);
//   order 3 = cycle 3, `npm run billing` at the second billing date: 2回目以降 price again.
//
// 無添加だしパック 10包 is ¥1,296: 20%オフ is ¥1,036.8 and 10%オフ ¥1,166.4, so both prices
// are rounded (half up, to whole yen: ¥1,037 and ¥1,166) and the storefront's Liquid, the
// checkout and the billing engine must round them alike. Below ¥5,000 the demo shop charges
// ¥550 shipping on every order (the contract's 配送料, checked on screen).

const ARTIFACTS = join(ROOT, 'artifacts/e2e')
const SHOP = 'teiki-demo.myshopify.com'
const GROUP = '初回20%オフ定期便'
const PLAN = 'はじめて割・毎月お届け'
const PRODUCT = { title: '無添加だしパック', variant: '10包', price: 1296, first: 1037, later: 1166 }
const OTHER = { title: '京都宇治抹茶', price: 2160, first: 1728, later: 1944 }
const SHIPPING = 550

const dataDir = mkdtempSync(join(tmpdir(), 'teiki-e2e-plan-billing-'))
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

const yen = (n: number) => `¥${n.toLocaleString('en-US')}`
const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, name), fullPage: true })

/** A date as the app and the store print it (2026年12月26日), as [year, month, day]. */
function parseDateJa(text: string): [number, number, number] {
  const m = /(\d{4})年(\d{1,2})月(\d{1,2})日/.exec(text)
  if (!m) throw new Error(`no Japanese date in ${JSON.stringify(text)}`)
  return [Number(m[1]), Number(m[2]), Number(m[3])]
}

/**
 * `n` months after a date, on the same day of the month or the month's last day when it has no
 * such day (a contract bought on the 31st bills on the 28th of February, then the 31st again).
 */
function monthsAfter([year, month, day]: [number, number, number], n: number): string {
  const first = new Date(Date.UTC(year, month - 1 + n, 1))
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate()
  return `${first.getUTCFullYear()}年${first.getUTCMonth() + 1}月${Math.min(day, last)}日`
}

/** The last moment of a Japanese date in Japan time, as an ISO instant for `--now`. */
function endOfDayInJapan(dateJa: string): string {
  const [y, m, d] = parseDateJa(dateJa)
  const pad = (x: number) => String(x).padStart(2, '0')
  return new Date(`${y}-${pad(m)}-${pad(d)}T23:59:59+09:00`).toISOString()
}

/** `npm run billing` as the merchant types it; the running app makes the run and answers. */
async function runBilling(now: string) {
  const summary = await npmRunBilling(app, dataDir, SHOP, now)
  expect(summary.now).toBe(now)
  return summary
}

const orderRows = () => contractOrders(page)

/** The price a line of the contract's 商品 card is charged at now (`数量 1 ・ ¥1,037`). */
async function linePrice(): Promise<string> {
  const text = (await page.locator('[data-testid="contract-lines"]').innerText()).replace(/\s+/g, ' ')
  expect(text).toContain(`${PRODUCT.title} ${PRODUCT.variant}`)
  return /数量 1 ・ (¥[\d,]+)/.exec(text)?.[1] ?? text
}

describe('a selling plan from the editor to its second billed order', () => {
  let storeProductUrl = ''
  let contractId = ''
  /** The store's date of the first renewal (thank-you page), and the day of the purchase (order 1). */
  let firstDue = ''
  let boughtOn: [number, number, number] = [0, 0, 0]

  it('creates a group with a recurring discount in 販売プラン and adds two products with the picker', async () => {
    await page.goto(app.url)
    await page.getByRole('link', { name: '販売プラン' }).first().click()
    await page.getByRole('heading', { name: '販売プラン' }).waitFor({ timeout: 30_000 })
    await page.getByRole('link', { name: '販売プランを作成' }).first().click()
    await page.getByRole('heading', { name: '販売プランを作成' }).waitFor()

    await page.getByLabel('販売プラン名').fill(GROUP)
    const plan = page.locator('[data-testid="plan-card-0"]')
    await plan.getByLabel('プラン名').fill(PLAN)
    await plan.getByLabel('割引の種類').selectOption({ label: '初回と2回目以降で割引を変える' })
    await plan.getByLabel('割引の単位').selectOption({ label: '％オフ' })
    await plan.getByLabel('初回の割引').fill('20')
    expect(await plan.getByLabel('切り替える回数').inputValue()).toBe('1') // from the 2nd order
    await plan.getByLabel('切り替え後の割引').fill('10')
    // The editor's own preview, on a ¥1,980 product: 1,980 × 0.8 = 1,584; × 0.9 = 1,782.
    await expect
      .poll(() => plan.locator('[data-testid="plan-price-preview"]').innerText())
      .toBe('¥1,980 の商品の場合：1回目 ¥1,584　2回目 ¥1,782　3回目 ¥1,782　4回目 ¥1,782')

    // The product picker (the app's modal on the local default): search, tick, search again.
    await page.getByRole('button', { name: '商品を選ぶ' }).click()
    const picker = page.getByRole('dialog', { name: '商品を選択' })
    await picker.waitFor()
    const found = picker.locator('[data-testid^="product-picker-product-"]')
    for (const [n, title] of [PRODUCT.title, OTHER.title].entries()) {
      await picker.getByPlaceholder('商品名・バリエーション名・SKUで検索').fill(title)
      // The search has answered when the product is the only row (the first page has ten).
      await expect
        .poll(() => found.allInnerTexts(), { timeout: 15_000 })
        .toEqual([expect.stringContaining(title)])
      // Polaris draws its own box over the input: tick it as a click on the row's checkbox.
      await picker.getByRole('checkbox', { name: title, exact: true }).check({ force: true })
      await picker.getByText(`${n + 1}商品を選択中`).waitFor()
    }
    await shot('plan-picker.png')
    await picker.getByRole('button', { name: '追加', exact: true }).click()
    await page.getByText('2商品を選択中（販売プランの作成時に追加します）').waitFor()
    await shot('plan-editor-new.png')

    await page.locator('[data-testid="plan-group-save"] button').click()
    await page.waitForURL(/\/selling-plans\/\d+\?/, { timeout: 30_000 })
    await page.getByRole('heading', { name: GROUP }).waitFor({ timeout: 30_000 })
    // The saved group as the platform answered it: both products (2 + 2 variants) and the plan.
    await page.getByText('2商品・4バリエーション').waitFor({ timeout: 30_000 })
    for (const title of [PRODUCT.title, OTHER.title]) await page.getByText(title, { exact: true }).waitFor()
    const saved = page.locator('[data-testid="plan-card-0"]')
    expect(await saved.getByLabel('プラン名').inputValue()).toBe(PLAN)
    expect(await saved.getByLabel('初回の割引').inputValue()).toBe('20')
    expect(await saved.getByLabel('切り替え後の割引').inputValue()).toBe('10')
    await shot('plan-editor-saved.png')

    // The list: the new group found by its name, with its plan, discount type and counts.
    await page.getByRole('link', { name: '販売プラン' }).first().click()
    await page.getByPlaceholder('販売プラン名で検索').fill('20%オフ')
    const row = page.locator('tr', { hasText: GROUP })
    await expect.poll(() => page.locator('tbody tr').count(), { timeout: 15_000 }).toBe(1)
    // (A badge also carries a hidden tone word for screen readers: each cell is checked on its own.)
    const cells = await row.locator('td').allInnerTexts()
    expect(cells[0]).toBe(GROUP)
    expect(cells[1]).toContain(PLAN)
    expect(cells[1]).toContain('初回と2回目以降で割引を変える')
    expect(cells[2]).toBe('2商品・4バリエーション')
    await shot('plan-list.png')
  })

  it('the テーマ page adds the block; the product page shows the plan with 1回目 and 2回目以降 in yen', async () => {
    await page.getByRole('link', { name: 'テーマ' }).first().click()
    await page
      .getByText('このテーマの商品ページはアプリブロックに対応しています。')
      .waitFor({ timeout: 20_000 })
    await addWidgetInThemeEditor(page)
    const storeUrl = (await page.getByRole('link', { name: 'ストアで確認' }).getAttribute('href')) ?? ''
    expect(storeUrl).toMatch(/\/s\/teiki-demo\.myshopify\.com\/products\/[a-z0-9-]+$/)
    await shot('plan-theme.png')

    // ストアで確認 opens some product with plans; the shopper goes to the store's front page
    // and opens the product the group sells.
    await page.goto(storeUrl)
    await page.locator('[data-teiki-plans]').waitFor()
    await page.goto(storeUrl.replace(/\/products\/[^/]+$/, '/'))
    await page.locator('main a', { hasText: PRODUCT.title }).first().click()
    await page.waitForURL(/\/products\/[a-z0-9-]+$/)
    storeProductUrl = page.url()
    const option = page.locator('[data-teiki-plans] .teiki-plans__option', { hasText: PLAN })
    await option.waitFor()
    expect(await page.locator('select[name="id"] option:checked').innerText()).toContain(PRODUCT.variant)
    const rows = option.locator('.teiki-price:visible .teiki-price__row')
    expect(await rows.count()).toBe(2)
    // 1回目 ¥1,037 (the regular ¥1,296 struck through), 2回目以降 ¥1,166.
    expect(await rows.nth(0).locator('.teiki-price__label').innerText()).toBe('1回目')
    expect(await rows.nth(0).locator('.teiki-price__amount').innerText()).toBe(yen(PRODUCT.first))
    expect(await rows.nth(0).locator('.teiki-price__regular').innerText()).toBe(yen(PRODUCT.price))
    expect(await rows.nth(1).locator('.teiki-price__label').innerText()).toBe('2回目以降')
    expect(await rows.nth(1).locator('.teiki-price__amount').innerText()).toBe(yen(PRODUCT.later))
    await option.locator('input[name="selling_plan"]').check()
    await shot('plan-storefront-product.png')

    // The group's other product sells on the plan too, at its own prices (30g ¥2,160 × 0.8, × 0.9).
    await page.goto(storeUrl.replace(/\/products\/[^/]+$/, '/'))
    await page.locator('main a', { hasText: OTHER.title }).first().click()
    const other = page.locator('[data-teiki-plans] .teiki-plans__option', { hasText: PLAN })
    await other.waitFor()
    const otherAmounts = await other.locator('.teiki-price:visible .teiki-price__amount').allInnerTexts()
    expect(otherAmounts).toEqual([yen(OTHER.first), yen(OTHER.later)])
  })

  it('buys the plan through the emulator’s checkout with the demo card', async () => {
    await page.goto(storeProductUrl)
    const option = page.locator('[data-teiki-plans] .teiki-plans__option', { hasText: PLAN })
    await option.locator('input[name="selling_plan"]').check()
    await page.getByRole('button', { name: 'カートに追加' }).click()
    await page.waitForURL(/\/cart$/)
    const cart = (await page.locator('table').innerText()).replace(/\s+/g, ' ')
    expect(cart).toContain(`${PRODUCT.title} ${PRODUCT.variant}・定期購入: ${PLAN}`)
    expect(cart).toContain(`${yen(PRODUCT.first)} 1 ${yen(PRODUCT.first)}`)
    await shot('plan-cart.png')
    await page.getByRole('link', { name: 'ご購入手続きへ' }).click()
    await page.getByRole('button', { name: 'デモカードで支払う' }).click()
    await page.getByText('ご注文ありがとうございます').waitFor()
    const text = (await page.locator('main').innerText()).replace(/\s+/g, ' ')
    // Order 1 (cycle 1): the 初回 price plus shipping.
    expect(text).toContain(`お支払い金額 ${yen(PRODUCT.first + SHIPPING)}`)
    const bought = new RegExp(
      `定期購入契約 #(\\d+)（${PLAN}）: 次回のお支払い (\\d{4}年\\d{1,2}月\\d{1,2}日)`,
    ).exec(text)
    expect(bought).not.toBeNull()
    contractId = bought![1]!
    firstDue = bought![2]!
    await shot('plan-thank-you.png')
  })

  it('the new contract shows in 契約一覧, mirrored from subscription_contracts/create', async () => {
    await page.goto(app.url)
    const row = page.locator('[data-testid="subscription-row"]', { hasText: contractId })
    await expect
      .poll(
        async () => {
          if ((await row.count()) === 0) await page.reload()
          return row.count()
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe(1)
    const text = (await row.innerText()).replace(/\s+/g, ' ')
    expect(text).toContain('有効')
    expect(text).toContain('山田 花子')
    expect(text).toContain(firstDue)
    await shot('plan-contract-list.png')

    await row.click()
    await page.waitForURL(new RegExp(`/subscriptions/${contractId}\\?`))
    await page.locator('[data-testid="contract-status"]').waitFor({ timeout: 20_000 })
    // Order 1 is the checkout's, on the day of the purchase (Japan time), at the 初回 price.
    await expect.poll(orderRows, { timeout: 20_000 }).toHaveLength(1)
    const [first] = await orderRows()
    expect(first!.amount).toBe(yen(PRODUCT.first + SHIPPING))
    boughtOn = parseDateJa(first!.date)
    // The first renewal one month after the purchase, the same date the store told the shopper.
    expect(firstDue).toBe(monthsAfter(boughtOn, 1))
    expect(await page.locator('[data-testid="contract-next-billing-date"]').innerText()).toBe(firstDue)
    expect(await page.locator('[data-testid="contract-order-count"]').innerText()).toBe('1回')
    const info = (await page.locator('[data-testid="contract-info"]').innerText()).replace(/\s+/g, ' ')
    expect(info).toContain(`配送料 ${yen(SHIPPING)}`)
    expect(await linePrice()).toBe(yen(PRODUCT.first))
    await shot('plan-contract-detail.png')
  })

  it('npm run billing at the first and second billing dates charges cycles 2 and 3 at the later price', async () => {
    const detail = page.url()
    for (const cycle of [2, 3]) {
      // Cycle n is due n − 1 months after the order (the checkout paid cycle 1).
      const due = monthsAfter(boughtOn, cycle - 1)
      expect(await page.locator('[data-testid="contract-next-billing-date"]').innerText()).toBe(due)
      const summary = await runBilling(endOfDayInJapan(due))
      expect(summary.succeeded).toBeGreaterThanOrEqual(1)

      await waitForOrders(page, detail, cycle)
      // Order 1 (the checkout) at the 初回 price, every renewal at the 2回目以降 price.
      expect((await orderRows()).map((o) => o.amount)).toEqual([
        yen(PRODUCT.first + SHIPPING), // order 1: cycle 1, paid at checkout
        yen(PRODUCT.later + SHIPPING), // order 2: cycle 2, the first npm run billing
        ...(cycle === 3 ? [yen(PRODUCT.later + SHIPPING)] : []), // order 3: cycle 3, the second
      ])
      expect(await page.locator('[data-testid="contract-order-count"]').innerText()).toBe(`${cycle}回`)
      expect(await page.locator('[data-testid="contract-next-billing-date"]').innerText()).toBe(
        monthsAfter(boughtOn, cycle),
      )
      // 決済履歴: one successful attempt per billed cycle (the checkout made none).
      const attempts = page.locator('[data-testid="contract-billing-attempts"] .Polaris-Badge')
      expect(await attempts.allInnerTexts()).toHaveLength(cycle - 1)
      expect(await attempts.filter({ hasText: '成功' }).count()).toBe(cycle - 1)
      await shot(`plan-contract-after-cycle-${cycle}.png`)
    }
    // The line carries the later price for cycle 4.
    expect(await linePrice()).toBe(yen(PRODUCT.later))
  })
})
