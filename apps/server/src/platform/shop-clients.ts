import { AppError } from '../http/app-error.ts'
import { currentCallContext, type LaneOptions } from '../http/request-context.ts'
import {
  type AdminClient,
  type AdminClientOptions,
  createAdminClient,
  type PacedAdminClient,
} from './admin-client.ts'
import type { ShopRow } from './shops-repo.ts'

export type ShopClientOptions = {
  adminOrigin: (shop: string) => string
  fetch?: typeof fetch
  /** Retry knobs of the per-shop Admin clients (tests shorten them). */
  client?: Pick<AdminClientOptions, 'maxRetries' | 'retryBaseMs' | 'sleep'>
  /** The clock and queue bound of the merchant lane (http/request-context.ts). */
  lanes?: Pick<LaneOptions, 'now' | 'maxInteractiveWaiting'>
}

export type ShopClients = { clientFor(shop: ShopRow): AdminClient }

/** The app's own implementation: paced clients, and how many it holds (tests, metrics). */
export type PacedShopClients = {
  clientFor(shop: ShopRow): PacedAdminClient
  /** Clients held now; idle ones are dropped after IDLE_CLIENT_MS. */
  readonly size: number
}

/**
 * A client idle this long is dropped, so a server that serves many shops holds clients only
 * for the ones in use. By then its bucket estimate says nothing (a bucket refills completely
 * in 20 s on every plan) and a new client learns the bucket from its first answer; what is
 * lost is the per-operation costs it learnt, worth at most one unpaced call each.
 */
export const IDLE_CLIENT_MS = 5 * 60_000
const SWEEP_EVERY_MS = 30_000

/**
 * One Admin client per shop, kept between requests so its bucket estimate (pacing) carries
 * over. A shop without a token cannot be called: the merchant has to reopen the app. Each
 * client reads the request context at each call: a merchant's request is interactive, the
 * rest (billing, jobs, sync, webhooks) background.
 */
export function createShopClients(opts: ShopClientOptions): PacedShopClients {
  const clients = new Map<string, { token: string; client: PacedAdminClient }>()
  const now = opts.lanes?.now ?? Date.now
  let lastSweep = now()

  function sweep(t: number): void {
    if (t - lastSweep < SWEEP_EVERY_MS) return
    lastSweep = t
    for (const [id, { client }] of clients) {
      const idleSince = client.idleSince()
      if (idleSince !== null && t - idleSince >= IDLE_CLIENT_MS) clients.delete(id)
    }
  }

  return {
    clientFor(shop) {
      if (!shop.access_token) {
        throw new AppError(
          'PLATFORM_UNAVAILABLE',
          'ストアのアクセストークンがありません。アプリを開き直してください。',
        )
      }
      sweep(now())
      const cached = clients.get(shop.id)
      // A re-install brings a new token: the cached client would be refused.
      if (cached && cached.token === shop.access_token) return cached.client
      const client = createAdminClient({
        shop: shop.domain,
        accessToken: shop.access_token,
        origin: opts.adminOrigin(shop.domain),
        fetch: opts.fetch,
        callContext: currentCallContext,
        now,
        maxInteractiveWaiting: opts.lanes?.maxInteractiveWaiting,
        ...opts.client,
      })
      clients.set(shop.id, { token: shop.access_token, client })
      return client
    },
    get size() {
      return clients.size
    },
  }
}

/**
 * The app's clients from its platform options: buildApp makes one set and hands it to every
 * part of the app (app.shopClients), so the request handlers, the billing engine and its jobs,
 * the webhooks and the syncs pace against the same bucket estimate of a shop, in their lanes.
 */
export function shopClientsFor(platform: {
  adminOrigin: (shop: string) => string
  fetch?: typeof fetch
  clientRetry?: ShopClientOptions['client']
  lanes?: ShopClientOptions['lanes']
}): PacedShopClients {
  return createShopClients({
    adminOrigin: platform.adminOrigin,
    fetch: platform.fetch,
    client: platform.clientRetry,
    lanes: platform.lanes,
  })
}
