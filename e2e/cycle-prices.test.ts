import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, CHROMIUM_ARGS } from '../bench/web-vitals.ts'
import { ROOT, type RunningApp, startApp } from './support/app-process.ts'
import { npmRunBilling } from './support/billing-cli.ts'
import { waitForOrders } from './support/contract-orders.ts'
import { addWidgetInThemeEditor } from './support/theme-widget.ts'

// Issue 22's flow on the embedded default (`npm start`): the shopper buys 国産大麦若葉の青汁
// (¥3,240) on 回数割定期便 (1回目30%オフ、2〜3回目20%オフ、4回目以降10%オフ: the platform holds
// the first order's discount, the app the later ones) in the demo store. For every order the
// price the block showed, the amount charged (thank-you page for order 1, 注文履歴 and the
// order mail for the renewals `npm run billing` charges), the amount 次回請求のお知らせ quoted
// (`npm run billing -- --notices` three days before each renewal, read from the mail catcher)
// and 契約詳細's next price are one number.
//
// Orders: order 1 = the checkout; orders 2, 3 and 4 = `npm run billing` at each billing date.

const ARTIFACTS = join(ROOT, 'artifacts/e2e')
const SHOP = 'teiki-demo.myshopify.com'
const PRODUCT = { title: '国産大麦若葉の青汁', handle: 'aojiru', price: 3240 }
const PLAN = '毎月お届け（回数ごとに割引）'
/** What the block must show for 回数割 on ¥3,240 (the figures). */
const BLOCK = ['1回目 ¥2,268', '2〜3回目 ¥2,592', '4回目以降 ¥2,916']

const dataDir = mkdtempSync(join(tmpdir(), 'teiki-e2e-cycle-prices-'))
let app: RunningApp
let browser: Browser
let page: Page
let mailPage = ''

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true })
  app = await startApp(dataDir)
  mailPage = (await app.waitFor(/送信メール（ローカルのメールサーバー）: (http:\/\/127\.0\.0\.1:\d+\/)/))[1]!
  // The demo's seed keeps 回数割's later discounts and publishes them for the storefront.
  await app.waitFor(/デモ用に用意しました: 回数割定期便の回数ごとの割引/)
  browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, '--lang=ja'] })
  page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: 'ja-JP' })
})

afterAll(async () => {
  await browser?.close()
  await app?.interrupt()
  rmSync(dataDir, { recursive: true, force: true })
})

const yen = (text: string) => Number(text.replace(/[^\d]/g, ''))
const appPath = (path: string) => app.url.replace('/?', `${path}?`)
const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, name), fullPage: true })

/** A Japanese date (2026年12月27日) as [year, month, day]. */
function dateJa(text: string): [number, number, number] {
  const m = /(\d{4})年(\d{1,2})月(\d{1,2})日/.exec(text)
  if (!m) throw new Error(`no Japanese date in ${JSON.stringify(text)}`)
  return [Number(m[1]), Number(m[2]), Number(m[3])]
}
/** `hh:mm` Japan time on the day `days` after a Japanese date, as an ISO instant. */
function japanTime(date: string, days: number, hhmm: string): string {
  const [y, m, d] = dateJa(date)
  const day = new Date(Date.UTC(y, m - 1, d + days))
  const [h, min] = hhmm.split(':').map(Number) as [number, number]
  return new Date(day.getTime() + (h - 9) * 3_600_000 + min * 60_000).toISOString()
}

const runBilling = (now: string, ...more: string[]) => npmRunBilling(app, dataDir, SHOP, now, ...more)

type CaughtMail = { subject: string; envelopeTo: string[]; text: string }

/** The mails the local catcher received for `to` with `subject`, oldest first. */
async function mailsTo(to: string, subject: string): Promise<CaughtMail[]> {
  const all = (await (await fetch(new URL('/mails.json', mailPage))).json()) as CaughtMail[]
  return all.filter((m) => m.envelopeTo.includes(to) && m.subject === subject).reverse()
}

