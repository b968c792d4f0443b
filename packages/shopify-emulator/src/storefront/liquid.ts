import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { Liquid, type TagToken, TokenKind, type TopLevelToken } from 'liquidjs'

/**
 * The Liquid a theme app extension runs on the storefront, as far as Teiki's blocks use it:
 * liquidjs plus the platform's filters (`money` with the shop's money format, `t` from the
 * extension's locales, `asset_url`, `image_url`) and the `schema` tag. The emulated storefront
 * renders the blocks with it and the block tests use it to see what a shopper sees.
 */

/** The repository's extension (`extensions/teiki-subscriptions`), which the storefront serves. */
export const DEFAULT_EXTENSION_DIR = resolve(
  import.meta.dirname,
  '../../../../extensions/teiki-subscriptions',
)

export type BlockSchema = {
  name: string
  target: string
  javascript?: string
  stylesheet?: string
  settings?: Array<{ id: string; type: string; default?: unknown }>
}

export type ThemeExtension = {
  dir: string
  /** `uid` of shopify.extension.toml: templates name the extension's blocks by it. */
  uid: string
  /** Block handle (file name without `.liquid`) → source. */
  blocks: Map<string, string>
  /** Storefront locales by language (`en` from `en.default.json`). */
  locales: Map<string, Record<string, unknown>>
  defaultLocale: string
}

const SCHEMA = /{%-?\s*schema\s*-?%}([\s\S]*?){%-?\s*endschema\s*-?%}/

/** The `{% schema %}` JSON of a block's source. */
export function blockSchema(source: string): BlockSchema {
  const match = SCHEMA.exec(source)
  if (!match) throw new Error('block has no {% schema %}')
  return JSON.parse(match[1]!) as BlockSchema
}

/** Reads an extension folder in the layout Shopify CLI deploys. */
export function loadExtension(dir: string = DEFAULT_EXTENSION_DIR): ThemeExtension {
  const blocks = new Map<string, string>()
  for (const file of readdirSync(join(dir, 'blocks'))) {
    if (file.endsWith('.liquid'))
      blocks.set(file.slice(0, -7), readFileSync(join(dir, 'blocks', file), 'utf8'))
  }
  const locales = new Map<string, Record<string, unknown>>()
  let defaultLocale = 'en'
  for (const file of readdirSync(join(dir, 'locales'))) {
    const m = /^([a-z]{2}(?:-[A-Z]{2})?)(\.default)?\.json$/.exec(file)
    if (!m) continue
    locales.set(m[1]!, JSON.parse(readFileSync(join(dir, 'locales', file), 'utf8')))
    if (m[2]) defaultLocale = m[1]!
  }
  const toml = readFileSync(join(dir, 'shopify.extension.toml'), 'utf8')
  const uid = /^uid\s*=\s*"([^"]+)"/m.exec(toml)?.[1]
  if (!uid) throw new Error(`${dir}/shopify.extension.toml has no uid`)
  return { dir, uid, blocks, locales, defaultLocale }
}

/** Reads an asset of the extension (`assets/<file>`), or null when it has none of that name. */
export function extensionAsset(ext: ThemeExtension, file: string): Buffer | null {
  if (!/^[\w.-]+$/.test(file)) return null
  const path = join(ext.dir, 'assets', file)
  return existsSync(path) ? readFileSync(path) : null
}

export type StorefrontOptions = {
  /** The storefront's language: its locale file, else the extension's default. */
  locale: string
  /** The shop's money format, e.g. `¥{{amount_no_decimals}}` (Shopify's JPY default). */
  moneyFormat: string
  /** Where the extension's assets are served. */
  assetUrl: (file: string) => string
}

const group3 = (digits: string, sep: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, sep)

/**
 * Shopify's `money` filter: Liquid prices are in the currency's subunit even for JPY (¥1,980 is
 * 198000), formatted by the shop's money format.
 */
export function formatMoney(cents: unknown, format: string): string {
  const value = Number(cents)
  if (!Number.isFinite(value)) return ''
  const amount = (value / 100).toFixed(2)
  const [int, frac] = amount.split('.') as [string, string]
  const forms: Record<string, string> = {
    amount: `${group3(int, ',')}.${frac}`,
    amount_no_decimals: group3(String(Math.round(value / 100)), ','),
    amount_with_comma_separator: `${group3(int, '.')},${frac}`,
    amount_no_decimals_with_comma_separator: group3(String(Math.round(value / 100)), '.'),
  }
  return format.replace(/{{\s*(\w+)\s*}}/g, (whole, name: string) => forms[name] ?? whole)
}

function lookup(tree: Record<string, unknown> | undefined, key: string): string | undefined {
  let node: unknown = tree
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Record<string, unknown>)[part]
  }
  return typeof node === 'string' ? node : undefined
}

/** Shopify's `t` filter for an extension: the key in the storefront locale, then the default one. */
export function translate(
  ext: ThemeExtension,
  locale: string,
  key: string,
  params: ReadonlyArray<[string, unknown]>,
): string {
  const text =
    lookup(ext.locales.get(locale), key) ?? lookup(ext.locales.get(ext.defaultLocale), key) ?? undefined
  if (text === undefined) return `translation missing: ${locale}.${key}`
  const values = new Map(params)
  return text.replace(/{{\s*(\w+)\s*}}/g, (whole, name: string) =>
    values.has(name) ? String(values.get(name)) : whole,
  )
}

/** The engine for one storefront: the extension's snippets, the platform's filters and tags. */
export function createStorefrontLiquid(ext: ThemeExtension, opts: StorefrontOptions): Liquid {
  const engine = new Liquid({
    partials: [join(ext.dir, 'snippets')],
    extname: '.liquid',
    relativeReference: false,
    // Undefined variables and filters fail loudly in tests instead of printing nothing.
    strictFilters: true,
  })
  engine.registerFilter('money', (cents: unknown) => formatMoney(cents, opts.moneyFormat))
  engine.registerFilter('t', (key: string, ...params: Array<[string, unknown]>) =>
    translate(ext, opts.locale, key, params),
  )
  engine.registerFilter('asset_url', (file: string) => opts.assetUrl(file))
  engine.registerFilter('image_url', (image: unknown, ...params: Array<[string, unknown]>) => {
    const src = typeof image === 'string' ? image : ((image as { src?: string } | null)?.src ?? '')
    const width = params.find(([k]) => k === 'width')?.[1]
    return width && src ? `${src}${src.includes('?') ? '&' : '?'}width=${width}` : src
  })
  // The block's settings live in {% schema %}: the platform reads it, rendering prints nothing.
  engine.registerTag('schema', {
    parse(_token: TagToken, remain: TopLevelToken[]) {
      while (remain.length > 0) {
        const next = remain.shift()!
        if (next.kind === TokenKind.Tag && (next as TagToken).name === 'endschema') return
      }
      throw new Error('{% schema %} without {% endschema %}')
    },
    render() {},
  })
  return engine
}

/** Renders block `handle` with `context` (product, block, section, routes, app, all_products). */
export async function renderBlock(
  engine: Liquid,
  ext: ThemeExtension,
  handle: string,
  context: Record<string, unknown>,
): Promise<string> {
  const source = ext.blocks.get(handle)
  if (source === undefined) throw new Error(`the extension has no block ${handle}`)
  return engine.parseAndRender(source, context)
}
