import {
  type AppPlan,
  type EligibilityResponse,
  type OrderHistoryResponse,
  type PlanResponse,
  ZAppPlan,
} from '@teiki/contract'
import { orderHistoryMessage, ordersCompleteFrom } from '@teiki/domain'
import type { DbClient } from '../../db/pool.ts'
import { platformAccess, type ShopRow } from './repo.ts'
import { missingScopes, REQUESTED_SCOPES } from './scopes.ts'

export function currentPlan(shop: ShopRow): PlanResponse {
  const parsed = ZAppPlan.safeParse(shop.app_plan)
  const plan: AppPlan | null = parsed.success ? parsed.data : null
  return { currentPlan: plan, isActive: plan?.status === 'ACTIVE', shopifyPlan: shop.shopify_plan }
}

const ORDER_HISTORY_DETAIL =
  'アプリに全期間の注文の読み取り（read_all_orders）が許可されていないため、Shopify から読み取れたのは最初の同期の60日前以降の注文だけです。' +
  'それより前の注文は売上・継続率・LTV・顧客の購入履歴に含まれません。' +
  '許可されると、次の同期でそれより前の注文も読み込みます。'

/** GET /order-history: from which day the shop's figures built on orders are complete. */
export async function orderHistory(db: DbClient, shop: ShopRow): Promise<OrderHistoryResponse> {
  const { ordersReadableFrom: from } = await platformAccess(db, shop.id)
  if (from === null) return { complete: true, completeFrom: null, message: null, detail: null }
  const completeFrom = ordersCompleteFrom(from, shop.iana_timezone)
  return {
    complete: false,
    completeFrom,
    message: orderHistoryMessage(completeFrom),
    detail: ORDER_HISTORY_DETAIL,
  }
}

export function scopeEligibility(
  shop: ShopRow,
  opts: { adminOrigin: (shop: string) => string; apiKey?: string; appUrl?: string },
): EligibilityResponse {
  if (missingScopes(shop.scopes).length === 0) return { eligible: true, redirect_uri: null }
  // The update asks for every scope of this version, the optional read_all_orders too.
  const params = new URLSearchParams({ scope: REQUESTED_SCOPES.join(',') })
  if (opts.apiKey) params.set('client_id', opts.apiKey)
  if (opts.appUrl) params.set('redirect_uri', `${opts.appUrl}/auth/callback`)
  return { eligible: false, redirect_uri: `${opts.adminOrigin(shop.domain)}/admin/oauth/authorize?${params}` }
}
