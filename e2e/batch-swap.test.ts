import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { batchPercent } from '@teiki/domain'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CaughtMail, startTestMailCatcher } from '../apps/server/test/support/mail-catcher.ts'
import { CHROMIUM, CHROMIUM_ARGS } from '../bench/web-vitals.ts'
import { ROOT, type RunningApp, startApp } from './support/app-process.ts'

// Issue 17's flow as a merchant meets it, on the embedded default (`npm start`, PGlite, the
// emulator, mail through SMTP to a catcher this test owns): in 一括更新 the merchant picks the
// variant to swap and its replacement, reads the preview's count and pages through the
// contracts, starts the batch, sees the progress bar stand part-way (the emulator holds the second
// half of the swaps' commits through its test controls until the test has read it), reads the per-contract
// report, and the result mail arrives at the catcher with the same counts.

const ARTIFACTS = join(ROOT, 'artifacts/e2e')
const NOTIFY = 'tenchou@example.jp'
const dataDir = mkdtempSync(join(tmpdir(), 'teiki-e2e-batch-'))
let app: RunningApp
let browser: Browser
let page: Page
let smtp: Awaited<ReturnType<typeof startTestMailCatcher>>

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true })
  smtp = await startTestMailCatcher()
  const saved = { SMTP_URL: process.env.SMTP_URL, EMULATOR_TEST_CONTROLS: process.env.EMULATOR_TEST_CONTROLS }
  process.env.SMTP_URL = smtp.smtpUrl
  process.env.EMULATOR_TEST_CONTROLS = 'true'
  try {
    app = await startApp(dataDir)
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
  }
  await app.waitFor(/を同期しました: 契約 \d+ 件/)
  browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, '--lang=ja'] })
  page = await browser.newPage({ viewport: { width: 1280, height: 1000 }, locale: 'ja-JP' })
})

afterAll(async () => {
  await browser?.close()
  await app?.interrupt()
  await smtp?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, name), fullPage: true })

async function pickVariant(testId: string, query: string, nth: number) {
  await page.fill(`[data-testid="${testId}"] input`, query)
  const options = page.locator(`[data-testid="${testId}"] [role="option"]`)
  await options.nth(nth).waitFor()
  await options.nth(nth).click()
}

/** The app's emulator's test controls (`POST /emulator/faults`): what it answers with. */
async function platformControls(body: Record<string, unknown>): Promise<{ held: number }> {
  const runtime = JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8')) as { emulatorUrl: string }
  const res = await fetch(`${runtime.emulatorUrl}/emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(res.status).toBe(200)
  return (await res.json()) as { held: number }
}

describe('一括更新: swap a variant on every contract that has it', () => {
  it('previews, starts, shows progress, reports and mails the result', async () => {
    const base = new URL(app.url)
    await page.goto(`${base.origin}/batch${base.search}`)
    await page.getByRole('link', { name: '一括更新' }).waitFor()
    await page.getByText('一括更新の内容').waitFor()
    // 北海道グラノーラ 500g → 1kg (the same product: sold with the same plans).
    await pickVariant('batch-from-variant', 'グラノーラ', 0)
    await expect.poll(() => page.getByText('選択中: 北海道グラノーラ / 500g').count()).toBe(1)
    await pickVariant('batch-to-variant', 'グラノーラ', 0)
    await expect.poll(() => page.getByText('選択中: 北海道グラノーラ / 1kg').count()).toBe(1)
    await page.fill('[data-testid="batch-notify-email"] input', NOTIFY)
    await page.click('[data-testid="batch-preview-button"] button')

    const countText = await page.locator('[data-testid="batch-preview-count"]').innerText()
    const total = Number(/([\d,]+)件の契約が対象です/.exec(countText)![1]!.replace(/,/g, ''))
    expect(total).toBeGreaterThan(10)
    const rows = page.locator('[data-testid="batch-contracts"] tbody tr')
    expect(await rows.count()).toBe(10)
    await expect.poll(() => page.getByText(`1〜10件 / 全${total}件`).count()).toBe(1)
    await shot('batch-preview.png')
    // The second page (clicked again if the first click landed while the table re-rendered).
    const next = page
      .locator(
        '[data-testid="batch-contracts"] button[aria-label="次へ"], [data-testid="batch-contracts"] nav button',
      )
      .last()
    const secondPage = page.getByText(`11〜${Math.min(20, total)}件 / 全${total}件`)
    for (let tries = 0; tries < 20 && (await secondPage.count()) === 0; tries++) {
      if (await next.isEnabled()) await next.click()
      await page.waitForTimeout(500)
    }
    expect(await secondPage.count()).toBe(1)
    expect(await rows.count()).toBe(Math.min(10, total - 10))

    // The platform takes the first half of the swaps' commits and holds the rest until told:
    // the batch must stand part-way, and the bar must say so.
    const half = Math.floor(total / 2)
    await platformControls({ holdMutation: { field: 'subscriptionDraftCommit', after: half } })
    await page.click('[data-testid="batch-start-button"] button')
    const progress = page.locator('[data-testid="batch-progress"]')
    await progress.waitFor()
    await expect
      .poll(async () => (await platformControls({})).held, { timeout: 120_000, interval: 200 })
      .toBeGreaterThan(0)
    await expect
      .poll(async () => Number(await progress.getAttribute('data-percent')), {
        timeout: 60_000,
        interval: 200,
      })
      .toBe(batchPercent({ total, changed: half, skipped: 0, failed: 0 }))
    expect(await page.locator('[data-testid="batch-status"]').innerText()).not.toContain('完了')
    await shot('batch-running.png')
    await platformControls({ releaseHolds: true })
    // Released, the rest are committed: the bar ends at 100 and the batch reads 完了.
    await expect
      .poll(() => progress.getAttribute('data-percent'), { timeout: 120_000, interval: 200 })
      .toBe('100')
    await expect
      .poll(() => page.locator('[data-testid="batch-status"]').innerText(), {
        timeout: 60_000,
        interval: 200,
      })
      .toContain('完了')
    const counts = await page.locator('[data-testid="batch-counts"]').innerText()
    expect(counts).toContain(`${total}件中 変更 ${total}件・スキップ 0件・失敗 0件・未処理 0件（100%）`)
    await page.getByText('契約ごとの結果').waitFor()
    await expect.poll(() => page.getByText('変更済み').count()).toBeGreaterThan(0)
    await shot('batch-done.png')

    let mail: CaughtMail | undefined
    await expect
      .poll(
        () => {
          mail = smtp.to(NOTIFY)[0]
          return mail !== undefined
        },
        { timeout: 15_000 },
      )
      .toBe(true)
    expect(mail!.subject).toBe(`【Teiki】一括更新を完了しました（変更${total}件・スキップ0件・失敗0件）`)
    expect(mail!.text).toContain('「北海道グラノーラ - 500g」を「北海道グラノーラ - 1kg」に入れ替え')
    expect(mail!.text).toContain(`変更した契約: ${total}件`)
  }, 240_000)
})
