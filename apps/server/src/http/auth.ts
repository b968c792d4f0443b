import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Db } from '../db/pool.ts'
import { findInstalledShop, type ShopRow } from '../features/shops/repo.ts'
import { unauthenticated } from './app-error.ts'
import { verifySessionToken } from './session-token.ts'

declare module 'fastify' {
  interface FastifyRequest {
    shop: ShopRow
  }
  interface FastifyInstance {
    /** Drops a shop from the auth cache (after an uninstall or a redact). */
    forgetShop(domain: string): void
  }
}

export type AuthOptions = {
  db: Db
  apiKey?: string
  apiSecret?: string
  shopCacheMs?: number
  /** Installs a shop that has no token yet from its verified session token (token exchange). */
  install?: (shop: string, sessionToken: string) => Promise<ShopRow>
}

export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest()
}

// Compared against when the shop is unknown, so a wrong shop and a wrong secret take the
// same time.
const DUMMY_HASH = hashSecret('not-a-secret')

/**
 * Authenticates every /app-admin request (spec section 6): a bearer session token from
 * App Bridge, or the `shop` + `secret` query parameters of the standalone page. The shop
 * row is cached briefly because every request needs it and it rarely changes.
 */
export function registerAuth(app: FastifyInstance, opts: AuthOptions): void {
  const cacheMs = opts.shopCacheMs ?? 5_000
  const cache = new Map<string, { shop: ShopRow | null; until: number }>()

  async function loadShop(domain: string): Promise<ShopRow | null> {
    const now = Date.now()
    const hit = cache.get(domain)
    if (hit && hit.until > now) return hit.shop
    const shop = await findInstalledShop(opts.db, domain)
    if (cache.size > 10_000) cache.clear()
    cache.set(domain, { shop, until: now + cacheMs })
    return shop
  }

  // Per process: another instance keeps an uninstalled shop at most `cacheMs` longer.
  app.decorate('forgetShop', (domain: string) => {
    cache.delete(domain)
  })
  app.decorateRequest('shop', null as unknown as ShopRow)
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (!request.url.startsWith('/app-admin/') || request.url.startsWith('/app-admin/openapi.json')) return
    request.shop = await authenticate(request)
  })

  async function authenticate(request: FastifyRequest): Promise<ShopRow> {
    const authorization = request.headers.authorization
    if (authorization?.startsWith('Bearer ')) {
      if (!opts.apiKey || !opts.apiSecret) throw unauthenticated()
      const token = authorization.slice(7).trim()
      const verified = verifySessionToken(token, {
        apiKey: opts.apiKey,
        apiSecret: opts.apiSecret,
        nowSeconds: Math.floor(Date.now() / 1000),
      })
      if (!verified)
        throw unauthenticated(
          'セッションの有効期限が切れたか、トークンが不正です。ページを再読み込みしてください。',
        )
      const shop = await loadShop(verified.shop)
      if (shop?.access_token) return shop
      // A valid session token of a shop without a token is the platform's managed install:
      // only then is the platform called, never for an unverified token.
      if (!opts.install) throw unauthenticated('このストアにはアプリがインストールされていません。')
      const installed = await opts.install(verified.shop, token)
      cache.set(verified.shop, { shop: installed, until: Date.now() + cacheMs })
      return installed
    }

    const query = request.query as Record<string, unknown> | undefined
    const domain = typeof query?.shop === 'string' ? query.shop : undefined
    const secret = typeof query?.secret === 'string' ? query.secret : undefined
    if (!domain || !secret)
      throw unauthenticated('認証情報がありません。ストア管理画面からアプリを開いてください。')
    const shop = await loadShop(domain)
    const given = hashSecret(secret)
    const ok = timingSafeEqual(given, shop?.secret_hash ?? DUMMY_HASH)
    if (!shop?.secret_hash || !ok) throw unauthenticated('ストアまたはシークレットが正しくありません。')
    return shop
  }
}
