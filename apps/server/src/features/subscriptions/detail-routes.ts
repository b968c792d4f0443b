import { ZErrorResponse, ZSubscriptionDetail } from '@teiki/contract'
import { z } from 'zod'
import type { AppInstance } from '../../http/app.ts'
import { createContractDetails } from './detail-service.ts'
import { sharedShopClients } from './shop-client.ts'

// Up to 18 digits: every platform id fits, and the mirror's bigint never overflows.
const ZParams = z.object({
  contractId: z.string().regex(/^\d{1,18}$/, { error: '契約IDは数字で指定してください。' }),
})

/** GET /app-admin/subscriptions/:contractId — one contract's detail (spec §3). */
export function contractDetailRoutes(app: AppInstance): void {
  const details = createContractDetails({ db: app.db, clients: sharedShopClients(app.platformOptions) })
  app.get(
    '/app-admin/subscriptions/:contractId',
    {
      schema: {
        tags: ['subscriptions'],
        summary: '契約の詳細（顧客・商品・注文・請求履歴・支払い方法）',
        params: ZParams,
        response: { 200: ZSubscriptionDetail, 404: ZErrorResponse, 502: ZErrorResponse },
      },
    },
    (request) => details.get(request.shop, request.params.contractId),
  )
}
