import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { CHROMIUM, CHROMIUM_ARGS } from '../../bench/web-vitals.ts'
import { type RunningApp, startApp } from './app-process.ts'

export type Session = {
  app: RunningApp
  page: Page
  /** The app's URL at `path`, keeping the shop and secret of the start URL. */
  at: (path: string) => string
}

/**
 * A fresh `npm start` in its own data folder and a Japanese Chromium page on it, for the file's
 * tests: started before them once `ready` is printed, stopped (Ctrl-C) and removed after.
 */
export function e2eSession(name: string, ready: RegExp): Session {
  const dataDir = mkdtempSync(join(tmpdir(), `teiki-e2e-${name}-`))
  let browser: Browser | undefined
  const session = { at: (path: string) => path } as Session
  beforeAll(async () => {
    session.app = await startApp(dataDir)
    await session.app.waitFor(ready)
    browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, '--lang=ja'] })
    session.page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: 'ja-JP' })
    session.at = (path) => {
      const url = new URL(session.app.url)
      url.pathname = path
      return url.toString()
    }
  }, 300_000)
  afterAll(async () => {
    await browser?.close()
    await session.app?.interrupt()
    rmSync(dataDir, { recursive: true, force: true })
  })
  return session
}
