import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ShopRow } from '../platform/shops-repo.ts'
import { unauthenticated } from './app-error.ts'
import { verifyAppProxy } from './app-proxy.ts'
import { isShopDomain, verifyExtensionToken, verifySessionToken } from './session-token.ts'

declare module 'fastify' {
  interface FastifyRequest {
    shop: ShopRow
    /** `checkout` routes: the buyer's customer GID when logged in (the token's `sub`), else null. */
    checkoutCustomer: string | null
    /** `proxy` routes: the signed-in customer's numeric id (`logged_in_customer_id`), else null. */
    proxyCustomer: string | null
  }
  interface FastifyInstance {
    /** Drops a shop from the auth cache (after an uninstall or a redact). */
    forgetShop(domain: string): void
  }
}

export type AuthOptions = {
  /** The installed shop of a domain (null: none, or uninstalled). */
  findShop: (domain: string) => Promise<ShopRow | null>
  apiKey?: string
  apiSecret?: string
  shopCacheMs?: number
  /** Installs a shop that has no token yet from its verified session token (token exchange). */
  install?: (shop: string, sessionToken: string) => Promise<ShopRow>
}

export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest()
}

/** The header of the app's own signed calls (`npm run billing` → /internal/billing/run). */
export const INTERNAL_HMAC_HEADER = 'x-teiki-hmac-sha256'

/** Where each signed kind of route carries its signature (base64 HMAC-SHA256, 32 bytes). */
const SIGNATURE_HEADERS = { webhook: 'x-shopify-hmac-sha256', internal: INTERNAL_HMAC_HEADER } as const
const isSignature = (value: string | string[] | undefined): boolean =>
  typeof value === 'string' && /^[A-Za-z0-9+/]{43}=$/.test(value)

// Compared against when the shop is unknown, so a wrong shop and a wrong secret take the
// same time.
const DUMMY_HASH = hashSecret('not-a-secret')

/**
 * Authenticates every request by its route's `auth` (route-auth.ts). `shop` routes (spec
 * section 6): a bearer session token from App Bridge, or the `shop` + `secret` query
 * parameters of the standalone page. The shop row is cached briefly because every request
 * needs it and it rarely changes.
 */
export function registerAuth(app: FastifyInstance, opts: AuthOptions): void {
  const cacheMs = opts.shopCacheMs ?? 5_000
  const cache = new Map<string, { shop: ShopRow | null; until: number }>()

  async function loadShop(domain: string): Promise<ShopRow | null> {
    const now = Date.now()
    const hit = cache.get(domain)
    if (hit && hit.until > now) return hit.shop
    const shop = await opts.findShop(domain)
    if (cache.size > 10_000) cache.clear()
    cache.set(domain, { shop, until: now + cacheMs })
    return shop
  }

  // Per process: another instance keeps an uninstalled shop at most `cacheMs` longer.
  app.decorate('forgetShop', (domain: string) => {
    cache.delete(domain)
  })
  app.decorateRequest('shop', null as unknown as ShopRow)
  app.decorateRequest('checkoutCustomer', null)
  app.decorateRequest('proxyCustomer', null)
  // The decision is the matched route's (route-auth.ts), so no spelling of a path (%61pp-admin,
  // //app-admin, /APP-ADMIN) reaches a handler unauthenticated: a path either matches a route,
  // and gets that route's check, or matches none and gets the not-found answer.
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (request.is404) return
    const auth = request.routeOptions.config.auth
    if (auth === 'public') return
    if (auth === 'shop') {
      request.shop = await authenticate(request)
      return
    }
    if (auth === 'pixel') {
      // The route compares the key (features/traffic/pixel-auth.ts); one without both is turned away here.
      const query = request.query as Record<string, unknown> | undefined
      if (typeof query?.shop !== 'string' || typeof query?.key !== 'string' || !isShopDomain(query.shop))
        throw unauthenticated('ピクセルの認証情報がありません。')
      return
    }
    if (auth === 'checkout') {
      request.shop = await authenticateExtension(request)
      return
    }
    if (auth === 'proxy') {
      request.shop = await authenticateProxy(request)
      return
    }
    if (auth === 'webhook' || auth === 'internal') {
      // The handler verifies the signature over the raw body; an unsigned request is turned
      // away here, before its body is read.
      if (!isSignature(request.headers[SIGNATURE_HEADERS[auth]]))
        throw unauthenticated('署名を確認できませんでした。')
      return
    }
    throw unauthenticated()
  })

  /** A checkout extension's bearer token, for an installed shop; the buyer (if logged in) kept on the request. */
  async function authenticateExtension(request: FastifyRequest): Promise<ShopRow> {
    const token = /^bearer +(\S+)$/i.exec(request.headers.authorization ?? '')?.[1]
    const verified =
      token && opts.apiKey && opts.apiSecret
        ? verifyExtensionToken(token, {
            apiKey: opts.apiKey,
            apiSecret: opts.apiSecret,
            nowSeconds: Math.floor(Date.now() / 1000),
          })
        : null
    if (!verified) throw unauthenticated('チェックアウトのセッショントークンが不正です。')
    const shop = await loadShop(verified.shop)
    if (!shop?.access_token) throw unauthenticated('このストアにはアプリがインストールされていません。')
    request.checkoutCustomer = verified.customer
    return shop
  }

  /** An app proxy request signed by the platform, for an installed shop; its customer kept on the request. */
  async function authenticateProxy(request: FastifyRequest): Promise<ShopRow> {
    const verified = opts.apiSecret
      ? verifyAppProxy((request.query ?? {}) as Record<string, unknown>, {
          apiSecret: opts.apiSecret,
          nowSeconds: Math.floor(Date.now() / 1000),
        })
      : null
    if (!verified)
      throw unauthenticated(
        'ストアからのリクエストであることを確認できませんでした。ページを開き直してください。',
      )
    const shop = await loadShop(verified.shop)
    if (!shop?.access_token) throw unauthenticated('このストアにはアプリがインストールされていません。')
    request.proxyCustomer = verified.customerId
    return shop
  }

  async function authenticate(request: FastifyRequest): Promise<ShopRow> {
    const authorization = request.headers.authorization
    if (authorization !== undefined && /^bearer\b/i.test(authorization)) {
      // A bearer header without a well-formed token is refused, not passed over for the query secret.
      const token = /^bearer +(\S+)$/i.exec(authorization)?.[1]
      if (!token || !opts.apiKey || !opts.apiSecret)
        throw unauthenticated('セッショントークンが不正です。ページを再読み込みしてください。')
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
    // Not a shop domain: no lookup (and no cache entry) for it.
    if (!isShopDomain(domain)) throw unauthenticated('ストアまたはシークレットが正しくありません。')
    const shop = await loadShop(domain)
    const given = hashSecret(secret)
    const ok = timingSafeEqual(given, shop?.secret_hash ?? DUMMY_HASH)
    if (!shop?.secret_hash || !ok) throw unauthenticated('ストアまたはシークレットが正しくありません。')
    return shop
  }
}
