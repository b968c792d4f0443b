import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

/**
 * `no-referrer`: the app's page URLs carry credentials (`secret` of the standalone login, and
 * the admin's `host`, `hmac`, `id_token`, `session` parameters), so no request the page makes
 * may name it: not cross-origin (App Bridge's CDN, product images) and not same-origin either,
 * because reverse proxies write the Referer of every API call into their access logs. Nothing
 * in the app or in App Bridge reads Referer.
 */
export const REFERRER_POLICY = 'no-referrer'

/** Two years; only sent over TLS (a browser ignores it over plain HTTP, and a local run has none). */
export const HSTS = 'max-age=63072000; includeSubDomains'

/** What a response gets when it has no policy of its own (only the SPA document has one). */
const DEFAULT_CSP = "default-src 'none'; frame-ancestors 'none'"

export type SecurityHeaderOptions = {
  /** SHOPIFY_APP_URL: when it is https, the app is served over TLS whatever the socket says. */
  appUrl?: string
}

/**
 * Headers every response carries (API JSON, errors, 404s, the SPA document, built files), set
 * in onSend so the error and not-found paths get them too. HSTS only when the request came
 * over TLS: the socket's own, `X-Forwarded-Proto: https` from a trusted proxy (TRUST_PROXY;
 * Fastify's `request.protocol` ignores the header otherwise), or an https public URL.
 */
export function registerSecurityHeaders(app: FastifyInstance, opts: SecurityHeaderOptions = {}): void {
  // A callback hook, not an async one: no promise per response (the pixel's ingest answers thousands a second).
  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload, done) => {
    setSecurityHeaders(request, reply, opts)
    done(null, payload)
  })
}

/** The headers themselves; also for answers made before any hook runs (`frameworkErrors`). */
export function setSecurityHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  opts: SecurityHeaderOptions,
): void {
  reply.header('x-content-type-options', 'nosniff')
  reply.header('referrer-policy', REFERRER_POLICY)
  if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', DEFAULT_CSP)
  const tls = opts.appUrl?.startsWith('https://') || request.protocol === 'https'
  if (tls) reply.header('strict-transport-security', HSTS)
}
