import {
  ZErrorResponse,
  ZVariantParams,
  ZVariantSearchQuery,
  ZVariantSearchResponse,
  ZVariantSummary,
} from '@teiki/contract'
import { notFound } from '../../http/app-error.ts'
import type { AppInstance } from '../../http/app-instance.ts'
import { findVariant, searchVariants } from './repo.ts'

/** Product variants from the mirror, for adding or swapping contract lines (spec §7). */
export function productRoutes(app: AppInstance): void {
  app.get(
    '/app-admin/products/variants/search',
    {
      schema: {
        tags: ['products'],
        summary: '商品バリエーションを検索（商品名・バリエーション名・SKU・バリエーションID）',
        querystring: ZVariantSearchQuery,
        response: { 200: ZVariantSearchResponse },
      },
    },
    async (request) => ({
      variants: await searchVariants(app.db, request.shop.id, request.query.query, request.query.limit),
    }),
  )

  app.get(
    '/app-admin/products/variants/:id',
    {
      schema: {
        tags: ['products'],
        summary: '商品バリエーション',
        params: ZVariantParams,
        response: { 200: ZVariantSummary, 404: ZErrorResponse },
      },
    },
    async (request) => {
      const variant = await findVariant(app.db, request.shop.id, request.params.id)
      if (!variant) throw notFound('商品バリエーションが見つかりません')
      return variant
    },
  )
}
