import { z } from 'zod'
import { ZPlatformIdOrGid, ZText } from './primitives.ts'

/**
 * One product variant as the mirror holds it (products + product_variants), for adding or
 * swapping contract lines. The price is in the shop's currency (GET /shop-currency-code);
 * the mirror keeps no per-variant currency or image.
 */
export const ZVariantSummary = z.object({
  id: z.string(),
  productId: z.string(),
  productTitle: z.string(),
  /** The variant's own title (`Default Title` for a product without options). */
  title: z.string(),
  sku: z.string().nullable(),
  /** Decimal text without trailing zeros, e.g. `1980` or `1980.5`; null if the mirror has none. */
  price: z.string().nullable(),
  /** The product's featured image. */
  imageUrl: z.string().nullable(),
})
export type VariantSummary = z.infer<typeof ZVariantSummary>

export const VARIANT_SEARCH_LIMIT_MAX = 50

/** GET /app-admin/products/variants/search. */
export const ZVariantSearchQuery = z.object({
  /**
   * Case-insensitive substring of the product title, the variant title or the SKU; a numeric
   * query also matches the variant id exactly. Empty: every variant.
   */
  query: ZText('検索語', { max: 200 }).default(''),
  limit: z.coerce
    .number({ error: '件数は数字で指定してください' })
    .int('件数は整数で指定してください')
    .min(1, '件数は1以上で指定してください')
    .max(VARIANT_SEARCH_LIMIT_MAX, `件数は${VARIANT_SEARCH_LIMIT_MAX}以下で指定してください`)
    .default(10),
})
export type VariantSearchQuery = z.input<typeof ZVariantSearchQuery>

/** GET /app-admin/products/variants/:id: the variant's id, or its gid. */
export const ZVariantParams = z.object({ id: ZPlatformIdOrGid('バリエーションID', 'ProductVariant') })

/** Ordered by product title, then variant id. */
export const ZVariantSearchResponse = z.object({ variants: z.array(ZVariantSummary) })
export type VariantSearchResponse = z.infer<typeof ZVariantSearchResponse>

/** Spec §9 page size of the product picker's list. */
export const PRODUCT_PAGE_SIZE = 10

/** GET /app-admin/products: the shop's products with their variants, for the product picker. */
export const ZProductListQuery = z.object({
  /** Case-insensitive substring of the product title, a variant title or a SKU. */
  query: ZText('検索語', { max: 200 }).default(''),
  page: z.coerce
    .number({ error: 'ページは数字で指定してください' })
    .int('ページは整数で指定してください')
    .min(1, 'ページは1以上で指定してください')
    .max(100_000, 'ページが大きすぎます')
    .default(1),
})
export type ProductListQuery = z.input<typeof ZProductListQuery>

export const ZProductWithVariants = z.object({
  id: z.string(),
  title: z.string(),
  imageUrl: z.string().nullable(),
  variants: z.array(
    z.object({ id: z.string(), title: z.string(), sku: z.string().nullable(), price: z.string().nullable() }),
  ),
})
export type ProductWithVariants = z.infer<typeof ZProductWithVariants>

/** By title, then id. */
export const ZProductList = z.object({
  products: z.array(ZProductWithVariants),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
})
export type ProductList = z.infer<typeof ZProductList>
