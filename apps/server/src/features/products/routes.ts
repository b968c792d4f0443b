import { PRODUCT_PAGE_SIZE } from '@teiki/contract'
import { notFound } from '../../http/app-error.ts'
import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoutes } from '../../http/contract-route.ts'
import { findVariant, listProducts, searchVariants } from './repo.ts'

/** Products and variants from the mirror: the product picker, adding or swapping contract lines (spec §7). */
export function productRoutes(app: AppInstance): void {
  const route = tableRoutes(app, { tags: ['products'] })
  route('GET /products', '商品の一覧（バリエーションつき、10件ずつ、商品名・バリエーション名・SKUで検索）', {
    handler: async (request) => {
      const { query, page } = request.query
      const offset = (page - 1) * PRODUCT_PAGE_SIZE
      const found = await listProducts(app.db, request.shop.id, query, { limit: PRODUCT_PAGE_SIZE, offset })
      return { ...found, page, pageSize: PRODUCT_PAGE_SIZE }
    },
  })

  route(
    'GET /products/variants/search',
    '商品バリエーションを検索（商品名・バリエーション名・SKU・バリエーションID）',
    {
      handler: async (request) => ({
        variants: await searchVariants(app.db, request.shop.id, request.query.query, request.query.limit),
      }),
    },
  )

  route('GET /products/variants/:id', '商品バリエーション', {
    errors: [404],
    handler: async (request) => {
      const variant = await findVariant(app.db, request.shop.id, request.params.id)
      if (!variant) throw notFound('商品バリエーションが見つかりません')
      return variant
    },
  })
}
