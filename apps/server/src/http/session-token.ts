import { createHmac, timingSafeEqual } from 'node:crypto'

/** Clock tolerance for exp/nbf; the platform's guidance allows at most 10 s. */
const CLOCK_TOLERANCE_S = 10

export type SessionTokenClaims = {
  iss: string
  dest: string
  aud: string
  sub?: string
  exp: number
  nbf: number
}

type VerifyOptions = { apiKey: string; apiSecret: string; nowSeconds: number }

/**
 * The claims of an HS256 JWT signed with the app's secret, for our client id, within its
 * `exp`/`nbf` (±10 s), with a string `dest`; null for anything else (other algorithms,
 * "none" included, a bad signature, another audience, expired or not yet valid). What the
 * platform's session tokens share, whoever they were given to.
 */
function platformClaims(
  token: string,
  opts: VerifyOptions,
): (Record<string, unknown> & { dest: string }) | null {
  const parts = token.split('.')
  if (parts.length !== 3) return null
  const [headerB64, payloadB64, signatureB64] = parts as [string, string, string]
  if (decodeJson(headerB64)?.alg !== 'HS256') return null
  const expected = createHmac('sha256', opts.apiSecret).update(`${headerB64}.${payloadB64}`).digest()
  const given = Buffer.from(signatureB64, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
  const claims = decodeJson(payloadB64)
  if (!claims || typeof claims.exp !== 'number' || typeof claims.dest !== 'string') return null
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud]
  if (!audiences.includes(opts.apiKey)) return null
  if (claims.exp + CLOCK_TOLERANCE_S < opts.nowSeconds) return null
  if (typeof claims.nbf === 'number' && claims.nbf - CLOCK_TOLERANCE_S > opts.nowSeconds) return null
  return claims as Record<string, unknown> & { dest: string }
}

/**
 * Verifies an App Bridge session token and returns the shop domain taken from `dest` (a URL).
 * Null for anything not exactly right (platformClaims), a `dest` that is not a shop, or an
 * `iss` from another shop.
 */
export function verifySessionToken(
  token: string,
  opts: VerifyOptions,
): { shop: string; claims: SessionTokenClaims } | null {
  const claims = platformClaims(token, opts)
  if (!claims) return null
  const shop = shopFromUrl(claims.dest)
  if (!shop) return null
  if (typeof claims.iss === 'string' && shopFromUrl(claims.iss) !== shop) return null
  return { shop, claims: claims as unknown as SessionTokenClaims }
}

/**
 * Verifies a checkout UI extension's session token (`sessionToken.get()` in the thank-you
 * block): the same signature and times as the admin's, but its `dest` is the bare shop domain
 * (`shop.myshopify.com`, no scheme) and it carries no admin `iss`; `sub` is the buyer's customer
 * GID when logged in. An admin token (its `dest` is a URL) is not one, and an extension token is
 * never accepted by `verifySessionToken` (a buyer is not a merchant). Null for anything not right.
 */
export function verifyExtensionToken(
  token: string,
  opts: VerifyOptions,
): { shop: string; customer: string | null } | null {
  const claims = platformClaims(token, opts)
  if (!claims || !isShopDomain(claims.dest) || claims.iss !== undefined) return null
  const customer =
    typeof claims.sub === 'string' && /^gid:\/\/shopify\/Customer\/\d+$/.test(claims.sub) ? claims.sub : null
  return { shop: claims.dest, customer }
}

/** Signs a session token the way the platform does; used by tests and the local tools. */
export function signSessionToken(claims: Record<string, unknown>, apiSecret: string, alg = 'HS256'): string {
  const header = Buffer.from(JSON.stringify({ alg, typ: 'JWT' })).toString('base64url')
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url')
  const signature = createHmac('sha256', apiSecret).update(`${header}.${payload}`).digest('base64url')
  return `${header}.${payload}.${signature}`
}

// One DNS label (at most 63 characters) under myshopify.com: the platform's shop domains.
const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]{0,62}\.myshopify\.com$/

/** A shop's `*.myshopify.com` domain, lower case and length-limited; anything else is not a shop. */
export function isShopDomain(value: string): boolean {
  return value.length <= 77 && SHOP_DOMAIN.test(value)
}

function shopFromUrl(value: string): string | null {
  try {
    const host = new URL(value).hostname
    return isShopDomain(host) ? host : null
  } catch {
    return null
  }
}

function decodeJson(part: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
    return value && typeof value === 'object' ? value : null
  } catch {
    return null
  }
}
