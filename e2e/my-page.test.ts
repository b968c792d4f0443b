import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, CHROMIUM_ARGS } from '../bench/web-vitals.ts'
import { ROOT, type RunningApp, startApp } from './support/app-process.ts'

// マイページ on the embedded default (issue 26, first step): a demo customer signs in to the
// emulated store with the one-time link (shown where the mail would bring it), the header links
// マイページ, and /apps/teiki/my-page — forwarded by the emulated app proxy, signed, to the app —
// shows their subscriptions in Japanese on a phone; signed out, the page asks them to sign in.

const ARTIFACTS = join(ROOT, 'artifacts/e2e')
const dataDir = mkdtempSync(join(tmpdir(), 'teiki-e2e-mypage-'))
let app: RunningApp
let browser: Browser
let page: Page
let storeBase = ''

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true })
  app = await startApp(dataDir)
  const [, url] = await app.waitFor(/ウェブピクセルを接続しました。.*（例: (http:\/\/\S+?\/s\/[^/?]+\/)\?/)
  storeBase = url!.replace(/\/$/, '')
  await app.waitFor(/を同期しました: 契約 \d+ 件/)
  browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, '--lang=ja'] })
  page = await browser.newPage({ viewport: { width: 360, height: 780 }, locale: 'ja-JP' })
})

afterAll(async () => {
  await browser?.close()
  await app?.interrupt()
  rmSync(dataDir, { recursive: true, force: true })
})

const appPath = (path: string) =>
  path.includes('?') ? app.url.replace('/?', `${path}&`) : app.url.replace('/?', `${path}?`)

/** The merchant's API on the embedded default (the standalone secret of the start-up URL). */
async function admin(method: string, path: string, body?: unknown) {
  const res = await fetch(appPath(path), {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  })
  expect(res.status, `${method} ${path}`).toBeLessThan(300)
  return res.json()
}

/** Signs `email` in to the demo store with the one-time link; lands on マイページ. */
async function signIn(email: string) {
  await page.goto(`${storeBase}/`)
  await page.getByRole('link', { name: 'ログイン' }).click()
  await page.getByLabel('メールアドレス').fill(email)
  await page.getByRole('button', { name: 'ログイン用のリンクを送る' }).click()
  await page.getByText('メールを確認してください').waitFor()
  await Promise.all([page.waitForNavigation(), page.locator('[data-login-link]').click()])
  // The link brings the customer back where they started (マイページ the first time).
  if (!/\/apps\/teiki\/my-page$/.test(page.url())) await page.goto(`${storeBase}/apps/teiki/my-page`)
  await page.getByRole('heading', { name: '定期便のご契約' }).waitFor()
}

/** Opens a change of the contract's card and submits its form, waiting for the page's answer. */
async function change(contractId: string, summary: string, fill: () => Promise<void>, button: string) {
  const card = page.locator(`[data-contract="${contractId}"]`)
  await card.locator('summary', { hasText: summary }).first().click()
  await fill()
  await submit(card.getByRole('button', { name: button }).first())
}

/** Clicks a form's button and waits for the page the post answers with. */
async function submit(button: ReturnType<Page['locator']>) {
  await Promise.all([page.waitForNavigation(), button.click()])
  await page.locator('.teiki-notice, [data-teiki="offer"]').first().waitFor()
}

