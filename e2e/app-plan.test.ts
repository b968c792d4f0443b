import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, CHROMIUM_ARGS } from '../bench/web-vitals.ts'
import { ROOT, type RunningApp, startApp } from './support/app-process.ts'

// Issue 23 item 3 in Chromium on `npm start`: a demo shop on the ライト plan opens 分析 and is
// offered the upgrade; approves スタンダード on the emulator's approval page; 分析 opens; the
// platform cancels the plan (the emulator's test control, which sends app_subscriptions/update);
// the next page load goes to /plans with the reason.

const ARTIFACTS = join(ROOT, 'artifacts/e2e')
const SHOP = 'teiki-demo.myshopify.com'
const dataDir = mkdtempSync(join(tmpdir(), 'teiki-e2e-app-plan-'))
let app: RunningApp
let browser: Browser
let page: Page

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true })
  app = await startApp(dataDir, 240_000, { EMULATOR_TEST_CONTROLS: 'true' })
  await app.waitFor(/を同期しました: 契約 \d+ 件/)
  browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, '--lang=ja'] })
  page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: 'ja-JP' })
})

afterAll(async () => {
  await browser?.close()
  await app?.interrupt()
  rmSync(dataDir, { recursive: true, force: true })
})

const origin = () => new URL(app.url).origin
const at = (path: string) => `${origin()}${path}${new URL(app.url).search}`
const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, name), fullPage: true })

/** The merchant on the platform's approval page (the emulator's), back on プラン after 承認する. */
async function approveOnPlatform(name: string) {
  await page.waitForURL(/\/admin\/charges\/.+\/confirm$/)
  await expect.poll(() => page.locator('#charge-name').innerText()).toBe(name)
  await page.getByRole('button', { name: '承認する' }).click()
  await page.waitForURL(/\/plans\?shop=.+&charge_id=\d+/)
}

/** The app's own answer to the page gate's question, as the browser asks it. */
async function usage(): Promise<{ eligible: boolean; reason: string | null }> {
  const res = await fetch(at('/app-admin/app-usage-eligibility'), { headers: { accept: 'application/json' } })
  expect(res.status).toBe(200)
  return (await res.json()) as { eligible: boolean; reason: string | null }
}

describe('the app plan, from the platform to the screens', () => {
  it('a ライト shop opens 分析 and is offered スタンダード; approved on the platform’s page, 分析 opens', async () => {
    // The demo shop holds プロ; the merchant moves to ライト through the platform's approval.
    await page.goto(at('/plans'))
    await page.locator('[data-testid="choose-plan-light"] button').click()
    await approveOnPlatform('Teiki ライト')
    await expect.poll(() => page.getByTestId('current-plan-name').innerText()).toBe('ライト')

    await page.goto(at('/analytics'))
    const prompt = page.getByTestId('upgrade-prompt')
    await prompt.waitFor()
    expect(await prompt.innerText()).toContain(
      '分析・レポートはスタンダードプランからご利用いただけます（現在のプラン: ライトプラン）。',
    )
    expect(await page.getByTestId('figure-new').count()).toBe(0)
    await shot('app-plan-upgrade-prompt.png')

    await prompt.getByRole('button', { name: 'スタンダードプランにアップグレード' }).click()
    await approveOnPlatform('Teiki スタンダード')
    await expect.poll(() => page.getByTestId('current-plan-name').innerText()).toBe('スタンダード')
    expect(await page.getByTestId('choose-plan-standard').innerText()).toBe('現在のプラン')

    await page.goto(at('/analytics'))
    await page.getByTestId('figure-new').waitFor({ timeout: 30_000 })
    expect(await page.getByTestId('upgrade-prompt').count()).toBe(0)
  })

  it('the platform cancels the plan: the next page load goes to /plans with the reason', async () => {
    const runtime = JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8')) as { emulatorUrl: string }
    const res = await fetch(`${runtime.emulatorUrl}/emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ appSubscriptionStatus: { shop: SHOP, status: 'CANCELLED' } }),
    })
    expect(res.status).toBe(200)
    // app_subscriptions/update reaches the app (a webhook: its arrival is awaited, not slept for).
    await expect.poll(async () => (await usage()).eligible, { timeout: 20_000 }).toBe(false)

    await page.goto(at('/analytics'))
    await page.waitForURL(/\/plans\?/)
    const reason = page.getByTestId('plan-usage-reason')
    await reason.waitFor()
    expect(await reason.innerText()).toContain('プランが解約されました')
    expect(await reason.innerText()).toContain(
      'スタンダードプランは解約されました。引き続きご利用いただくには、プランを選んでください。',
    )
    // No plan is held: every card offers itself again.
    expect(await page.locator('[data-testid="choose-plan-standard"] button').isEnabled()).toBe(true)
    await shot('app-plan-cancelled.png')
  })
})
