import { ZContractDetailParams, ZErrorResponse, ZSubscriptionDetail } from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { createContractDetails } from './detail-service.ts'

/** GET /app-admin/subscriptions/:contractId — one contract's detail (spec §3). */
export function contractDetailRoutes(app: AppInstance): void {
  const details = createContractDetails({ db: app.db, clients: app.shopClients })
  app.get(
    '/app-admin/subscriptions/:contractId',
    {
      schema: {
        tags: ['subscriptions'],
        summary: '契約の詳細（顧客・商品・注文・請求履歴・支払い方法）',
        params: ZContractDetailParams,
        response: { 200: ZSubscriptionDetail, 404: ZErrorResponse, 502: ZErrorResponse },
      },
    },
    (request) => details.get(request.shop, request.params.contractId),
  )
}
