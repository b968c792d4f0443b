import type { Liquid } from 'liquidjs'
import type { ProductRecord, ShopState } from '../records.ts'
import type { ThemeRecord } from '../records-extra.ts'
import { extraOf } from '../shop-extra.ts'
import { renderAppBlock } from './blocks.ts'
import { type ProductDropOptions, productDrop } from './drops.ts'
import { escapeHtml } from './layout.ts'
import { formatMoney, type ThemeExtension } from './liquid.ts'

/**
 * A product page of the shop's theme: the product form (`product-form-main`) and, in the main
 * section, the app blocks the theme's `templates/product.json` lists, each rendered from the
 * extension by the Liquid above with the block's settings from the template.
 */

type TemplateBlock = { type: string; settings?: Record<string, unknown>; disabled?: boolean }
type Template = {
  sections?: Record<string, { type: string; blocks?: Record<string, TemplateBlock>; block_order?: string[] }>
  order?: string[]
}

const APP_BLOCK = /^shopify:\/\/apps\/[^/]+\/blocks\/([^/]+)\/([^/]+)$/

export const MONEY_FORMAT = '¥{{amount_no_decimals}}'

/** The theme a storefront request shows: `preview_theme_id`'s, else the published (MAIN) one. */
export function themeFor(shop: ShopState, now: number, previewId: string | null): ThemeRecord | undefined {
  const themes = extraOf(shop, now).themes
  return (
    (previewId && themes.find((t) => String(t.id) === previewId)) || themes.find((t) => t.role === 'MAIN')
  )
}

/** The extension's blocks in the main section of the theme's product template, in order. */
export function productTemplateBlocks(
  theme: ThemeRecord | undefined,
  ext: ThemeExtension,
): Array<{ key: string; handle: string; settings: Record<string, unknown> }> {
  const file = theme?.files.find((f) => f.filename === 'templates/product.json')
  if (!file) return []
  let template: Template
  try {
    template = JSON.parse(file.content) as Template
  } catch {
    return []
  }
  const sections = template.sections ?? {}
  const mainKey = Object.keys(sections).find((k) => sections[k]!.type.startsWith('main'))
  const main = mainKey ? sections[mainKey] : undefined
  if (!main) return []
  const out = []
  for (const key of main.block_order ?? Object.keys(main.blocks ?? {})) {
    const block = main.blocks?.[key]
    const m = block && !block.disabled ? APP_BLOCK.exec(block.type) : null
    if (m && m[2] === ext.uid && ext.blocks.has(m[1]!))
      out.push({ key, handle: m[1]!, settings: block!.settings ?? {} })
  }
  return out
}

/** `all_products`: every product's drop, built when a block asks for it by handle. */
function allProducts(shop: ShopState, opts: ProductDropOptions): Record<string, unknown> {
  const all: Record<string, unknown> = {}
  for (const p of shop.products) {
    Object.defineProperty(all, p.handle, { enumerable: true, get: () => productDrop(shop, p, opts) })
  }
  return all
}

export type ProductPageInput = {
  shop: ShopState
  product: ProductRecord
  theme: ThemeRecord | undefined
  ext: ThemeExtension
  engine: Liquid
  base: string
  drop: ProductDropOptions
}

/** The page's main content, and the assets its blocks ask for (schema `javascript`, `stylesheet`). */
export async function productPageBody(input: ProductPageInput): Promise<{ body: string; assets: string[] }> {
  const { shop, product, ext, base } = input
  const drop = productDrop(shop, product, input.drop)
  const routes = { root_url: `${base}/`, cart_url: `${base}/cart`, cart_add_url: `${base}/cart/add` }
  const blocks = productTemplateBlocks(input.theme, ext)
  const rendered: string[] = []
  const assets = new Set<string>()
  for (const b of blocks) {
    rendered.push(
      await renderAppBlock(input.engine, ext, {
        handle: b.handle,
        blockId: b.key,
        sectionId: 'main',
        settings: b.settings,
        page: {
          product: drop,
          routes,
          appMetafields: appMetafields(shop),
          allProducts: allProducts(shop, { isOutOfStock: input.drop.isOutOfStock }),
        },
      }),
    )
    for (const file of blockAssets(ext, b.handle)) assets.add(file)
  }
  const selected = drop.selected_or_first_available_variant
  const options = drop.variants
    .map(
      (v) =>
        `<option value="${v.id}"${v.id === selected?.id ? ' selected' : ''}${v.available ? '' : ' disabled'}>${escapeHtml(v.title)} – ${formatMoney(v.price, MONEY_FORMAT)}</option>`,
    )
    .join('')
  const hint =
    blocks.length === 0 && drop.selling_plan_groups.length > 0
      ? `<p class="notice">この商品は定期購入できますが、テーマの商品ページに Teiki のウィジェットがまだありません。アプリの「テーマ」画面で「ウィジェットを追加」を押すと、ここに定期購入の選び方が表示されます。</p>`
      : ''
  const image = drop.featured_image
    ? `<img src="${escapeHtml(drop.featured_image.src)}" width="400" height="400" alt="${escapeHtml(product.title)}">`
    : ''
  const body = `<div class="product">
  <div class="product__media">${image}</div>
  <div class="product__info">
    <h1 class="product__title">${escapeHtml(product.title)}</h1>
    <p class="product__price">${selected ? formatMoney(selected.price, MONEY_FORMAT) : ''}</p>
    ${rendered.join('\n')}
    ${hint}
    <form id="product-form-main" action="${escapeHtml(routes.cart_add_url)}" method="post">
      <label class="field">種類
        <select name="id">${options}</select>
      </label>
      <label class="field">数量
        <input type="number" name="quantity" value="1" min="1" max="99">
      </label>
      <button type="submit" class="button"${drop.available ? '' : ' disabled'}>カートに追加</button>
    </form>
  </div>
</div>`
  return { body, assets: [...assets] }
}

function blockAssets(ext: ThemeExtension, handle: string): string[] {
  const source = ext.blocks.get(handle) ?? ''
  const m = /{%-?\s*schema\s*-?%}([\s\S]*?){%-?\s*endschema\s*-?%}/.exec(source)
  if (!m) return []
  const schema = JSON.parse(m[1]!) as { javascript?: string; stylesheet?: string }
  return [schema.stylesheet, schema.javascript].filter((f): f is string => typeof f === 'string')
}

/** `app.metafields` of the storefront: the app-data metafields the app set (namespace → key). */
export function appMetafields(
  shop: ShopState,
): Record<string, Record<string, { value: unknown; type: string }>> {
  const out: Record<string, Record<string, { value: unknown; type: string }>> = {}
  for (const m of shop.extra?.appMetafields ?? []) {
    let value: unknown = m.value
    if (m.type === 'json') {
      try {
        value = JSON.parse(m.value)
      } catch {
        value = null
      }
    }
    out[m.namespace] ??= {}
    out[m.namespace]![m.key] = { value, type: m.type }
  }
  return out
}
