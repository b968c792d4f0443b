import { catalogRoutes } from './catalog.ts'
import { customerRoutes } from './customers.ts'
import type { AnswerOf, InputOf, RouteTable } from './route.ts'
import { shopRoutes } from './shop.ts'
import { subscriptionRoutes } from './subscriptions.ts'

export * from './route.ts'

/**
 * Every `/app-admin` route the merchant's screens can call, once: its method and path (the key),
 * the schemas the server validates its input and serializes its answer with, and so the types
 * the web app's `api()` infers. `apps/server/test/route-table.test.ts` checks each is registered
 * as written.
 */
export const appAdminRoutes = {
  ...subscriptionRoutes,
  ...catalogRoutes,
  ...customerRoutes,
  ...shopRoutes,
} satisfies RouteTable

export type AppAdminRoutes = typeof appAdminRoutes
export type RouteKey = keyof AppAdminRoutes
/** Routes that answer JSON (for `api`); the others answer a file (for `download`). */
export type JsonRouteKey = { [K in RouteKey]: AppAdminRoutes[K] extends { file: true } ? never : K }[RouteKey]
export type FileRouteKey = Exclude<RouteKey, JsonRouteKey>
export type RouteInput<K extends RouteKey> = InputOf<AppAdminRoutes, K>
export type RouteAnswer<K extends RouteKey> = AnswerOf<AppAdminRoutes, K>