describe('回数割定期便: the block, 契約詳細, the mails and the charges say one price per order', () => {
  /** The block's price of each order (1…4), in yen. */
  const shown: Record<number, number> = {}
  let contractId = ''
  let email = ''
  let detailUrl = ''
  let shipping = 0
  const charged: Record<number, number> = {}

  it('the product block shows 1回目 ¥2,268 / 2〜3回目 ¥2,592 / 4回目以降 ¥2,916', async () => {
    await page.goto(appPath('/theme'))
    await page
      .getByText('このテーマの商品ページはアプリブロックに対応しています。')
      .waitFor({ timeout: 30_000 })
    await addWidgetInThemeEditor(page)
    const storeUrl = (await page.getByRole('link', { name: 'ストアで確認' }).getAttribute('href')) ?? ''
    await page.goto(storeUrl.replace(/\/products\/[^/]+$/, `/products/${PRODUCT.handle}`))
    const option = page.locator('[data-teiki-plans] .teiki-plans__option', { hasText: PLAN })
    await option.waitFor()
    const rows = option.locator('.teiki-price:visible .teiki-price__row')
    const read = async (i: number) =>
      `${await rows.nth(i).locator('.teiki-price__label').innerText()} ${await rows.nth(i).locator('.teiki-price__amount').innerText()}`
    expect(await rows.count()).toBe(3)
    expect([await read(0), await read(1), await read(2)]).toEqual(BLOCK)
    expect(await rows.nth(0).locator('.teiki-price__regular').innerText()).toBe('¥3,240')
    for (const [cycle, row] of [
      [1, 0],
      [2, 1],
      [3, 1],
      [4, 2],
    ] as const)
      shown[cycle] = yen(await rows.nth(row).locator('.teiki-price__amount').innerText())
    await option.locator('input[name="selling_plan"]').check()
    await shot('cycle-prices-block.png')
  })

  it('buys it with the demo card: order 1 is charged the block’s 1回目 price (plus shipping)', async () => {
    await page.getByRole('button', { name: 'カートに追加' }).click()
    await page.waitForURL(/\/cart$/)
    expect((await page.locator('table').innerText()).replace(/\s+/g, ' ')).toContain(`定期購入: ${PLAN}`)
    await page.getByRole('link', { name: 'ご購入手続きへ' }).click()
    email = await page.locator('input[name="email"]').inputValue()
    expect(email).toMatch(/@example\.jp$/)
    await page.getByRole('button', { name: 'デモカードで支払う' }).click()
    await page.getByText('ご注文ありがとうございます').waitFor()
    const text = (await page.locator('main').innerText()).replace(/\s+/g, ' ')
    contractId = new RegExp(`定期購入契約 #(\\d+)（${PLAN}）`).exec(text)?.[1] ?? ''
    expect(contractId).toMatch(/^\d+$/)
    charged[1] = yen(/お支払い金額 (¥[\d,]+)/.exec(text)![1]!)
    await shot('cycle-prices-thank-you.png')
  })

  it('契約詳細 shows the next order’s price, 次回（2回目） ¥2,592, and the ones after by order number', async () => {
    detailUrl = appPath(`/subscriptions/${contractId}`)
    await page.goto(detailUrl)
    await expect
      .poll(
        async () => {
          const status = page.locator('[data-testid="contract-status"]')
          if ((await status.count()) === 0) await page.reload()
          return (await status.count()) > 0
            ? page.locator('[data-testid="contract-order-count"]').innerText()
            : ''
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe('1回')
    const info = (await page.locator('[data-testid="contract-info"]').innerText()).replace(/\s+/g, ' ')
    shipping = yen(/配送料 (¥[\d,]+)/.exec(info)?.[1] ?? '¥0')
    expect(charged[1]).toBe(shown[1]! + shipping)
    expect(await page.locator('[data-testid="line-next-price"]').innerText()).toBe('次回（2回目） ¥2,592')
    expect(await page.locator('[data-testid="line-cycle-prices"]').innerText()).toBe(
      '回ごとの価格: 2〜3回目 ¥2,592 ／ 4回目以降 ¥2,916',
    )
    await shot('cycle-prices-detail.png')
  })

  it('orders 2–4: the notice’s amount, the amount charged, the order mail and the block agree', async () => {
    for (const cycle of [2, 3, 4]) {
      await page.goto(detailUrl)
      const due = await page.locator('[data-testid="contract-next-billing-date"]').innerText()
      // 次回請求のお知らせ: at 09:30 Japan time, three days before the billing date.
      const notice = await runBilling(japanTime(due, -3, '09:30'), '--notices')
      expect(notice.notices).toBeGreaterThanOrEqual(1)
      const notices = await mailsTo(email, '次回の定期便のお知らせ')
      expect(notices).toHaveLength(cycle - 1)
      const noticeText = notices.at(-1)!.text
      expect(noticeText).toContain(`次回ご請求日: ${due}`)
      expect(noticeText).toContain(`${PRODUCT.title}（30包） × 1　¥${shown[cycle]!.toLocaleString('en-US')}`)
      const quoted = yen(/ご請求予定金額: (¥[\d,]+)/.exec(noticeText)![1]!)

      // The charge at the end of the billing day.
      const run = await runBilling(japanTime(due, 0, '23:59'))
      expect(run.succeeded).toBeGreaterThanOrEqual(1)
      const order = (await waitForOrders(page, detailUrl, cycle)).at(-1)!
      charged[cycle] = yen(order.amount)
      const orderMails = await mailsTo(email, 'ご注文ありがとうございます（定期便）')
      const orderMail = orderMails.find((m) => m.text.includes(`ご注文番号: #${order.number}`))
      expect(orderMail, `order mail of #${order.number}`).toBeDefined()
      const mailed = yen(/ご請求金額: (¥[\d,]+)/.exec(orderMail!.text)![1]!)

      // One number: the block's price plus shipping, quoted, charged and mailed.
      expect({ quoted, charged: charged[cycle], mailed }).toEqual({
        quoted: shown[cycle]! + shipping,
        charged: shown[cycle]! + shipping,
        mailed: shown[cycle]! + shipping,
      })
      // 契約詳細's next price is the block's for the order after.
      const next = await page.locator('[data-testid="line-next-price"]').innerText()
      expect(next).toBe(
        `次回（${cycle + 1}回目） ¥${(shown[Math.min(cycle + 1, 4)] ?? 0).toLocaleString('en-US')}`,
      )
      await shot(`cycle-prices-after-order-${cycle}.png`)
    }
    expect(charged).toEqual({
      1: 2268 + shipping,
      2: 2592 + shipping,
      3: 2592 + shipping,
      4: 2916 + shipping,
    })
  })
})
