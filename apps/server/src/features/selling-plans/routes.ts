import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoutes } from '../../http/contract-route.ts'
import { createGroupProductsService } from './group-products-service.ts'
import { planRoutes } from './plan-routes.ts'
import { createSellingPlanService } from './service.ts'

/**
 * Selling plan groups (screen 販売プラン, spec §7 "Selling plans"): the list, and the editor's
 * group: create, save, delete, its products and variants, and its re-read from the platform.
 */
export function sellingPlanRoutes(app: AppInstance): void {
  const route = tableRoutes(app, { tags: ['selling-plans'], errors: [400, 404, 422, 502] })
  const deps = { db: app.db, clients: app.shopClients, log: app.log }
  const groups = createSellingPlanService(deps)
  const products = createGroupProductsService({ ...deps, groups })

  route('GET /subscriptions/sellingPlanGroups', '販売プランの一覧（10件ずつ、新しい順、名前で検索）', {
    errors: [],
    handler: (request) => groups.list(request.shop, request.query.query, request.query.page),
  })
  route('GET /subscriptions/sellingPlanGroups/:id/sellingPlans', '販売プランのプラン（割引の種類つき）', {
    errors: [404],
    handler: (request) => groups.plans(request.shop, request.params.id),
  })
  route('GET /selling-plan-groups/:id', '販売プランの詳細（編集画面用、ストアから最新を読み込み）', {
    handler: (request) => groups.detail(request.shop, request.params.id),
  })

  route('POST /selling-plan-groups', '販売プランを作成', {
    handler: (request) => groups.create(request.shop, request.body),
  })
  route('PUT /selling-plan-groups/:id', '販売プランを保存（本文にないプランは削除）', {
    handler: (request) => groups.update(request.shop, request.params.id, request.body),
  })
  route('DELETE /selling-plan-groups/:id', '販売プランを削除', {
    handler: (request) => groups.remove(request.shop, request.params.id),
  })
  route('POST /selling-plan-groups/:id/products', '販売プランの商品・バリエーションを追加・削除', {
    handler: (request) =>
      products.change(request.shop, request.params.id, {
        addProductIds: request.body.addProductIds ?? [],
        removeProductIds: request.body.removeProductIds ?? [],
        addVariantIds: request.body.addVariantIds ?? [],
        removeVariantIds: request.body.removeVariantIds ?? [],
      }),
  })
  route('GET /selling-plan-groups/:id/variants', '販売プランのバリエーション（100件ずつ）', {
    handler: (request) => products.variants(request.shop, request.params.id, request.query.after),
  })
  route('PUT /selling-plan-groups/:id/sync', '販売プランをストアから読み直す', {
    handler: (request) => groups.sync(request.shop, request.params.id),
  })

  planRoutes(app, deps)
}
