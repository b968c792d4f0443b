import { ZErrorResponse } from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoute } from '../../http/contract-route.ts'
import { getDeliverySettings, putDeliverySettings } from './service.ts'

/** 設定 › 配送設定 (issue 25). */
export function deliveryRoutes(app: AppInstance): void {
  const tags = ['settings']
  app.route({
    ...tableRoute('GET /delivery-settings', { tags, summary: '配送設定' }),
    handler: (request) => getDeliverySettings(app.db, request.shop.id),
  })
  app.route({
    ...tableRoute('PUT /delivery-settings', {
      tags,
      summary: '配送設定を保存（誤りは項目を示して400）',
      errors: { 400: ZErrorResponse },
    }),
    handler: (request) =>
      putDeliverySettings(app.db, request.shop.id, request.body, app.shopClients.clientFor(request.shop)),
  })
}
