import { ZErrorResponse } from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoute } from '../../http/contract-route.ts'
import type { createGroupProductsService } from './group-products-service.ts'
import type { SellingPlanService } from './service.ts'

const tags = ['selling-plans']
const errors = { 400: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse, 502: ZErrorResponse }

/** A group's products and variants, and its re-read from the platform. */
export function groupProductRoutes(
  app: AppInstance,
  groups: SellingPlanService,
  products: ReturnType<typeof createGroupProductsService>,
): void {
  app.route({
    ...tableRoute('POST /selling-plan-groups/:id/products', {
      tags,
      summary: '販売プランの商品・バリエーションを追加・削除',
      errors,
    }),
    handler: (request) =>
      products.change(request.shop, request.params.id, {
        addProductIds: request.body.addProductIds ?? [],
        removeProductIds: request.body.removeProductIds ?? [],
        addVariantIds: request.body.addVariantIds ?? [],
        removeVariantIds: request.body.removeVariantIds ?? [],
      }),
  })

  app.route({
    ...tableRoute('GET /selling-plan-groups/:id/variants', {
      tags,
      summary: '販売プランのバリエーション（100件ずつ）',
      errors,
    }),
    handler: (request) => products.variants(request.shop, request.params.id, request.query.after),
  })

  app.route({
    ...tableRoute('PUT /selling-plan-groups/:id/sync', {
      tags,
      summary: '販売プランをストアから読み直す',
      errors,
    }),
    handler: (request) => groups.sync(request.shop, request.params.id),
  })
}

/** A group's writes: create, save, delete, its products and variants, and a re-read into the mirror. */
export function groupWriteRoutes(
  app: AppInstance,
  groups: SellingPlanService,
  products: ReturnType<typeof createGroupProductsService>,
): void {
  app.route({
    ...tableRoute('POST /selling-plan-groups', { tags, summary: '販売プランを作成', errors }),
    handler: async (request, reply) => reply.code(201).send(await groups.create(request.shop, request.body)),
  })

  app.route({
    ...tableRoute('PUT /selling-plan-groups/:id', {
      tags,
      summary: '販売プランを保存（本文にないプランは削除）',
      errors,
    }),
    handler: (request) => groups.update(request.shop, request.params.id, request.body),
  })

  app.route({
    ...tableRoute('DELETE /selling-plan-groups/:id', {
      tags,
      summary: '販売プランを削除',
      errors,
    }),
    handler: async (request, reply) => {
      await groups.remove(request.shop, request.params.id)
      return reply.code(204).send(null)
    },
  })

  groupProductRoutes(app, groups, products)
}
