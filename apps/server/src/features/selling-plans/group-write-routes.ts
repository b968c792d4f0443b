import {
  ZGroupProductsChange,
  ZGroupVariants,
  ZGroupVariantsQuery,
  ZSellingPlanGroupInput,
  ZSellingPlanGroupParams,
  ZSellingPlanGroupSummary,
} from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { apiRoutes, errorAnswers } from '../../http/routes.ts'
import type { createGroupProductsService } from './group-products-service.ts'
import type { SellingPlanService } from './service.ts'

const tags = ['selling-plans']
const errors = errorAnswers(400, 404, 422, 502)

/** A group's products and variants, and its re-read from the platform. */
export function groupProductRoutes(
  app: AppInstance,
  groups: SellingPlanService,
  products: ReturnType<typeof createGroupProductsService>,
): void {
  const api = apiRoutes(app, tags)
  api.post('/app-admin/selling-plan-groups/:id/products', '販売プランの商品・バリエーションを追加・削除', {
    params: ZSellingPlanGroupParams,
    body: ZGroupProductsChange,
    response: { 200: ZSellingPlanGroupSummary, ...errors },
    handler: (request) =>
      products.change(request.shop, request.params.id, {
        addProductIds: request.body.addProductIds ?? [],
        removeProductIds: request.body.removeProductIds ?? [],
        addVariantIds: request.body.addVariantIds ?? [],
        removeVariantIds: request.body.removeVariantIds ?? [],
      }),
  })

  api.get('/app-admin/selling-plan-groups/:id/variants', '販売プランのバリエーション（100件ずつ）', {
    params: ZSellingPlanGroupParams,
    querystring: ZGroupVariantsQuery,
    response: { 200: ZGroupVariants, ...errors },
    handler: (request) => products.variants(request.shop, request.params.id, request.query.after),
  })

  api.put('/app-admin/selling-plan-groups/:id/sync', '販売プランをストアから読み直す', {
    params: ZSellingPlanGroupParams,
    response: { 200: ZSellingPlanGroupSummary, ...errors },
    handler: (request) => groups.sync(request.shop, request.params.id),
  })
}

/** A group's writes: create, save, delete, its products and variants, and a re-read into the mirror. */
export function groupWriteRoutes(
  app: AppInstance,
  groups: SellingPlanService,
  products: ReturnType<typeof createGroupProductsService>,
): void {
  const api = apiRoutes(app, tags)
  api.create('/app-admin/selling-plan-groups', '販売プランを作成', {
    body: ZSellingPlanGroupInput,
    created: ZSellingPlanGroupSummary,
    response: errors,
    handler: (request) => groups.create(request.shop, request.body),
  })

  api.put('/app-admin/selling-plan-groups/:id', '販売プランを保存（本文にないプランは削除）', {
    params: ZSellingPlanGroupParams,
    body: ZSellingPlanGroupInput,
    response: { 200: ZSellingPlanGroupSummary, ...errors },
    handler: (request) => groups.update(request.shop, request.params.id, request.body),
  })

  api.remove('/app-admin/selling-plan-groups/:id', '販売プランを削除', {
    params: ZSellingPlanGroupParams,
    response: errors,
    handler: (request) => groups.remove(request.shop, request.params.id),
  })

  groupProductRoutes(app, groups, products)
}