describe('マイページ through the store', () => {
  it('a subscriber signs in with the link and reads their own subscriptions, in Japanese, on a phone', async () => {
    const latest = await (await fetch(appPath('/app-admin/subscriptions/latest?statuses=ACTIVE'))).json()
    const contractId: string = latest.subscription.contractId
    const detail = await (await fetch(appPath(`/app-admin/subscriptions/${contractId}`))).json()
    const email: string = detail.customer.email
    expect(email).toContain('@')

    await signIn(email)
    expect(await page.getByRole('link', { name: 'マイページ' }).count()).toBe(1)

    const cards = page.locator('[data-contract]')
    expect(await cards.count()).toBeGreaterThan(0)
    const ids = await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-contract')))
    expect(ids).toContain(contractId)
    // Each card is one of this customer's contracts (the app's own detail says whose).
    for (const id of ids) {
      const other = await (await fetch(appPath(`/app-admin/subscriptions/${id}`))).json()
      expect(other.customer.email).toBe(email)
    }
    const card = page.locator(`[data-contract="${contractId}"]`)
    const text = await card.innerText()
    expect(text).toContain('有効')
    expect(text).toMatch(/次回のお届け予定\s*\d{4}年\d{1,2}月\d{1,2}日/)
    expect(text).toMatch(/次回のお支払い\s*\d{4}年\d{1,2}月\d{1,2}日/)
    expect(text).toMatch(/¥\d{1,3}(,\d{3})*/)
    expect(text).toMatch(/〒\d{3}-?\d{4} /)
    // Fits the phone: nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
    await page.screenshot({ path: join(ARTIFACTS, 'my-page-phone.png'), fullPage: true })
  })

  it('signed out, マイページ asks to sign in and shows no contract', async () => {
    await page.getByRole('link', { name: 'ログアウト' }).click()
    await page.goto(`${storeBase}/apps/teiki/my-page`)
    await page.getByText('ログインしてください').waitFor()
    expect(await page.locator('[data-contract]').count()).toBe(0)
  })
})

