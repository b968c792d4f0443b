import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoutes } from '../../http/contract-route.ts'
import { getDeliverySettings, putDeliverySettings } from './service.ts'

/** 設定 › 配送設定 (issue 25). */
export function deliveryRoutes(app: AppInstance): void {
  const route = tableRoutes(app, { tags: ['settings'] })

  route('GET /delivery-settings', '配送設定', {
    handler: (request) => getDeliverySettings(app.db, request.shop.id),
  })
  route('PUT /delivery-settings', '配送設定を保存（誤りは項目を示して400）', {
    errors: [400],
    handler: (request) =>
      putDeliverySettings(app.db, request.shop.id, request.body, app.shopClients.clientFor(request.shop)),
  })
}
