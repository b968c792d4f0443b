import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoutes } from '../../http/contract-route.ts'
import { latestSubscription, searchSubscriptions, searchSubscriptionsByVariant } from './service.ts'

export function subscriptionRoutes(app: AppInstance): void {
  const route = tableRoutes(app, { tags: ['subscriptions'] })
  route('GET /subscriptions/search', '契約一覧・検索（次回請求日・ステータス・契約ID・顧客）', {
    handler: (request) => searchSubscriptions(app.db, request.shop, request.query),
  })

  route('GET /subscriptions/search-variant-id', 'バリエーションIDで契約を検索', {
    handler: (request) => searchSubscriptionsByVariant(app.db, request.shop, request.query),
  })

  // A static path: it wins over `/subscriptions/:contractId` (detail-routes.ts) whatever the order.
  route('GET /subscriptions/latest', '最新の契約（作成が最も新しい契約。statuses で絞り込み可）', {
    handler: (request) => latestSubscription(app.db, request.shop, request.query),
  })
}
