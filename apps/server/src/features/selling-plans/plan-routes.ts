import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoutes } from '../../http/contract-route.ts'
import {
  deleteCycleDiscounts,
  getCycleDiscounts,
  groupIdOfPlan,
  putCycleDiscounts,
} from './cycle-discounts-service.ts'
import { freeShippingRoutes } from './free-shipping-routes.ts'
import { getParent, putParent } from './parent-service.ts'
import type { SellingPlanServiceDeps } from './service.ts'

/** Spec §7 "Selling plans": custom cycle discounts, a plan's group, parent products, free shipping. */
export function planRoutes(app: AppInstance, deps: SellingPlanServiceDeps): void {
  const route = tableRoutes(app, { tags: ['selling-plans'] })
  const { db } = deps

  route('GET /selling-plans/:id/custom-cycle-discounts', '回数ごとの割引（アプリが保持）', {
    errors: [404],
    handler: (request) => getCycleDiscounts(db, request.shop, request.params.id),
  })

  route('PUT /selling-plans/:id/custom-cycle-discounts', '回数ごとの割引を保存（全件置き換え）', {
    errors: [400, 404, 502],
    handler: (request) => putCycleDiscounts(deps, request.shop, request.params.id, request.body),
  })

  route('DELETE /selling-plans/:id/custom-cycle-discounts-all', '回数ごとの割引をすべて削除', {
    errors: [404, 422, 502],
    handler: (request) => deleteCycleDiscounts(deps, request.shop, request.params.id),
  })

  route('GET /selling-plans/:id/selling-plan-group-id', 'プランの販売プランID', {
    errors: [404],
    handler: (request) => groupIdOfPlan(db, request.shop, request.params.id),
  })

  const parentErrors = [400, 403, 404]
  route(
    'GET /selling-plan-groups/:id/variants/:variantId/parent',
    '親商品（バリエーションIDが0のときは販売プラン全体）',
    {
      errors: parentErrors,
      handler: (request) => getParent(db, request.shop, request.params.id, request.params.variantId),
    },
  )
  route('PUT /selling-plan-groups/:id/variants/:variantId/parent', '親商品を設定（nullで解除）', {
    errors: parentErrors,
    handler: (request) =>
      putParent(db, request.shop, request.params.id, request.params.variantId, request.body.parentVariantId),
  })

  freeShippingRoutes(app, deps)
}
