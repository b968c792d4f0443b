import {
  ZCustomCycleDiscounts,
  ZCustomCycleDiscountsBody,
  ZErrorResponse,
  ZParentVariant,
  ZParentVariantBody,
  ZParentVariantParams,
  ZSellingPlanGroupOfPlan,
  ZSellingPlanParams,
} from '@teiki/contract'
import { z } from 'zod'
import type { AppInstance } from '../../http/app-instance.ts'
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

  app.get(
    '/app-admin/selling-plans/:id/custom-cycle-discounts',
    {
      schema: {
        tags,
        summary: '回数ごとの割引（アプリが保持）',
        params: ZSellingPlanParams,
        response: { 200: ZCustomCycleDiscounts, 404: ZErrorResponse },
      },
    },
    (request) => getCycleDiscounts(db, request.shop, request.params.id),
  )

  app.put(
    '/app-admin/selling-plans/:id/custom-cycle-discounts',
    {
      schema: {
        tags,
        summary: '回数ごとの割引を保存（全件置き換え）',
        params: ZSellingPlanParams,
        body: ZCustomCycleDiscountsBody,
        response: {
          200: ZCustomCycleDiscounts,
          400: ZErrorResponse,
          404: ZErrorResponse,
          502: ZErrorResponse,
        },
      },
    },
    (request) => putCycleDiscounts(deps, request.shop, request.params.id, request.body),
  )

  app.delete(
    '/app-admin/selling-plans/:id/custom-cycle-discounts-all',
    {
      schema: {
        tags,
        summary: '回数ごとの割引をすべて削除',
        params: ZSellingPlanParams,
        response: {
          204: z.null().describe('削除しました'),
          404: ZErrorResponse,
          422: ZErrorResponse,
          502: ZErrorResponse,
        },
      },
    },
    async (request, reply) => {
      await deleteCycleDiscounts(deps, request.shop, request.params.id)
      return reply.code(204).send(null)
    },
  )

  app.get(
    '/app-admin/selling-plans/:id/selling-plan-group-id',
    {
      schema: {
        tags,
        summary: 'プランの販売プランID',
        params: ZSellingPlanParams,
        response: { 200: ZSellingPlanGroupOfPlan, 404: ZErrorResponse },
      },
    },
    (request) => groupIdOfPlan(db, request.shop, request.params.id),
  )

  const parentSchema = {
    tags,
    params: ZParentVariantParams,
    response: { 200: ZParentVariant, 400: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse },
  }
  app.get(
    '/app-admin/selling-plan-groups/:id/variants/:variantId/parent',
    { schema: { ...parentSchema, summary: '親商品（バリエーションIDが0のときは販売プラン全体）' } },
    (request) => getParent(db, request.shop, request.params.id, request.params.variantId),
  )
  app.put(
    '/app-admin/selling-plan-groups/:id/variants/:variantId/parent',
    { schema: { ...parentSchema, summary: '親商品を設定（nullで解除）', body: ZParentVariantBody } },
    (request) =>
      putParent(db, request.shop, request.params.id, request.params.variantId, request.body.parentVariantId),
  )

  freeShippingRoutes(app, deps)
}
