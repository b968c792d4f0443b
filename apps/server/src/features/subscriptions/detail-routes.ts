import { ZContractDetailParams, ZSubscriptionDetail } from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { apiRoutes, errorAnswers } from '../../http/routes.ts'
import { createContractDetails } from './detail-service.ts'

/** GET /app-admin/subscriptions/:contractId — one contract's detail (spec §3). */
export function contractDetailRoutes(app: AppInstance): void {
  const api = apiRoutes(app, ['subscriptions'])
  const details = createContractDetails({ db: app.db, clients: app.shopClients })
  api.get('/app-admin/subscriptions/:contractId', '契約の詳細（顧客・商品・注文・請求履歴・支払い方法）', {
    params: ZContractDetailParams,
    response: { 200: ZSubscriptionDetail, ...errorAnswers(404, 502) },
    handler: (request) => details.get(request.shop, request.params.contractId),
  })
}
