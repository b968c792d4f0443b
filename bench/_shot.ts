import { chromium } from 'playwright-core'
import { CHROMIUM, CHROMIUM_ARGS } from './web-vitals.ts'

const url = process.argv[2]!
const b = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, '--lang=ja'] })
const p = await b.newPage({ viewport: { width: 1280, height: 820 }, locale: 'ja-JP' })
p.on('console', (m) => console.log('console:', m.text()))
await p.goto(url)
await p.waitForSelector('[data-testid="subscription-row"]', { timeout: 20000 })
await p.waitForTimeout(500)
await p.screenshot({ path: process.argv[3]! })
await b.close()
