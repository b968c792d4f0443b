import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReportEndpoint } from '../apps/server/test/support/report-endpoint.ts'
import { CHROMIUM, CHROMIUM_ARGS } from '../bench/web-vitals.ts'
import { ROOT, type RunningApp, startApp } from './support/app-process.ts'

// Issue 16's merchant flows in Chromium on `npm start`: a template edited and a test mail read
// from the local SMTP catcher; the app plan changed through the platform's approval page; the
// browser's error reporting against a local endpoint standing in for the service.

const ARTIFACTS = join(ROOT, 'artifacts/e2e')
const dataDir = mkdtempSync(join(tmpdir(), 'teiki-e2e-shopops-'))
let app: RunningApp
let browser: Browser
let page: Page
let endpoint: Awaited<ReturnType<typeof startReportEndpoint>>
let mailPage: string

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true })
  endpoint = await startReportEndpoint()
  app = await startApp(dataDir, 240_000, { SENTRY_DSN_WEB: endpoint.dsn })
  mailPage = (await app.waitFor(/送信メール（ローカルのメールサーバー）: (http:\/\/127\.0\.0\.1:\d+\/)/))[1]!
  await app.waitFor(/を同期しました: 契約 \d+ 件/)
  browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, '--lang=ja'] })
  page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: 'ja-JP' })
})

afterAll(async () => {
  await browser?.close()
  await app?.interrupt()
  await endpoint?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

const origin = () => new URL(app.url).origin
const credentials = () => new URL(app.url).search

async function caughtMails(): Promise<Array<{ subject: string; text: string; envelopeTo: string[] }>> {
  return (await fetch(`${mailPage}mails.json`)).json() as Promise<
    Array<{ subject: string; text: string; envelopeTo: string[] }>
  >
}

async function until<T>(read: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const value = await read()
    if (value !== undefined) return value
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 250))
  }
}

describe('shop operations in Chromium', () => {
  it('edits the payment-failure template, sends a test mail and reads it from the SMTP catcher', async () => {
    await page.goto(`${origin()}/mail-templates${credentials()}`)
    await page.locator('[data-testid="mail-template-select"] select').selectOption('payment_failure')
    const body = page.locator('[data-testid="mail-template-body"] textarea').first()
    await expect.poll(() => body.inputValue()).toContain('{{retryDate}}にあらためてご注文をお受けします。')
    await body.fill(
      '{{customerName}} 様\n\n{{billingDate}}のお支払いを確認できませんでした。\n再決済日: {{retryDate}}\n{{lines}}',
    )
    await page.getByRole('button', { name: '保存', exact: true }).click()
    await expect
      .poll(() => page.locator('[data-testid="mail-template-preview"]').innerText())
      .toContain('のお支払いを確認できませんでした。')
    const preview = await page.locator('[data-testid="mail-template-preview"]').innerText()
    expect(preview).toMatch(/^\S+ \S+ 様/) // family name, space, given name
    expect(preview).toMatch(/再決済日: \d{4}年\d{1,2}月\d{1,2}日/)
    expect(preview).toMatch(/・.+ × \d+　¥[\d,]+/)
    await page.locator('[data-testid="test-mail-email"] input').fill('owner@example.jp')
    await page.locator('[data-testid="test-mail-send"] button').click()
    await page.getByText('owner@example.jp にテストメールを送信しました').waitFor()
    const mail = await until(async () =>
      (await caughtMails()).find((m) => m.envelopeTo.includes('owner@example.jp')),
    )
    expect(mail.subject).toBe('【テスト送信】定期便のご注文を承れませんでした')
    expect(mail.text).toContain('のお支払いを確認できませんでした。')
    expect(mail.text).toMatch(/再決済日: \d{4}年\d{1,2}月\d{1,2}日/)
    // The catcher's own page, linked from the screen, shows it too.
    expect(await page.getByRole('link', { name: /送信したメールを見る/ }).getAttribute('href')).toBe(mailPage)
    const catcherPage = await browser.newPage()
    await catcherPage.goto(mailPage)
    await catcherPage.getByText('【テスト送信】定期便のご注文を承れませんでした').first().waitFor()
    await catcherPage.screenshot({ path: join(ARTIFACTS, 'shopops-mail-catcher.png') })
    await catcherPage.close()
    await page.screenshot({ path: join(ARTIFACTS, 'shopops-mail-templates.png'), fullPage: true })
  })

  it('changes the app plan and comes back through the platform’s confirmation', async () => {
    await page.goto(`${origin()}/plans${credentials()}`)
    // The demo shop holds プロ: its card says so instead of offering it.
    await page.getByTestId('current-plan-name').getByText('プロ', { exact: true }).waitFor()
    expect(await page.getByTestId('choose-plan-pro').innerText()).toBe('現在のプラン')
    await page.locator('[data-testid="choose-plan-standard"] button').click()
    await page.waitForURL(/\/admin\/charges\/.+\/confirm$/)
    await expect.poll(() => page.locator('#charge-name').innerText()).toBe('Teiki スタンダード')
    expect(await page.locator('#charge-price').innerText()).toBe('¥9,800／30日')
    await page.getByRole('button', { name: '承認する' }).click()
    await page.waitForURL(/\/plans\?shop=.+&charge_id=\d+/)
    // GET /plan asks the platform about the pending change: a loaded CI machine can take a while.
    await page.getByText('ご利用中', { exact: true }).waitFor({ timeout: 90_000 })
    expect(await page.locator('[data-testid="plan-returned"]').innerText()).toContain(
      '現在のプランは「スタンダード」です。',
    )
    expect(await page.getByTestId('current-plan-name').innerText()).toBe('スタンダード')
    expect(await page.getByTestId('choose-plan-standard').innerText()).toBe('現在のプラン')
    expect(await page.locator('[data-testid="choose-plan-pro"] button').isEnabled()).toBe(true)
    await page.screenshot({ path: join(ARTIFACTS, 'shopops-plans.png'), fullPage: true })
    // The gate lets the merchant in on the other screens.
    await page.goto(`${origin()}/settings`)
    await page.getByRole('heading', { name: '設定', exact: true }).waitFor()
  })

  it('reports the session-storage failure and an unfiltered error to the endpoint, not the filtered ones', async () => {
    const context = await browser.newContext({ locale: 'ja-JP' })
    await context.addInitScript(() => {
      Storage.prototype.setItem = () => {
        throw new Error('teiki-e2e sessionStorage refused')
      }
    })
    const p = await context.newPage()
    await p.goto(`${origin()}/settings${credentials()}`)
    await p.getByRole('heading', { name: '設定', exact: true }).waitFor()
    // The SDK loads after the page (only with a DSN); unhandled errors count from then on.
    await p.locator('html[data-error-reporting="on"]').waitFor({ state: 'attached' })
    await p.evaluate(() => {
      const raise = (error: Error) =>
        setTimeout(() => {
          throw error
        })
      raise(new Error('NetworkError when attempting to fetch resource.'))
      raise(new ReferenceError('window is not defined'))
      raise(new Error('teiki-e2e-unfiltered'))
    })
    await until(async () => (endpoint.errorMessages().includes('teiki-e2e-unfiltered') ? true : undefined))
    await until(async () =>
      endpoint.errorMessages().includes('teiki-e2e sessionStorage refused') ? true : undefined,
    )
    await p.waitForTimeout(1500)
    const sent = endpoint.errorMessages()
    expect(sent.some((m) => m.includes('NetworkError'))).toBe(false)
    expect(sent.some((m) => m.includes('window is not defined'))).toBe(false)
    await context.close()
  })
})
