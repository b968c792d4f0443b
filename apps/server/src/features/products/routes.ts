import {
  PRODUCT_PAGE_SIZE,
  ZProductList,
  ZProductListQuery,
  ZVariantParams,
  ZVariantSearchQuery,
  ZVariantSearchResponse,
  ZVariantSummary,
} from '@teiki/contract'
import { notFound } from '../../http/app-error.ts'
import type { AppInstance } from '../../http/app-instance.ts'
import { apiRoutes, errorAnswers } from '../../http/routes.ts'
import { findVariant, listProducts, searchVariants } from './repo.ts'

/** Products and variants from the mirror: the product picker, adding or swapping contract lines (spec §7). */
export function productRoutes(app: AppInstance): void {
  const api = apiRoutes(app, ['products'])
  api.get(
    '/app-admin/products',
    '商品の一覧（バリエーションつき、10件ずつ、商品名・バリエーション名・SKUで検索）',
    {
      querystring: ZProductListQuery,
      response: { 200: ZProductList },
      handler: async (request) => {
        const { query, page } = request.query
        const offset = (page - 1) * PRODUCT_PAGE_SIZE
        const found = await listProducts(app.db, request.shop.id, query, { limit: PRODUCT_PAGE_SIZE, offset })
        return { ...found, page, pageSize: PRODUCT_PAGE_SIZE }
      },
    },
  )

  api.get(
    '/app-admin/products/variants/search',
    '商品バリエーションを検索（商品名・バリエーション名・SKU・バリエーションID）',
    {
      querystring: ZVariantSearchQuery,
      response: { 200: ZVariantSearchResponse },
      handler: async (request) => ({
        variants: await searchVariants(app.db, request.shop.id, request.query.query, request.query.limit),
      }),
    },
  )

  api.get('/app-admin/products/variants/:id', '商品バリエーション', {
    params: ZVariantParams,
    response: { 200: ZVariantSummary, ...errorAnswers(404) },
    handler: async (request) => {
      const variant = await findVariant(app.db, request.shop.id, request.params.id)
      if (!variant) throw notFound('商品バリエーションが見つかりません')
      return variant
    },
  })
}
