import { ZErrorResponse } from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoute } from '../../http/contract-route.ts'
import { createGroupProductsService } from './group-products-service.ts'
import { groupWriteRoutes } from './group-write-routes.ts'
import { planRoutes } from './plan-routes.ts'
import { createSellingPlanService } from './service.ts'

const tags = ['selling-plans']
const errors = { 400: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse, 502: ZErrorResponse }

/** Selling plan groups (screen 販売プラン, spec §7 "Selling plans"): list, editor, products. */
export function sellingPlanRoutes(app: AppInstance): void {
  const deps = { db: app.db, clients: app.shopClients, log: app.log }
  const groups = createSellingPlanService(deps)
  const products = createGroupProductsService({ ...deps, groups })

  app.route({
    ...tableRoute('GET /subscriptions/sellingPlanGroups', {
      tags,
      summary: '販売プランの一覧（10件ずつ、新しい順、名前で検索）',
    }),
    handler: (request) => groups.list(request.shop, request.query.query, request.query.page),
  })

  app.route({
    ...tableRoute('GET /subscriptions/sellingPlanGroups/:id/sellingPlans', {
      tags,
      summary: '販売プランのプラン（割引の種類つき）',
      errors: { 404: ZErrorResponse },
    }),
    handler: (request) => groups.plans(request.shop, request.params.id),
  })

  app.route({
    ...tableRoute('GET /selling-plan-groups/:id', {
      tags,
      summary: '販売プランの詳細（編集画面用、ストアから最新を読み込み）',
      errors,
    }),
    handler: (request) => groups.detail(request.shop, request.params.id),
  })

  groupWriteRoutes(app, groups, products)
  planRoutes(app, deps)
}
