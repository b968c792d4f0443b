import type { ProductRecord, ShopState } from '../../src/records.ts'
import { renderAppBlock } from '../../src/storefront/blocks.ts'
import { productDrop } from '../../src/storefront/drops.ts'
import { createStorefrontLiquid, loadExtension } from '../../src/storefront/liquid.ts'
import { elements, visibleText } from './visible-text.ts'

/**
 * The product page's plans block (extensions/teiki-subscriptions) rendered with the storefront's
 * Liquid, read as a shopper reads it: each plan's price ranges for the selected variant. Shared
 * by the block tests and the server's property test of issue 22 (block = detail = mail = charge).
 */

const ext = loadExtension()
const engines = new Map<string, ReturnType<typeof createStorefrontLiquid>>()
const engine = (locale: string) => {
  let found = engines.get(locale)
  if (!found) {
    found = createStorefrontLiquid(ext, {
      locale,
      moneyFormat: '¥{{amount_no_decimals}}',
      assetUrl: (f) => `/assets/${f}`,
    })
    engines.set(locale, found)
  }
  return found
}

/** A range as the block prints it: 1回目 ¥2,268, 2〜3回目 ¥2,592, 4回目以降 ¥2,916, 毎回 ¥1,980. */
export type BlockRange = { label: string; from: number; to: number | null; yen: number }

const RANGE = /(毎回|(\d+)回目以降|(\d+)〜(\d+)回目|(\d+)回目) ¥([\d,]+)/g

/** The ranges in a plan's visible price text (a struck-through regular price has no label: skipped). */
export function blockRanges(text: string): BlockRange[] {
  return [...text.matchAll(RANGE)].map((m) => {
    const yen = Number(m[6]!.replaceAll(',', ''))
    if (m[1] === '毎回') return { label: m[0]!, from: 1, to: null, yen }
    if (m[2]) return { label: m[0]!, from: Number(m[2]), to: null, yen }
    if (m[3]) return { label: m[0]!, from: Number(m[3]), to: Number(m[4]), yen }
    return { label: m[0]!, from: Number(m[5]), to: Number(m[5]), yen }
  })
}

/** The yen a block's ranges give order `cycle`, or null when no range covers it. */
export function blockPriceForCycle(ranges: readonly BlockRange[], cycle: number): number | null {
  return ranges.find((r) => r.from <= cycle && (r.to === null || cycle <= r.to))?.yen ?? null
}

/**
 * Renders the plans block for `product` with `variantId` selected and the app-data metafield
 * `teiki.plan_prices` set to `planPrices` (undefined: not published), and answers each plan's
 * visible price text by plan id.
 */
export async function renderPlanPrices(
  shop: ShopState,
  product: ProductRecord,
  opts: { variantId?: number; planPrices?: unknown; locale?: string } = {},
): Promise<Map<number, string>> {
  const html = await renderAppBlock(engine(opts.locale ?? 'ja'), ext, {
    handle: 'subscription-plans',
    blockId: 'teiki_plans',
    sectionId: 'main',
    page: {
      product: productDrop(shop, product, { variantId: opts.variantId ?? null }),
      routes: { cart_add_url: '/cart/add', cart_url: '/cart', root_url: '/' },
      ...(opts.planPrices === undefined
        ? {}
        : { appMetafields: { teiki: { plan_prices: { type: 'json', value: opts.planPrices } } } }),
    },
  })
  const out = new Map<number, string>()
  for (const option of elements(html, 'label', 'teiki-plans__option')) {
    const id = /name="selling_plan" value="(\d+)"/.exec(option)?.[1]
    if (!id) continue
    const prices = option.slice(option.indexOf('teiki-plans__prices'))
    out.set(Number(id), visibleText(`<span class="${prices}`))
  }
  return out
}
