import { type AppPlan, type EligibilityResponse, type PlanResponse, ZAppPlan } from '@teiki/contract'
import { appPlanByName } from '@teiki/domain'
import { missingScopes, REQUESTED_SCOPES } from '../../platform/scopes.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'

export function currentPlan(shop: ShopRow): PlanResponse {
  const parsed = ZAppPlan.safeParse(shop.app_plan)
  const plan: AppPlan | null = parsed.success ? parsed.data : null
  return {
    currentPlan: plan,
    isActive: plan?.status === 'ACTIVE',
    catalogueKey: plan ? (appPlanByName(plan.name)?.key ?? null) : null,
    shopifyPlan: shop.shopify_plan,
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
