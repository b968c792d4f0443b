import { APP_PLANS, featuresOfPlan, planFeatureLines } from '@teiki/domain'
import type { FastifyRequest } from 'fastify'
import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoutes } from '../../http/contract-route.ts'
import { fetchAppHandle } from '../../platform/operations/app-handle.ts'
import { fetchEligibleForSubscriptions } from '../../platform/operations/shop-features.ts'
import { fetchShopPlan } from '../../platform/operations/shop-plan.ts'
import { findInstalledShop } from '../../platform/shops-repo.ts'
import { adminAppUrl, createAppPlanService } from './service.ts'
import { shopUsage } from './usage.ts'

/** プラン and eligibility (spec §7 "Eligibility, plan, shop"). */
export function appPlanRoutes(app: AppInstance): void {
  const route = tableRoutes(app, { tags: ['shop'] })

  const plans = createAppPlanService(app.db, app.shopClients)
  const origin = (request: FastifyRequest) =>
    app.platformOptions.appUrl ?? `${request.protocol}://${request.host}`

  route('GET /plan', 'アプリの現在のプラン（承認待ちの変更があればストアに確認）', {
    // The gate decides on this answer: read the row fresh, not the auth cache's copy.
    handler: async (request) =>
      plans.planOf((await findInstalledShop(app.db, request.shop.domain)) ?? request.shop, request.log),
  })
  route('GET /plans', '選べるプラン（月額・無料体験・機能）', {
    // The cards' lines and what each plan includes come from the one tier table (domain).
    handler: () => ({
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
  route('PUT /plan', 'プランを変更（ストアの承認ページのURLを返す）', {
    errors: [400, 422, 502],
    handler: (request) =>
      plans.changePlan(request.shop, request.body.plan, {
        returnUrl: `${origin(request)}/plans?${new URLSearchParams({ shop: request.shop.domain })}`,
        mobile: request.body.mobile ?? false,
      }),
  })
  route('GET /shopifyPlan', 'ストアのShopifyプラン', {
    errors: [502],
    handler: (request) => plans.read(request.shop, 'Shopifyプランの取得', fetchShopPlan),
  })
  route(
    'GET /app-usage-eligibility',
    'アプリを利用できるか（有効なプラン、開発ストア・テストストア）と使える機能',
    {
      // The page gate decides on this answer: read the row fresh, not the auth cache's copy.
      handler: async (request) =>
        shopUsage(app.db, (await findInstalledShop(app.db, request.shop.domain)) ?? request.shop),
    },
  )
  route('GET /shop-eligibility', 'ストアが定期購買を販売できるか（失敗時は false: 仕様8章）', {
    handler: async (request) => {
      try {
        return { eligible: await fetchEligibleForSubscriptions(plans.clients.clientFor(request.shop)) }
      } catch (error) {
        request.log.warn({ err: error }, 'shop eligibility check failed; answering false')
        return { eligible: false }
      }
    },
  })
  route('GET /app-handle', '管理画面でのアプリのハンドル', {
    errors: [502],
    handler: async (request) => {
      const handle = (await plans.read(request.shop, 'アプリ情報の取得', fetchAppHandle)) ?? 'teiki'
      return { handle, appUrl: adminAppUrl(request.shop.domain, handle, '') }
    },
  })
}
