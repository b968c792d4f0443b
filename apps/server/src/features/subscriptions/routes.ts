import { ZSearchSubscriptionsQuery, ZSearchSubscriptionsResponse, ZSearchVariantQuery } from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { searchSubscriptions, searchSubscriptionsByVariant } from './service.ts'

export function subscriptionRoutes(app: AppInstance): void {
  app.get(
    '/app-admin/subscriptions/search',
    {
      schema: {
        tags: ['subscriptions'],
        summary: '契約一覧・検索（次回請求日・ステータス・契約ID・顧客）',
        querystring: ZSearchSubscriptionsQuery,
        response: { 200: ZSearchSubscriptionsResponse },
      },
    },
    (request) => searchSubscriptions(app.db, request.shop, request.query),
  )

  app.get(
    '/app-admin/subscriptions/search-variant-id',
    {
      schema: {
        tags: ['subscriptions'],
        summary: 'バリエーションIDで契約を検索',
        querystring: ZSearchVariantQuery,
        response: { 200: ZSearchSubscriptionsResponse },
      },
    },
    (request) => searchSubscriptionsByVariant(app.db, request.shop, request.query),
  )
}
