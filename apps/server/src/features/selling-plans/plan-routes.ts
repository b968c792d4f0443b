import {
  ZCustomCycleDiscounts,
  ZCustomCycleDiscountsBody,
  ZParentVariant,
  ZParentVariantBody,
  ZParentVariantParams,
  ZSellingPlanGroupOfPlan,
  ZSellingPlanParams,
} from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { apiRoutes, errorAnswers } from '../../http/routes.ts'
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
  const api = apiRoutes(app, ['selling-plans'])
  const { db } = deps

  api.get('/app-admin/selling-plans/:id/custom-cycle-discounts', '回数ごとの割引（アプリが保持）', {
    params: ZSellingPlanParams,
    response: { 200: ZCustomCycleDiscounts, ...errorAnswers(404) },
    handler: (request) => getCycleDiscounts(db, request.shop, request.params.id),
  })

  api.put('/app-admin/selling-plans/:id/custom-cycle-discounts', '回数ごとの割引を保存（全件置き換え）', {
    params: ZSellingPlanParams,
    body: ZCustomCycleDiscountsBody,
    response: { 200: ZCustomCycleDiscounts, ...errorAnswers(400, 404, 502) },
    handler: (request) => putCycleDiscounts(deps, request.shop, request.params.id, request.body),
  })

  api.remove('/app-admin/selling-plans/:id/custom-cycle-discounts-all', '回数ごとの割引をすべて削除', {
    params: ZSellingPlanParams,
    response: errorAnswers(404, 422, 502),
    handler: (request) => deleteCycleDiscounts(deps, request.shop, request.params.id),
  })

  api.get('/app-admin/selling-plans/:id/selling-plan-group-id', 'プランの販売プランID', {
    params: ZSellingPlanParams,
    response: { 200: ZSellingPlanGroupOfPlan, ...errorAnswers(404) },
    handler: (request) => groupIdOfPlan(db, request.shop, request.params.id),
  })

  const parent = {
    params: ZParentVariantParams,
    response: { 200: ZParentVariant, ...errorAnswers(400, 403, 404) },
  }
  api.get(
    '/app-admin/selling-plan-groups/:id/variants/:variantId/parent',
    '親商品（バリエーションIDが0のときは販売プラン全体）',
    {
      ...parent,
      handler: (request) => getParent(db, request.shop, request.params.id, request.params.variantId),
    },
  )
  api.put('/app-admin/selling-plan-groups/:id/variants/:variantId/parent', '親商品を設定（nullで解除）', {
    ...parent,
    body: ZParentVariantBody,
    handler: (request) =>
      putParent(db, request.shop, request.params.id, request.params.variantId, request.body.parentVariantId),
  })

  freeShippingRoutes(app, deps)
}
