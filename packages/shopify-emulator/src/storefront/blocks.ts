import type { Liquid } from 'liquidjs'
import { blockSchema, renderBlock, type ThemeExtension } from './liquid.ts'

/**
 * One app block as the platform renders it inside a theme section: `block` (its id, settings
 * with the schema's defaults under the merchant's values, `shopify_attributes`), `section`,
 * and the page's objects (`product`, `routes`, `app`, `all_products`).
 */
export type BlockRender = {
  handle: string
  blockId: string
  sectionId: string
  settings?: Record<string, unknown>
  page: {
    product?: unknown
    routes: Record<string, string>
    /** `app.metafields`: namespace → key → { value } (the app-data metafields). */
    appMetafields?: Record<string, Record<string, { value: unknown; type: string }>>
    /** `all_products[handle]`. */
    allProducts?: Record<string, unknown>
  }
}

/** The block's settings: each schema default, then what the merchant set in the theme editor. */
export function blockSettings(source: string, values: Record<string, unknown> = {}): Record<string, unknown> {
  const defaults: Record<string, unknown> = {}
  for (const s of blockSchema(source).settings ?? []) defaults[s.id] = s.default ?? null
  return { ...defaults, ...values }
}

export async function renderAppBlock(engine: Liquid, ext: ThemeExtension, r: BlockRender): Promise<string> {
  const source = ext.blocks.get(r.handle)
  if (source === undefined) throw new Error(`the extension has no block ${r.handle}`)
  const block = {
    id: r.blockId,
    type: `@app`,
    settings: blockSettings(source, r.settings),
    shopify_attributes: `data-shopify-editor-block="${r.blockId}"`,
  }
  return renderBlock(engine, ext, r.handle, {
    block,
    section: { id: r.sectionId },
    product: r.page.product,
    routes: r.page.routes,
    app: { metafields: r.page.appMetafields ?? {} },
    all_products: r.page.allProducts ?? {},
  })
}
