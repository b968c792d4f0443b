import {
  ZSellingPlanGroupDetail,
  ZSellingPlanGroupList,
  ZSellingPlanGroupListQuery,
  ZSellingPlanGroupParams,
  ZSellingPlanList,
} from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { apiRoutes, errorAnswers } from '../../http/routes.ts'
import { createGroupProductsService } from './group-products-service.ts'
import { groupWriteRoutes } from './group-write-routes.ts'
import { planRoutes } from './plan-routes.ts'
import { createSellingPlanService } from './service.ts'

const errors = errorAnswers(400, 404, 422, 502)

/** Selling plan groups (screen 販売プラン, spec §7 "Selling plans"): list, editor, products. */
export function sellingPlanRoutes(app: AppInstance): void {
  const api = apiRoutes(app, ['selling-plans'])
  const deps = { db: app.db, clients: app.shopClients, log: app.log }
  const groups = createSellingPlanService(deps)
  const products = createGroupProductsService({ ...deps, groups })

  api.get(
    '/app-admin/subscriptions/sellingPlanGroups',
    '販売プランの一覧（10件ずつ、新しい順、名前で検索）',
    {
      querystring: ZSellingPlanGroupListQuery,
      response: { 200: ZSellingPlanGroupList },
      handler: (request) => groups.list(request.shop, request.query.query, request.query.page),
    },
  )

  api.get(
    '/app-admin/subscriptions/sellingPlanGroups/:id/sellingPlans',
    '販売プランのプラン（割引の種類つき）',
    {
      params: ZSellingPlanGroupParams,
      response: { 200: ZSellingPlanList, ...errorAnswers(404) },
      handler: (request) => groups.plans(request.shop, request.params.id),
    },
  )

  api.get('/app-admin/selling-plan-groups/:id', '販売プランの詳細（編集画面用、ストアから最新を読み込み）', {
    params: ZSellingPlanGroupParams,
    response: { 200: ZSellingPlanGroupDetail, ...errors },
    handler: (request) => groups.detail(request.shop, request.params.id),
  })

  groupWriteRoutes(app, groups, products)
  planRoutes(app, deps)
}