describe('マイページ: a subscriber changes their subscription, and a cancellation becomes a conversation', () => {
  type Row = { contractId: string; customerId: string; nextBillingDate: string }
  let first: Row
  let second: Row
  let reasonId = ''
  let swapTo = ''

  it('the merchant offers 次回10%オフ for 「価格が高い」 and lets subscribers pick 北海道グラノーラ 1kg', async () => {
    const { reasons } = await admin('GET', '/app-admin/cancellation-reasons')
    reasonId = reasons.find((r: { reason: string }) => r.reason === '価格が高い').id
    await admin('PUT', `/app-admin/retention-offers/${reasonId}`, {
      offer: { kind: 'percent', percent: 10, orders: 1 },
    })
    const { variants } = await admin(
      'GET',
      `/app-admin/products/variants/search?query=${encodeURIComponent('グラノーラ')}`,
    )
    swapTo = variants.find((v: { title: string }) => v.title === '1kg').id
    await admin('POST', '/app-admin/my-page-target-product-variants', { variantIds: [swapTo], group: 1 })
    // Two customers with one ACTIVE contract each, billed at least a week from now (the change lock is 3 days).
    const { subscriptions } = await admin('GET', '/app-admin/subscriptions/search?statuses=ACTIVE&limit=100')
    const soonest = Date.now() + 7 * 86_400_000
    const counts = new Map<string, number>()
    for (const r of subscriptions as Row[]) counts.set(r.customerId, (counts.get(r.customerId) ?? 0) + 1)
    const fit = (subscriptions as Row[]).filter(
      (r) => counts.get(r.customerId) === 1 && Date.parse(r.nextBillingDate) > soonest,
    )
    expect(fit.length).toBeGreaterThan(1)
    ;[first, second] = fit as [Row, Row]
  })

  it('skips the next delivery, swaps the product, sets 19時〜21時 and keeps the subscription with the offer, on a phone', async () => {
    const detail = await admin('GET', `/app-admin/subscriptions/${first.contractId}`)
    // Signed out by the test before: nobody to sign out.
    expect(await page.getByRole('link', { name: 'ログアウト' }).count()).toBe(0)
    await signIn(detail.customer.email)
    const card = page.locator(`[data-contract="${first.contractId}"]`)

    await change(first.contractId, '次回のお届けをスキップ', async () => {}, '次回のお届けをスキップする')
    expect(await page.locator('.teiki-notice').innerText()).toMatch(
      /次回のお届けをスキップしました。次回のご注文日は\d{4}年\d{1,2}月\d{1,2}日です。/,
    )

    await change(
      first.contractId,
      'の数量・商品を変更',
      () =>
        card
          .locator('select[name="variantId"]')
          .first()
          .selectOption(swapTo)
          .then(() => {}),
      '商品を変更',
    )
    expect(await page.locator('.teiki-notice').innerText()).toContain(
      '商品を「北海道グラノーラ（1kg）」に変更しました。',
    )
    expect(await card.innerText()).toContain('北海道グラノーラ（1kg）')

    await change(
      first.contractId,
      '配送時間帯を変更',
      () =>
        card
          .locator('select[name="deliveryTime"]')
          .selectOption({ label: '19時〜21時' })
          .then(() => {}),
      '変更する',
    )
    expect(await card.innerText()).toMatch(/次回のお届け予定\s*\d{4}年\d{1,2}月\d{1,2}日（19時〜21時）/)

    await change(
      first.contractId,
      '定期便を解約',
      () =>
        card
          .locator('select[name="reasonId"]')
          .selectOption({ label: '価格が高い' })
          .then(() => {}),
      '解約する',
    )
    const offer = page.locator('[data-teiki="offer"]')
    expect(await offer.innerText()).toContain('次回10%オフ')
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
    await page.screenshot({ path: join(ARTIFACTS, 'my-page-offer-phone.png'), fullPage: true })
    await submit(offer.getByRole('button', { name: '次回10%オフで続ける' }))
    expect(await page.locator('.teiki-notice').innerText()).toBe(
      '「次回10%オフ」を適用しました。定期便はこのまま続きます。',
    )
    expect(await card.innerText()).toContain('有効')
    await page.screenshot({ path: join(ARTIFACTS, 'my-page-changed-phone.png'), fullPage: true })
  })

  it('the merchant sees it all: 契約詳細 (date, product, slot, discount) and 顧客詳細 (お客様 in the log)', async () => {
    const detail = await admin('GET', `/app-admin/subscriptions/${first.contractId}`)
    expect(Date.parse(detail.nextBillingDate)).toBeGreaterThan(Date.parse(first.nextBillingDate))
    expect(detail.lines.map((l: { variantId: string }) => l.variantId)).toContain(swapTo)
    expect(detail.deliveryTime).toBe('19-21')
    expect(detail.discounts.map((d: { title: string }) => d.title)).toContain('解約防止オファー: 次回10%オフ')
    const base = new URL(app.url)
    const admin360 = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: 'ja-JP' })
    await admin360.goto(`${base.origin}/subscriptions/${first.contractId}${base.search}`)
    await admin360.getByText('北海道グラノーラ').first().waitFor({ timeout: 30_000 })
    await admin360.getByText('19時〜21時').first().waitFor()
    await admin360.goto(`${base.origin}/customers/${first.customerId}${base.search}`)
    await admin360.getByText('次回のお届けをスキップしました').first().waitFor({ timeout: 30_000 })
    expect(await admin360.getByText('お客様', { exact: true }).count()).toBeGreaterThan(2)
    await admin360.screenshot({ path: join(ARTIFACTS, 'my-page-customer-log.png'), fullPage: true })
    await admin360.close()
  })

  it('a second subscriber declines the offer and is cancelled; 解約理由 counts 2 asked, 1 kept', async () => {
    const detail = await admin('GET', `/app-admin/subscriptions/${second.contractId}`)
    await page.getByRole('link', { name: 'ログアウト' }).click()
    await signIn(detail.customer.email)
    const card = page.locator(`[data-contract="${second.contractId}"]`)
    await change(
      second.contractId,
      '定期便を解約',
      () =>
        card
          .locator('select[name="reasonId"]')
          .selectOption({ label: '価格が高い' })
          .then(() => {}),
      '解約する',
    )
    await submit(page.locator('[data-teiki="offer"]').getByRole('button', { name: 'このまま解約する' }))
    expect(await page.locator('.teiki-notice').innerText()).toBe(
      '定期便を解約しました。ご利用ありがとうございました。',
    )
    expect(await card.innerText()).toContain('解約済み')
    const stats = await admin('GET', '/app-admin/retention-offers')
    expect(stats.reasons.find((r: { reasonId: string }) => r.reasonId === reasonId)).toMatchObject({
      asked: 2,
      offered: 2,
      kept: 1,
    })
    // …and the merchant's 解約理由 screen says so.
    const base = new URL(app.url)
    const screen = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: 'ja-JP' })
    await screen.goto(`${base.origin}/cancellation-reasons${base.search}`)
    const row = screen.locator('tr', { hasText: '次回10%オフ' }).first()
    await row.waitFor({ timeout: 30_000 })
    const cells = await row.innerText()
    expect(cells).toContain('価格が高い')
    expect(cells).toMatch(/2件[\s\S]*2件[\s\S]*1件[\s\S]*50(\.0)?%/)
    await screen.screenshot({ path: join(ARTIFACTS, 'cancellation-reasons-offers.png'), fullPage: true })
    await screen.close()
  })
})
