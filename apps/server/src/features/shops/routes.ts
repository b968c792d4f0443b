import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoutes } from '../../http/contract-route.ts'
import { findInstalledShop } from '../../platform/shops-repo.ts'
import { fullSync } from '../../sync/full-sync.ts'
import { createOrderHistory } from './order-history.ts'
import { scopeEligibility } from './service.ts'

export function shopRoutes(app: AppInstance, opts: { orderHistoryRecheckMs?: number } = {}): void {
  const clients = app.shopClients
  const orderHistory = createOrderHistory({
    db: app.db,
    clients,
    // The full sync sees read_all_orders granted and reads every contract's orders again.
    readOlderOrders: async (shop) => {
      const row = await findInstalledShop(app.db, shop.domain)
      if (row) await fullSync(app.db, clients.clientFor(row), row)
    },
    log: app.log,
    ...(opts.orderHistoryRecheckMs === undefined ? {} : { recheckMs: opts.orderHistoryRecheckMs }),
  })
  const route = tableRoutes(app, { tags: ['shop'] })
  route('GET /app-scope-eligibility', '必要な権限が付与済みか（未付与なら更新用URL）', {
    handler: (request) => scopeEligibility(request.shop, app.platformOptions),
  })
  route(
    'GET /order-history',
    '注文履歴をどの日から保持しているか（全期間の注文の読み取りが未許可なら、集計が完全になる日）',
    { handler: (request) => orderHistory(request.shop) },
  )
  route('GET /shop-currency-code', 'ストアの通貨コード', {
    handler: (request) => ({ currencyCode: request.shop.currency_code }),
  })
  route('GET /domain', 'ストアのドメインとURL', {
    handler: (request) => ({
      domain: request.shop.domain,
      url: request.shop.primary_domain_url ?? `https://${request.shop.domain}`,
    }),
  })
}
