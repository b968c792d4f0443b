import { ZDomainResponse, ZEligibilityResponse, ZPlanResponse, ZShopCurrencyResponse } from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { findInstalledShop } from './repo.ts'
import { currentPlan, scopeEligibility } from './service.ts'

export function shopRoutes(app: AppInstance): void {
  app.get(
    '/app-admin/plan',
    { schema: { tags: ['shop'], summary: 'アプリの現在のプラン', response: { 200: ZPlanResponse } } },
    // The gate decides on this answer: read the row fresh, not the auth cache's copy (a plan
    // written by the sync or a billing change a moment ago must count at once).
    async (request) => currentPlan((await findInstalledShop(app.db, request.shop.domain)) ?? request.shop),
  )
  app.get(
    '/app-admin/app-scope-eligibility',
    {
      schema: {
        tags: ['shop'],
        summary: '必要な権限が付与済みか（未付与なら更新用URL）',
        response: { 200: ZEligibilityResponse },
      },
    },
    (request) => scopeEligibility(request.shop, app.platformOptions),
  )
  app.get(
    '/app-admin/shop-currency-code',
    { schema: { tags: ['shop'], response: { 200: ZShopCurrencyResponse } } },
    (request) => ({ currencyCode: request.shop.currency_code }),
  )
  app.get(
    '/app-admin/domain',
    { schema: { tags: ['shop'], response: { 200: ZDomainResponse } } },
    (request) => ({
      domain: request.shop.domain,
      url: request.shop.primary_domain_url ?? `https://${request.shop.domain}`,
    }),
  )
}
