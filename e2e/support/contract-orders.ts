import type { Page } from 'playwright-core'
import { expect } from 'vitest'

export type OrderRow = { number: number; date: string; amount: string }

/**
 * The contract's orders as 契約の詳細's 注文履歴 lists them (`#3961 2026年11月26日 テスト ¥1,587`),
 * oldest first by order number (the page lists the newest first).
 */
export async function orderRows(page: Page): Promise<OrderRow[]> {
  const text = (await page.locator('[data-testid="contract-orders"]').innerText()).replace(/\s+/g, ' ')
  return [...text.matchAll(/#(\d+) (\d{4}年\d{1,2}月\d{1,2}日) .*?(¥[\d,]+)/g)]
    .map((m) => ({ number: Number(m[1]), date: m[2]!, amount: m[3]! }))
    .sort((x, y) => x.number - y.number)
}

/**
 * Opens the contract page at `url` and reloads it until 注文履歴 lists `count` orders (a charge's
 * order reaches the mirror by its webhook a moment after `npm run billing` answers).
 */
export async function waitForOrders(page: Page, url: string, count: number): Promise<OrderRow[]> {
  await page.goto(url)
  await expect
    .poll(
      async () => {
        await page.reload()
        await page.locator('[data-testid="contract-orders"]').waitFor({ timeout: 20_000 })
        return (await orderRows(page)).length
      },
      { timeout: 60_000, interval: 1_000 },
    )
    .toBe(count)
  return orderRows(page)
}
