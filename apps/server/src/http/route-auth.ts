import type { FastifyInstance, RouteOptions } from 'fastify'

/**
 * How a route is authenticated, declared in its route config (`config: { auth }`) and read by
 * the onRequest hook from the route Fastify matched (http/auth.ts), never from the raw URL:
 *
 * - `shop`: a merchant's request (session token or `shop` + `secret`); every `/app-admin/…`
 *   route unless it says otherwise.
 * - `public`: no credentials (health, the OpenAPI document, the built web files).
 * - `webhook`: the platform's signed deliveries (`X-Shopify-Hmac-SHA256` over the raw body).
 * - `internal`: the app's own tools (`npm run billing`), signed with the client secret.
 * - `pixel`: the web pixel's hits (`POST /pixel/events?shop=…&key=…`): the shop's pixel key,
 *   compared in constant time by the route (features/traffic/pixel-auth.ts).
 * - `checkout`: a checkout UI extension's request (the thank-you block): the session token the
 *   platform signs for the buyer's checkout (`verifyExtensionToken`); it names a shop, never a
 *   merchant, and is refused by every `shop` route.
 * - `proxy`: a storefront request through the platform's app proxy (`/apps/teiki/…` → `/proxy/…`):
 *   its signature over the query (`http/app-proxy.ts`); the signed-in customer, if any, with it.
 */
export const ROUTE_AUTH = ['shop', 'public', 'webhook', 'internal', 'pixel', 'checkout', 'proxy'] as const
export type RouteAuth = (typeof ROUTE_AUTH)[number]

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth
  }
  interface FastifyInstance {
    /** The auth of routes registered in this scope that declare none (see `withRouteAuth`). */
    routeAuthDefault?: RouteAuth
  }
}

const isRouteAuth = (value: unknown): value is RouteAuth => ROUTE_AUTH.includes(value as RouteAuth)

/**
 * Fails closed: every route must end up with an auth decision, or registering it throws (and
 * with it `buildApp`/`ready`). `/app-admin/…` routes default to `shop`; routes of a scope made
 * by `withRouteAuth` default to that scope's decision; anything else must say.
 */
export function requireRouteAuth(app: FastifyInstance): void {
  app.addHook('onRoute', function decide(this: FastifyInstance, route: RouteOptions) {
    route.config ??= {}
    const config = route.config as { auth?: unknown }
    if (config.auth === undefined) {
      config.auth = route.url.startsWith('/app-admin/') ? 'shop' : this.routeAuthDefault
    }
    if (!isRouteAuth(config.auth)) {
      const methods = [route.method].flat().join(',')
      throw new Error(
        `route ${methods} ${route.url} has no auth decision: add config: { auth: ${ROUTE_AUTH.map((a) => `'${a}'`).join(' | ')} }`,
      )
    }
  })
}

/**
 * Registers `plugin` in a scope whose routes default to `auth`: for third-party plugins that
 * register routes without a way to pass their config (the static files are `public`).
 */
export async function withRouteAuth(
  app: FastifyInstance,
  auth: RouteAuth,
  plugin: (scope: FastifyInstance) => Promise<void>,
): Promise<void> {
  await app.register(async (scope) => {
    scope.decorate('routeAuthDefault', auth)
    await plugin(scope)
  })
}
