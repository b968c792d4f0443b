import { ZErrorResponse } from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoute } from '../../http/contract-route.ts'
import {
  deleteCycleDiscounts,
  getCycleDiscounts,
  groupIdOfPlan,
  putCycleDiscounts,
} from './cycle-discounts-service.ts'
import { freeShippingRoutes } from './free-shipping-routes.ts'
import { getParent, putParent } from './parent-service.ts'
import type { SellingPlanServiceDeps } from './service.ts'

const tags = ['selling-plans']

/** Spec §7 "Selling plans": custom cycle discounts, a plan's group, parent products, free shipping. */
export function planRoutes(app: AppInstance, deps: SellingPlanServiceDeps): void {
  const { db } = deps

  app.route({
    ...tableRoute('GET /selling-plans/:id/custom-cycle-discounts', {
      tags,
      summary: '回数ごとの割引（アプリが保持）',
      errors: { 404: ZErrorResponse },
    }),
    handler: (request) => getCycleDiscounts(db, request.shop, request.params.id),
  })

  app.route({
    ...tableRoute('PUT /selling-plans/:id/custom-cycle-discounts', {
      tags,
      summary: '回数ごとの割引を保存（全件置き換え）',
      errors: { 400: ZErrorResponse, 404: ZErrorResponse, 502: ZErrorResponse },
    }),
    handler: (request) => putCycleDiscounts(deps, request.shop, request.params.id, request.body),
  })

  app.route({
    ...tableRoute('DELETE /selling-plans/:id/custom-cycle-discounts-all', {
      tags,
      summary: '回数ごとの割引をすべて削除',
      errors: { 404: ZErrorResponse, 422: ZErrorResponse, 502: ZErrorResponse },
    }),
    handler: async (request, reply) => {
      await deleteCycleDiscounts(deps, request.shop, request.params.id)
      return reply.code(204).send(null)
    },
  })

  app.route({
    ...tableRoute('GET /selling-plans/:id/selling-plan-group-id', {
      tags,
      summary: 'プランの販売プランID',
      errors: { 404: ZErrorResponse },
    }),
    handler: (request) => groupIdOfPlan(db, request.shop, request.params.id),
  })

  const parentErrors = { 400: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse }
  app.route({
    ...tableRoute('GET /selling-plan-groups/:id/variants/:variantId/parent', {
      tags,
      summary: '親商品（バリエーションIDが0のときは販売プラン全体）',
      errors: parentErrors,
    }),
    handler: (request) => getParent(db, request.shop, request.params.id, request.params.variantId),
  })
  app.route({
    ...tableRoute('PUT /selling-plan-groups/:id/variants/:variantId/parent', {
      tags,
      summary: '親商品を設定（nullで解除）',
      errors: parentErrors,
    }),
    handler: (request) =>
      putParent(db, request.shop, request.params.id, request.params.variantId, request.body.parentVariantId),
  })

  freeShippingRoutes(app, deps)
}
