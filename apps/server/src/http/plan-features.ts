import { type AppFeatureKey, type AppUsage, appPlanByKey, featureRefusal, planLabel } from '@teiki/domain'
import type { FastifyInstance, RouteOptions } from 'fastify'
import type { ShopRow } from '../platform/shops-repo.ts'
import { AppError } from './app-error.ts'
import type { AppInstance } from './app-instance.ts'

/**
 * The app plan's features on the server (ADR 0029). The routes of a tiered feature are
 * registered through `withPlanFeature`, so every route of it, including one added later, carries
 * `config.planFeature`; before the handler of such a route a merchant's request (auth `shop`)
 * is answered 403 PLAN_REQUIRED, naming the plan that includes the feature, unless the shop's
 * plan includes it (domain `appUsage`: the tier table, development and test shops). Routes of
 * other kinds (the pixel's ingest, webhooks) are never refused by plan.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    planFeature?: AppFeatureKey
  }
  interface FastifyInstance {
    /** The feature the routes of this scope belong to (`withPlanFeature`). */
    planFeatureDefault?: AppFeatureKey
  }
}

export type PlanFeatureOptions = {
  /** The features the shop's plan includes now, and the plan's key (features/app-plan/usage.ts). */
  usageOf: (shop: ShopRow) => Promise<AppUsage>
}

/** Must run before any route is registered, and after the auth hook (it reads `request.shop`). */
export function registerPlanFeatures(app: AppInstance, opts: PlanFeatureOptions): void {
  app.addHook('onRoute', function mark(this: FastifyInstance, route: RouteOptions) {
    route.config ??= {}
    const config = route.config as { planFeature?: AppFeatureKey }
    if (config.planFeature === undefined && this.planFeatureDefault)
      config.planFeature = this.planFeatureDefault
  })
  app.addHook('onRequest', async (request) => {
    if (request.is404) return
    const { planFeature: feature, auth } = request.routeOptions.config
    if (!feature || auth !== 'shop') return
    const usage = await opts.usageOf(request.shop)
    if (usage.features.includes(feature)) return
    const current = usage.planKey ? planLabel(appPlanByKey(usage.planKey)) : null
    throw new AppError('PLAN_REQUIRED', featureRefusal(feature, current))
  })
}

/** Registers a feature's routes in a scope of their own: each of them requires the feature. */
export async function withPlanFeature(
  app: AppInstance,
  feature: AppFeatureKey,
  register: (scope: AppInstance) => void,
): Promise<void> {
  await app.register(async (scope) => {
    scope.decorate('planFeatureDefault', feature)
    register(scope)
  })
}
