import type { Page } from 'playwright-core'

/**
 * ウィジェットを追加 on the テーマ page as a merchant of an app without Shopify's theme-file
 * exemption (the platform's default, and `npm start`'s emulator): the app's write is refused,
 * the card says why, the theme editor opens at the block in a new tab, the merchant saves there,
 * closes it and 追加を確認 reads the theme again.
 */
export async function addWidgetInThemeEditor(page: Page): Promise<void> {
  const popup = page.waitForEvent('popup')
  await page.getByRole('button', { name: 'ウィジェットを追加' }).click()
  const editor = await popup
  await page.getByText('Shopify がこのアプリにテーマファイルの書き込みを許可していないため').waitFor()
  await editor
    .getByText('アプリブロック「subscription-plans」を商品ページのメインセクションに追加します')
    .waitFor()
  await editor.getByRole('button', { name: '保存' }).click()
  await editor.getByText('保存しました').waitFor()
  await editor.close()
  await page.getByRole('button', { name: '追加を確認' }).click()
  await page.getByText('ウィジェット追加済み').waitFor()
}
