import { PRODUCT_PAGE_SIZE, ZErrorResponse } from '@teiki/contract'
import { notFound } from '../../http/app-error.ts'
import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoute } from '../../http/contract-route.ts'
import { findVariant, listProducts, searchVariants } from './repo.ts'

/** Products and variants from the mirror: the product picker, adding or swapping contract lines (spec §7). */
export function productRoutes(app: AppInstance): void {
  app.route({
    ...tableRoute('GET /products', {
      tags: ['products'],
      summary: '商品の一覧（バリエーションつき、10件ずつ、商品名・バリエーション名・SKUで検索）',
    }),
    handler: async (request) => {
      const { query, page } = request.query
      const offset = (page - 1) * PRODUCT_PAGE_SIZE
      const found = await listProducts(app.db, request.shop.id, query, { limit: PRODUCT_PAGE_SIZE, offset })
      return { ...found, page, pageSize: PRODUCT_PAGE_SIZE }
    },
  })

  app.route({
    ...tableRoute('GET /products/variants/search', {
      tags: ['products'],
      summary: '商品バリエーションを検索（商品名・バリエーション名・SKU・バリエーションID）',
    }),
    handler: async (request) => ({
      variants: await searchVariants(app.db, request.shop.id, request.query.query, request.query.limit),
    }),
  })

  app.route({
    ...tableRoute('GET /products/variants/:id', {
      tags: ['products'],
      summary: '商品バリエーション',
      errors: { 404: ZErrorResponse },
    }),
    handler: async (request) => {
      const variant = await findVariant(app.db, request.shop.id, request.params.id)
      if (!variant) throw notFound('商品バリエーションが見つかりません')
      return variant
    },
  })
}
