import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoutes } from '../../http/contract-route.ts'
import { stateChangingGet } from '../../http/get-write-guard.ts'
import { createFreeShippingService } from './free-shipping-service.ts'
import type { SellingPlanServiceDeps } from './service.ts'

/** Spec §7 free-shipping-profile: GET …/exist and GET …/update (the spec's verb, though it writes: guarded). */
export function freeShippingRoutes(app: AppInstance, deps: SellingPlanServiceDeps): void {
  const route = tableRoutes(app, { tags: ['selling-plans'] })
  const freeShipping = createFreeShippingService(deps)
  route(
    'GET /free-shipping-profile/exist',
    '送料無料の配送プロファイルの有無（販売プランを指定するとその送料無料の状態も）',
    {
      errors: [404, 502],
      handler: (request) => freeShipping.exist(request.shop, request.query.sellingPlanGroupId),
    },
  )

  route(
    'GET /free-shipping-profile/update',
    '販売プランの送料無料を切り替え（free=true で送料無料の配送プロファイルへ）',
    {
      errors: [403, 404, 422, 502],
      ...stateChangingGet('販売プランの編集画面の「送料」'),
      handler: (request) =>
        freeShipping.update(request.shop, request.query.sellingPlanGroupId, request.query.free),
    },
  )
}
