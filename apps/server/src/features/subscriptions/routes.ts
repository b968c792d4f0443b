import {
  ZLatestSubscription,
  ZLatestSubscriptionQuery,
  ZSearchSubscriptionsQuery,
  ZSearchSubscriptionsResponse,
  ZSearchVariantQuery,
} from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { apiRoutes } from '../../http/routes.ts'
import { latestSubscription, searchSubscriptions, searchSubscriptionsByVariant } from './service.ts'

export function subscriptionRoutes(app: AppInstance): void {
  const api = apiRoutes(app, ['subscriptions'])
  api.get('/app-admin/subscriptions/search', '契約一覧・検索（次回請求日・ステータス・契約ID・顧客）', {
    querystring: ZSearchSubscriptionsQuery,
    response: { 200: ZSearchSubscriptionsResponse },
    handler: (request) => searchSubscriptions(app.db, request.shop, request.query),
  })

  api.get('/app-admin/subscriptions/search-variant-id', 'バリエーションIDで契約を検索', {
    querystring: ZSearchVariantQuery,
    response: { 200: ZSearchSubscriptionsResponse },
    handler: (request) => searchSubscriptionsByVariant(app.db, request.shop, request.query),
  })

  // A static path: it wins over `/subscriptions/:contractId` (detail-routes.ts) whatever the order.
  api.get('/app-admin/subscriptions/latest', '最新の契約（作成が最も新しい契約。statuses で絞り込み可）', {
    querystring: ZLatestSubscriptionQuery,
    response: { 200: ZLatestSubscription },
    handler: (request) => latestSubscription(app.db, request.shop, request.query),
  })
}
