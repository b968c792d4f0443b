import { rmSync } from 'node:fs'
import { type Browser, chromium, type Page } from 'playwright-core'
import { CHROMIUM, CHROMIUM_ARGS } from '../../bench/web-vitals.ts'
import type { RunningApp } from './app-process.ts'

/** Debian's Chromium in Japanese, with one desktop-sized page. */
export async function openJapanesePage(): Promise<{ browser: Browser; page: Page }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, '--lang=ja'] })
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: 'ja-JP' })
  return { browser, page }
}

/** Closes the browser, stops the app as Ctrl-C does, and removes its data folder. */
export async function closeAll(browser: Browser | undefined, app: RunningApp | undefined, dataDir: string) {
  await browser?.close()
  await app?.interrupt()
  rmSync(dataDir, { recursive: true, force: true })
}
