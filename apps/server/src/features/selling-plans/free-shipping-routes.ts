import {
  ZFreeShippingExist,
  ZFreeShippingExistQuery,
  ZFreeShippingUpdate,
  ZFreeShippingUpdateQuery,
} from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { stateChangingGet } from '../../http/get-write-guard.ts'
import { apiRoutes, errorAnswers } from '../../http/routes.ts'
import { createFreeShippingService } from './free-shipping-service.ts'
import type { SellingPlanServiceDeps } from './service.ts'

/** Spec §7 free-shipping-profile: GET …/exist and GET …/update (the spec's verb, though it writes: guarded). */
export function freeShippingRoutes(app: AppInstance, deps: SellingPlanServiceDeps): void {
  const api = apiRoutes(app, ['selling-plans'])
  const freeShipping = createFreeShippingService(deps)
  api.get(
    '/app-admin/free-shipping-profile/exist',
    '送料無料の配送プロファイルの有無（販売プランを指定するとその送料無料の状態も）',
    {
      querystring: ZFreeShippingExistQuery,
      response: { 200: ZFreeShippingExist, ...errorAnswers(404, 502) },
      handler: (request) => freeShipping.exist(request.shop, request.query.sellingPlanGroupId),
    },
  )

  api.get(
    '/app-admin/free-shipping-profile/update',
    '販売プランの送料無料を切り替え（free=true で送料無料の配送プロファイルへ）',
    {
      querystring: ZFreeShippingUpdateQuery,
      response: { 200: ZFreeShippingUpdate, ...errorAnswers(403, 404, 422, 502) },
      handler: (request) =>
        freeShipping.update(request.shop, request.query.sellingPlanGroupId, request.query.free),
    },
    { ...stateChangingGet('販売プランの編集画面の「送料」') },
  )
}
