import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto'

/** Session-token claims (shopify.dev, "Session tokens"). */
export type SessionClaims = {
  iss: string
  dest: string
  aud: string
  sub: string
  exp: number
  nbf: number
  iat: number
  jti: string
  sid: string
}

const b64url = (s: string | Buffer) => Buffer.from(s).toString('base64url')
const sign = (input: string, secret: string) => createHmac('sha256', secret).update(input).digest('base64url')

export type MintOptions = {
  apiKey: string
  apiSecret: string
  userId?: string
  lifetimeSec?: number
  now?: number
}

/** What App Bridge would hand the embedded app: HS256 over the claims, keyed with the client secret. */
export function mintSessionToken(shop: string, opts: MintOptions): string {
  const now = Math.floor((opts.now ?? Date.now()) / 1000)
  const claims: SessionClaims = {
    iss: `https://${shop}/admin`,
    dest: `https://${shop}`,
    aud: opts.apiKey,
    sub: opts.userId ?? '1',
    exp: now + (opts.lifetimeSec ?? 60),
    nbf: now,
    iat: now,
    jti: randomUUID(),
    sid: randomUUID(),
  }
  return signHs256(claims, opts.apiSecret)
}

function signHs256(claims: object, secret: string): string {
  const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))
  const body = b64url(JSON.stringify(claims))
  return `${head}.${body}.${sign(`${head}.${body}`, secret)}`
}

/**
 * The session token the platform gives a checkout UI extension (`sessionToken.get()`): HS256
 * with the app's secret, `dest` the bare shop domain, 5 minutes; no `sub` (nobody is logged in
 * to the emulated store) and no `iss`.
 */
export function mintCheckoutToken(shop: string, opts: { apiKey: string; apiSecret: string }): string {
  const now = Math.floor(Date.now() / 1000)
  return signHs256(
    { dest: shop, aud: opts.apiKey, exp: now + 300, nbf: now, iat: now, jti: randomUUID() },
    opts.apiSecret,
  )
}

const TOLERANCE_SEC = 10

/** The shop domain the token was issued for, or why it is not acceptable. */
export function verifySessionToken(
  token: string,
  opts: { apiKey: string; apiSecret: string; now?: number },
): { shop: string } | { error: string } {
  const parts = token.split('.')
  if (parts.length !== 3) return { error: 'malformed token' }
  const [head, body, signature] = parts as [string, string, string]
  let header: { alg?: string }
  let claims: Partial<SessionClaims>
  try {
    header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8'))
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'))
  } catch {
    return { error: 'malformed token' }
  }
  if (header.alg !== 'HS256') return { error: 'unsupported algorithm' }
  const expected = Buffer.from(sign(`${head}.${body}`, opts.apiSecret))
  const given = Buffer.from(signature)
  if (expected.length !== given.length || !timingSafeEqual(expected, given))
    return { error: 'signature mismatch' }
  const now = Math.floor((opts.now ?? Date.now()) / 1000)
  if (claims.aud !== opts.apiKey) return { error: 'audience mismatch' }
  if (typeof claims.exp !== 'number' || claims.exp + TOLERANCE_SEC < now) return { error: 'token expired' }
  if (typeof claims.nbf === 'number' && claims.nbf - TOLERANCE_SEC > now)
    return { error: 'token not yet valid' }
  const m = /^https:\/\/([a-z0-9][a-z0-9-]*\.myshopify\.com)$/.exec(claims.dest ?? '')
  if (!m) return { error: 'invalid dest' }
  return { shop: m[1]! }
}
