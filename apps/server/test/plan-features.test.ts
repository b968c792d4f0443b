import { ZErrorResponse } from '@teiki/contract'
import { APP_FEATURE_KEYS, featuresOfPlan } from '@teiki/domain'
import { describe, expect, it } from 'vitest'
import { setShopFlag } from '../src/features/shop-flags/service.ts'
import type { RouteEntry } from '../src/http/app.ts'
import { catalogPlan, createShop, useTestApp } from './support/fixtures.ts'

const env = useTestApp()

type Shop = Awaited<ReturnType<typeof createShop>>

/** The routes of each tiered feature, by the paths the screens of that feature call. */
const FEATURE_PATHS: Record<string, RegExp> = {
  analytics:
    /^\/app-admin\/(daily-report|cumulative|current\/active-contract|subscriptions\/persistence-rate|traffic)/,
  csvExport: /^\/app-admin\/export-subscription-contracts/,
  customerData: /^\/app-admin\/(cdp-|ltv\/)/,
}

const merchantRoutes = () =>
  env.app.routeList.filter((r) => r.config.auth === 'shop' && r.method !== 'HEAD' && r.method !== 'OPTIONS')

function request(route: RouteEntry, shop: Shop) {
  const path = route.url.replace(/:\w+/g, '1')
  const method = route.method as 'GET' | 'POST' | 'PUT' | 'DELETE'
  return env.app.inject({
    method,
    url: `${path}?shop=${shop.domain}&secret=${shop.secret}`,
    ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
  })
}

describe('the tiers on the server', () => {
  it('every route of analytics, CSV export and customer data belongs to its feature, and no other route does', () => {
    const tagged = merchantRoutes().filter((r) => r.config.planFeature)
    for (const [feature, paths] of Object.entries(FEATURE_PATHS)) {
      const ofFeature = merchantRoutes().filter((r) => paths.test(r.url))
      expect(ofFeature.length).toBeGreaterThan(1)
      for (const route of ofFeature)
        expect([route.url, route.config.planFeature]).toEqual([route.url, feature])
    }
    const untagged = tagged.filter((r) => !Object.values(FEATURE_PATHS).some((p) => p.test(r.url)))
    expect(untagged).toEqual([])
  })

  it('a ライト shop is refused on every one of those routes, with the plan that includes it', async () => {
    const light = await createShop(env.pool, { prefix: 'tier-light', appPlan: catalogPlan('light') })
    const routes = merchantRoutes().filter((r) => r.config.planFeature)
    expect(routes.length).toBeGreaterThanOrEqual(30)
    for (const route of routes) {
      const res = await request(route, light)
      expect([route.method, route.url, res.statusCode]).toEqual([route.method, route.url, 403])
      const { error } = ZErrorResponse.parse(res.json())
      expect(error.code).toBe('PLAN_REQUIRED')
      expect(error.message).toBe(
        {
          analytics:
            '分析・レポートはスタンダードプランからご利用いただけます（現在のプラン: ライトプラン）。',
          csvExport:
            'CSVエクスポートはスタンダードプランからご利用いただけます（現在のプラン: ライトプラン）。',
          customerData: '顧客データ分析はプロプランからご利用いただけます（現在のプラン: ライトプラン）。',
        }[route.config.planFeature as string],
      )
    }
  })

  it('each plan opens what its card lists; a test shop without a plan, and a plan the catalogue lacks, open all', async () => {
    const probe: Record<string, { method: 'GET'; url: string }> = {
      analytics: { method: 'GET', url: '/app-admin/current/active-contract' },
      csvExport: { method: 'GET', url: '/app-admin/export-subscription-contracts' },
      customerData: { method: 'GET', url: '/app-admin/cdp-segment-list' },
    }
    const opens = async (shop: Shop) => {
      const open: string[] = []
      for (const [feature, route] of Object.entries(probe)) {
        const res = await env.app.inject({
          ...route,
          url: `${route.url}?shop=${shop.domain}&secret=${shop.secret}`,
        })
        if (res.statusCode !== 403) open.push(feature)
      }
      return open
    }
    const tiered = (key: 'light' | 'standard' | 'pro') => featuresOfPlan(key).filter((f) => f in probe)
    for (const key of ['light', 'standard', 'pro'] as const) {
      const shop = await createShop(env.pool, { prefix: `tier-${key}`, appPlan: catalogPlan(key) })
      expect(await opens(shop)).toEqual(tiered(key))
    }
    expect(tiered('standard')).toEqual(['analytics', 'csvExport'])

    const test = await createShop(env.pool, { prefix: 'tier-test', appPlan: null })
    expect(await opens(test)).toEqual([])
    await setShopFlag(env.pool, test.id, 'test_shop', true)
    expect(await opens(test)).toEqual(Object.keys(probe))

    const legacy = await createShop(env.pool, {
      prefix: 'tier-legacy',
      appPlan: { ...catalogPlan('light'), name: 'スタンダードプラン' },
    })
    expect(await opens(legacy)).toEqual(Object.keys(probe))
    expect([...APP_FEATURE_KEYS].sort()).toEqual([...featuresOfPlan('pro')].sort())
  })

  it('the web pixel’s hits are never refused by plan (the shop’s visitors are not the merchant)', async () => {
    const light = await createShop(env.pool, { prefix: 'tier-pixel', appPlan: catalogPlan('light') })
    const res = await env.app.inject({
      method: 'POST',
      url: `/pixel/events?shop=${light.domain}&key=not-the-key`,
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({ events: [] }),
    })
    expect(res.statusCode).not.toBe(403)
  })
})
