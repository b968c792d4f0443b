import {
  ZErrorResponse,
  ZFreeShippingExist,
  ZFreeShippingExistQuery,
  ZFreeShippingUpdate,
  ZFreeShippingUpdateQuery,
} from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { stateChangingGet } from '../../http/get-write-guard.ts'
import { createFreeShippingService } from './free-shipping-service.ts'
import type { SellingPlanServiceDeps } from './service.ts'

const tags = ['selling-plans']

/** Spec §7 free-shipping-profile: GET …/exist and GET …/update (the spec's verb, though it writes: guarded). */
export function freeShippingRoutes(app: AppInstance, deps: SellingPlanServiceDeps): void {
  const freeShipping = createFreeShippingService(deps)
  app.get(
    '/app-admin/free-shipping-profile/exist',
    {
      schema: {
        tags,
        summary: '送料無料の配送プロファイルの有無（販売プランを指定するとその送料無料の状態も）',
        querystring: ZFreeShippingExistQuery,
        response: { 200: ZFreeShippingExist, 404: ZErrorResponse, 502: ZErrorResponse },
      },
    },
    (request) => freeShipping.exist(request.shop, request.query.sellingPlanGroupId),
  )

  app.get(
    '/app-admin/free-shipping-profile/update',
    {
      ...stateChangingGet('販売プランの編集画面の「送料」'),
      schema: {
        tags,
        summary: '販売プランの送料無料を切り替え（free=true で送料無料の配送プロファイルへ）',
        querystring: ZFreeShippingUpdateQuery,
        response: {
          200: ZFreeShippingUpdate,
          403: ZErrorResponse,
          404: ZErrorResponse,
          422: ZErrorResponse,
          502: ZErrorResponse,
        },
      },
    },
    (request) => freeShipping.update(request.shop, request.query.sellingPlanGroupId, request.query.free),
  )
}
