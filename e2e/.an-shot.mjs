import { chromium } from '/work/wt/analytics/node_modules/playwright-core/index.mjs'
const secret = process.argv[2]
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' })
const page = await browser.newPage({ viewport: { width: 1280, height: 1800 } })
page.on('console', (m) => { if (m.type() === 'error') console.log('console:', m.text()) })
for (const [path, name] of [['/analytics', 'dashboard'], ['/persistence-rate', 'persistence'], ['/traffic', 'traffic']]) {
  await page.goto(`http://127.0.0.1:3710${path}?shop=teiki-demo.myshopify.com&secret=${secret}`)
  await page.waitForTimeout(3500)
  await page.screenshot({ path: `/tmp/analytics-${name}.png`, fullPage: false })
  console.log(name, 'ok')
}
await browser.close()
