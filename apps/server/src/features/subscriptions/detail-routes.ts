import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoutes } from '../../http/contract-route.ts'
import { createContractDetails } from './detail-service.ts'

/** GET /app-admin/subscriptions/:contractId — one contract's detail (spec §3). */
export function contractDetailRoutes(app: AppInstance): void {
  const route = tableRoutes(app, { tags: ['subscriptions'] })
  const details = createContractDetails({ db: app.db, clients: app.shopClients })
  route('GET /subscriptions/:contractId', '契約の詳細（顧客・商品・注文・請求履歴・支払い方法）', {
    errors: [404, 502],
    handler: (request) => details.get(request.shop, request.params.contractId),
  })
}
