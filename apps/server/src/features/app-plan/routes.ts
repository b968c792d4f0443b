import {
  ZAppHandleResponse,
  ZAppPlanOffers,
  ZAppUsageEligibility,
  ZPlanChangeBody,
  ZPlanChangeResponse,
  ZPlanResponse,
  ZShopEligibility,
  ZShopifyPlanResponse,
} from '@teiki/contract'
import { APP_PLANS, featuresOfPlan, planFeatureLines } from '@teiki/domain'
import type { FastifyRequest } from 'fastify'
import type { AppInstance } from '../../http/app-instance.ts'
import { apiRoutes, errorAnswers } from '../../http/routes.ts'
import { fetchAppHandle } from '../../platform/operations/app-handle.ts'
import { fetchEligibleForSubscriptions } from '../../platform/operations/shop-features.ts'
import { fetchShopPlan } from '../../platform/operations/shop-plan.ts'
import { findInstalledShop } from '../../platform/shops-repo.ts'
import { adminAppUrl, createAppPlanService } from './service.ts'
import { shopUsage } from './usage.ts'

/** プラン and eligibility (spec §7 "Eligibility, plan, shop"). */
export function appPlanRoutes(app: AppInstance): void {
  const api = apiRoutes(app, ['shop'])
  const plans = createAppPlanService(app.db, app.shopClients)
  const origin = (request: FastifyRequest) =>
    app.platformOptions.appUrl ?? `${request.protocol}://${request.host}`

  api.get('/app-admin/plan', 'アプリの現在のプラン（承認待ちの変更があればストアに確認）', {
    response: { 200: ZPlanResponse },
    handler: // The gate decides on this answer: read the row fresh, not the auth cache's copy.
      async (request) =>
        plans.planOf((await findInstalledShop(app.db, request.shop.domain)) ?? request.shop, request.log),
  })
  api.get('/app-admin/plans', '選べるプラン（月額・無料体験・機能）', {
    response: { 200: ZAppPlanOffers },
    handler: // The cards' lines and what each plan includes come from the one tier table (domain).
      () => ({
        plans: APP_PLANS.map(({ key, name, monthlyPrice, trialDays }) => ({
          key,
          name,
          monthlyPrice,
          trialDays,
          features: planFeatureLines(key),
          featureKeys: featuresOfPlan(key),
        })),
      }),
  })
  api.put('/app-admin/plan', 'プランを変更（ストアの承認ページのURLを返す）', {
    body: ZPlanChangeBody,
    response: { 200: ZPlanChangeResponse, ...errorAnswers(400, 422, 502) },
    handler: (request) =>
      plans.changePlan(request.shop, request.body.plan, {
        returnUrl: `${origin(request)}/plans?${new URLSearchParams({ shop: request.shop.domain })}`,
        mobile: request.body.mobile ?? false,
      }),
  })
  api.get('/app-admin/shopifyPlan', 'ストアのShopifyプラン', {
    response: { 200: ZShopifyPlanResponse, ...errorAnswers(502) },
    handler: (request) => plans.read(request.shop, 'Shopifyプランの取得', fetchShopPlan),
  })
  api.get(
    '/app-admin/app-usage-eligibility',
    'アプリを利用できるか（有効なプラン、開発ストア・テストストア）と使える機能',
    {
      response: { 200: ZAppUsageEligibility },
      handler: // The page gate decides on this answer: read the row fresh, not the auth cache's copy.
        async (request) =>
          shopUsage(app.db, (await findInstalledShop(app.db, request.shop.domain)) ?? request.shop),
    },
  )
  api.get('/app-admin/shop-eligibility', 'ストアが定期購買を販売できるか（失敗時は false: 仕様8章）', {
    response: { 200: ZShopEligibility },
    handler: async (request) => {
      try {
        return { eligible: await fetchEligibleForSubscriptions(plans.clients.clientFor(request.shop)) }
      } catch (error) {
        request.log.warn({ err: error }, 'shop eligibility check failed; answering false')
        return { eligible: false }
      }
    },
  })
  api.get('/app-admin/app-handle', '管理画面でのアプリのハンドル', {
    response: { 200: ZAppHandleResponse, ...errorAnswers(502) },
    handler: async (request) => {
      const handle = (await plans.read(request.shop, 'アプリ情報の取得', fetchAppHandle)) ?? 'teiki'
      return { handle, appUrl: adminAppUrl(request.shop.domain, handle, '') }
    },
  })
}
