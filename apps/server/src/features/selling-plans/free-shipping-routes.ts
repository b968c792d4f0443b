import { ZErrorResponse } from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoute } from '../../http/contract-route.ts'
import { stateChangingGet } from '../../http/get-write-guard.ts'
import { createFreeShippingService } from './free-shipping-service.ts'
import type { SellingPlanServiceDeps } from './service.ts'

const tags = ['selling-plans']

/** Spec §7 free-shipping-profile: GET …/exist and GET …/update (the spec's verb, though it writes: guarded). */
export function freeShippingRoutes(app: AppInstance, deps: SellingPlanServiceDeps): void {
  const freeShipping = createFreeShippingService(deps)
  app.route({
    ...tableRoute('GET /free-shipping-profile/exist', {
      tags,
      summary: '送料無料の配送プロファイルの有無（販売プランを指定するとその送料無料の状態も）',
      errors: { 404: ZErrorResponse, 502: ZErrorResponse },
    }),
    handler: (request) => freeShipping.exist(request.shop, request.query.sellingPlanGroupId),
  })

  app.route({
    ...tableRoute('GET /free-shipping-profile/update', {
      tags,
      summary: '販売プランの送料無料を切り替え（free=true で送料無料の配送プロファイルへ）',
      errors: { 403: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse, 502: ZErrorResponse },
    }),
    ...stateChangingGet('販売プランの編集画面の「送料」'),
    handler: (request) =>
      freeShipping.update(request.shop, request.query.sellingPlanGroupId, request.query.free),
  })
}
