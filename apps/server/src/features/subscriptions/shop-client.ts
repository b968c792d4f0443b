import { AppError } from '../../http/app-error.ts'
import { type AdminClient, type AdminClientOptions, createAdminClient } from '../../platform/admin-client.ts'
import type { ShopRow } from '../shops/repo.ts'

export type ShopClientOptions = {
  adminOrigin: (shop: string) => string
  fetch?: typeof fetch
  /** Retry knobs of the per-shop Admin clients (tests shorten them). */
  client?: Pick<AdminClientOptions, 'maxRetries' | 'retryBaseMs' | 'sleep'>
}

export type ShopClients = { clientFor(shop: ShopRow): AdminClient }

/**
 * One Admin client per shop, kept between requests so its bucket estimate (pacing) carries
 * over. A shop without a token cannot be called: the merchant has to reopen the app.
 */
export function createShopClients(opts: ShopClientOptions): ShopClients {
  const clients = new Map<string, { token: string; client: AdminClient }>()
  return {
    clientFor(shop) {
      if (!shop.access_token) {
        throw new AppError(
          'PLATFORM_UNAVAILABLE',
          'ストアのアクセストークンがありません。アプリを開き直してください。',
        )
      }
      const cached = clients.get(shop.id)
      // A re-install brings a new token: the cached client would be refused.
      if (cached && cached.token === shop.access_token) return cached.client
      const client = createAdminClient({
        shop: shop.domain,
        accessToken: shop.access_token,
        origin: opts.adminOrigin(shop.domain),
        fetch: opts.fetch,
        ...opts.client,
      })
      clients.set(shop.id, { token: shop.access_token, client })
      return client
    },
  }
}

const shared = new WeakMap<object, ShopClients>()

/**
 * The clients every request handler of one app shares (keyed by the app's platform options
 * object), so the detail page and the contract actions pace against the same bucket estimate.
 */
export function sharedShopClients(platform: {
  adminOrigin: (shop: string) => string
  fetch?: typeof fetch
  clientRetry?: ShopClientOptions['client']
}): ShopClients {
  let clients = shared.get(platform)
  if (!clients) {
    clients = createShopClients({
      adminOrigin: platform.adminOrigin,
      fetch: platform.fetch,
      client: platform.clientRetry,
    })
    shared.set(platform, clients)
  }
  return clients
}
