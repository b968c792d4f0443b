import { createHmac, timingSafeEqual } from 'node:crypto'
import { isShopDomain } from './session-token.ts'

/**
 * The platform's app proxy (shopify.dev, "Authenticate app proxies"): a storefront request to
 * `/apps/teiki/…` reaches the app with `shop`, `logged_in_customer_id` (empty when nobody is
 * signed in), `path_prefix`, `timestamp` and `signature`: hex HMAC-SHA256 with the app's secret
 * over the other query parameters sorted by name, each `key=value` (several values joined by
 * `,`), concatenated without separators. Nothing of a proxy request is trusted before this.
 */

/** How old a proxy request's timestamp may be (the platform stamps each one as it forwards it). */
export const APP_PROXY_MAX_AGE_S = 300

type Query = Record<string, unknown>

/** The signature the platform computes for these parameters (all but `signature`). */
export function appProxySignature(query: Query, apiSecret: string): string {
  const message = Object.keys(query)
    .filter((key) => key !== 'signature')
    .sort()
    .map((key) => {
      const value = query[key]
      return `${key}=${Array.isArray(value) ? value.map(String).join(',') : String(value ?? '')}`
    })
    .join('')
  return createHmac('sha256', apiSecret).update(message).digest('hex')
}

/**
 * The shop and the signed-in customer (a numeric id, or null for nobody) of a proxy request
 * whose signature is the platform's and whose timestamp is within APP_PROXY_MAX_AGE_S of now;
 * null for anything else (no signature, another secret, a changed parameter, an old or future
 * timestamp, a shop that is not a shop, a customer id that is not a number).
 */
export function verifyAppProxy(
  query: Query,
  opts: { apiSecret: string; nowSeconds: number },
): { shop: string; customerId: string | null } | null {
  const { signature, shop, timestamp, logged_in_customer_id: customer } = query
  if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature)) return null
  const expected = Buffer.from(appProxySignature(query, opts.apiSecret), 'hex')
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return null
  if (typeof shop !== 'string' || !isShopDomain(shop)) return null
  if (typeof timestamp !== 'string' || !/^\d{1,12}$/.test(timestamp)) return null
  if (Math.abs(opts.nowSeconds - Number(timestamp)) > APP_PROXY_MAX_AGE_S) return null
  if (customer !== undefined && (typeof customer !== 'string' || !/^\d{0,20}$/.test(customer))) return null
  return { shop, customerId: customer ? customer : null }
}
