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

describe('マイページ through the store', () => {
  it('a subscriber signs in with the link and reads their own subscriptions, in Japanese, on a phone', async () => {
    const latest = await (await fetch(appPath('/app-admin/subscriptions/latest?statuses=ACTIVE'))).json()
    const contractId: string = latest.subscription.contractId
    const detail = await (await fetch(appPath(`/app-admin/subscriptions/${contractId}`))).json()
    const email: string = detail.customer.email
    expect(email).toContain('@')

    await page.goto(`${storeBase}/`)
    await page.getByRole('link', { name: 'ログイン' }).click()
    await page.getByLabel('メールアドレス').fill(email)
    await page.getByRole('button', { name: 'ログイン用のリンクを送る' }).click()
    await page.getByText('メールを確認してください').waitFor()
    await page.locator('[data-login-link]').click()
    await page.waitForURL(/\/apps\/teiki\/my-page$/)
    await page.getByRole('heading', { name: '定期便のご契約' }).waitFor()
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
