import {
  ZAppHandleResponse,
  ZAppPlanOffers,
  ZAppUsageEligibility,
  ZErrorResponse,
  ZPlanChangeBody,
  ZPlanChangeResponse,
  ZPlanResponse,
  ZShopEligibility,
  ZShopifyPlanResponse,
} from '@teiki/contract'
import { APP_PLANS } from '@teiki/domain'
import type { FastifyRequest } from 'fastify'
import type { AppInstance } from '../../http/app-instance.ts'
import { fetchAppHandle } from '../../platform/operations/app-handle.ts'
import { fetchEligibleForSubscriptions } from '../../platform/operations/shop-features.ts'
import { fetchShopPlan } from '../../platform/operations/shop-plan.ts'
import { isFlagOn } from '../shop-flags/service.ts'
import { findInstalledShop } from '../shops/repo.ts'
import { currentPlan } from '../shops/service.ts'
import { createAppPlanService } from './service.ts'

/** プラン and eligibility (spec §7 "Eligibility, plan, shop"). */
export function appPlanRoutes(app: AppInstance): void {
  const tags = ['shop']
  const plans = createAppPlanService(app.db, app.platformOptions)
  const origin = (request: FastifyRequest) =>
    app.platformOptions.appUrl ?? `${request.protocol}://${request.host}`

  app.get(
    '/app-admin/plan',
    {
      schema: {
        tags,
        summary: 'アプリの現在のプラン（承認待ちの変更があればストアに確認）',
        response: { 200: ZPlanResponse },
      },
    },
    // The gate decides on this answer: read the row fresh, not the auth cache's copy.
    async (request) =>
      plans.planOf((await findInstalledShop(app.db, request.shop.domain)) ?? request.shop, request.log),
  )
  app.get(
    '/app-admin/plans',
    { schema: { tags, summary: '選べるプラン（月額・無料体験）', response: { 200: ZAppPlanOffers } } },
    () => ({
      plans: APP_PLANS.map(({ key, name, monthlyPrice, trialDays, features }) => ({
        key,
        name,
        monthlyPrice,
        trialDays,
        features,
      })),
    }),
  )
  app.put(
    '/app-admin/plan',
    {
      schema: {
        tags,
        summary: 'プランを変更（ストアの承認ページのURLを返す）',
        body: ZPlanChangeBody,
        response: { 200: ZPlanChangeResponse, 400: ZErrorResponse, 422: ZErrorResponse, 502: ZErrorResponse },
      },
    },
    (request) =>
      plans.changePlan(
        request.shop,
        request.body.plan,
        `${origin(request)}/plans?${new URLSearchParams({ shop: request.shop.domain })}`,
      ),
  )
  app.get(
    '/app-admin/shopifyPlan',
    {
      schema: {
        tags,
        summary: 'ストアのShopifyプラン',
        response: { 200: ZShopifyPlanResponse, 502: ZErrorResponse },
      },
    },
    (request) => plans.read(request.shop, 'Shopifyプランの取得', fetchShopPlan),
  )
  app.get(
    '/app-admin/app-usage-eligibility',
    {
      schema: {
        tags,
        summary: 'アプリを利用できるか（有効なプラン、またはテストストア）',
        response: { 200: ZAppUsageEligibility },
      },
    },
    async (request) => {
      const shop = (await findInstalledShop(app.db, request.shop.domain)) ?? request.shop
      if (currentPlan(shop).isActive) return { eligible: true, reason: null }
      if (await isFlagOn(app.db, shop.id, 'test_shop'))
        return { eligible: true, reason: 'テストストアのため無料でご利用いただけます' }
      return { eligible: false, reason: '有効なプランがありません。プランを選んでください' }
    },
  )
  app.get(
    '/app-admin/shop-eligibility',
    {
      schema: {
        tags,
        summary: 'ストアが定期購買を販売できるか（失敗時は false: 仕様8章）',
        response: { 200: ZShopEligibility },
      },
    },
    async (request) => {
      try {
        return { eligible: await fetchEligibleForSubscriptions(plans.clients.clientFor(request.shop)) }
      } catch (error) {
        request.log.warn({ err: error }, 'shop eligibility check failed; answering false')
        return { eligible: false }
      }
    },
  )
  app.get(
    '/app-admin/app-handle',
    {
      schema: {
        tags,
        summary: '管理画面でのアプリのハンドル',
        response: { 200: ZAppHandleResponse, 502: ZErrorResponse },
      },
    },
    async (request) => {
      const handle = (await plans.read(request.shop, 'アプリ情報の取得', fetchAppHandle)) ?? 'teiki'
      const store = request.shop.domain.replace(/\.myshopify\.com$/, '')
      return { handle, appUrl: `https://admin.shopify.com/store/${store}/apps/${handle}` }
    },
  )
}
