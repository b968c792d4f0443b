import type { IncomingMessage, ServerResponse } from 'node:http'
import { matchPage, platformPage, sendPage } from '../platform-pages.ts'
import type { Store } from '../store.ts'
import { escapeHtml } from './layout.ts'
import { loadExtension } from './liquid.ts'
import { productTemplateBlocks } from './product-page.ts'
import { storefrontBase } from './routes.ts'

/**
 * The theme editor's deep link, as far as an app uses it (shopify.dev, "Deep linking"):
 * `/admin/themes/<id>/editor?template=product&addAppBlockId=<api key>/<block>&target=mainSection`
 * opens the editor with the app's block added to the template's main section, unsaved; the
 * merchant saves it. Here: a page saying what will be added, and 保存 writing it into the
 * theme's `templates/product.json`. The emulator plays one app, named `teiki` in block types.
 */

const EDITOR = /^\/admin\/themes\/(\d+)\/editor$/

const page = (title: string, body: string) => platformPage(title, body, '40rem')

/** True when the request was the theme editor's path. */
export function handleThemeEditor(
  req: IncomingMessage,
  res: ServerResponse,
  deps: { store: Store; apiKey: string; baseUrl: () => string },
): boolean {
  const url = new URL(req.url ?? '/', 'http://emulator')
  const match = matchPage(req, EDITOR)
  if (!match) return false
  // Theme ids are numbered per shop (shop-extra.ts): the id finds its shop.
  const themeId = Number(match[1])
  const shop = [...deps.store.shops.values()].find((s) => s.extra?.themes.some((t) => t.id === themeId))
  const theme = shop?.extra?.themes.find((t) => t.id === themeId)
  if (!shop || !theme) {
    sendPage(res, 404, page('テーマエディタ', '<p>テーマが見つかりません。</p>'))
    return true
  }
  const ext = loadExtension()
  const [apiKey, handle = ''] = (url.searchParams.get('addAppBlockId') ?? '').split('/')
  const template = url.searchParams.get('template') ?? 'product'
  const wanted =
    apiKey === deps.apiKey &&
    ext.blocks.has(handle) &&
    url.searchParams.get('target') === 'mainSection' &&
    template === 'product'
  const file = theme.files.find((f) => f.filename === 'templates/product.json')
  const has = productTemplateBlocks(theme, ext).some((b) => b.handle === handle)
  const title = `テーマエディタ（エミュレーター）: ${escapeHtml(theme.name)}`
  const preview = shop.products.find((p) => p.status === 'ACTIVE')
  const store = preview
    ? `<p><a href="${storefrontBase(deps.baseUrl(), shop.info.myshopifyDomain)}/products/${preview.handle}">ストアで確認</a></p>`
    : ''
  if (!wanted || !file) {
    sendPage(res, 200, page(title, `<p>追加するアプリブロックはありません。</p>${store}`))
    return true
  }
  if (req.method === 'POST' && !has) {
    const json = JSON.parse(file.content) as {
      sections: Record<string, { type: string; blocks?: Record<string, unknown>; block_order?: string[] }>
    }
    const main = Object.values(json.sections).find((s) => s.type.startsWith('main'))
    if (main) {
      const key = `${handle.replaceAll('-', '_')}_${Date.now().toString(36)}`
      main.blocks = {
        ...main.blocks,
        [key]: { type: `shopify://apps/teiki/blocks/${handle}/${ext.uid}`, settings: {} },
      }
      main.block_order = [...(main.block_order ?? []), key]
      file.content = `${JSON.stringify(json, null, 2)}\n`
      file.updatedAt = Date.now()
      deps.store.changed()
    }
  }
  const done = has || req.method === 'POST'
  const body = done
    ? `<p>アプリブロック「${escapeHtml(handle)}」は商品ページのメインセクションにあります。保存しました。</p>${store}`
    : `<p>アプリブロック「${escapeHtml(handle)}」を商品ページのメインセクションに追加します（まだ保存されていません）。</p>
<form method="post"><button type="submit">保存</button></form>`
  sendPage(res, 200, page(title, body))
  return true
}
