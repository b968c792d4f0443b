import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { isShopDomain } from './session-token.ts'

/** Where App Bridge is loaded from: the platform serves it, and it must be the page's first script. */
export const APP_BRIDGE_SCRIPT = 'https://cdn.shopify.com/shopifycloud/app-bridge.js'

/**
 * The CSP `frame-ancestors` of an HTML page: inside the store admin only the shop's own admin
 * may frame the app (https://{shop} and https://admin.shopify.com, the platform's iframe
 * protection rule); a page asked for without a valid shop may not be framed at all. `shop`
 * comes from an unauthenticated query parameter: only a `*.myshopify.com` domain (one DNS
 * label) gets into the header, so nothing else can be written into the policy.
 */
export function frameAncestors(shop: string | null | undefined): string {
  return shop && isShopDomain(shop)
    ? `frame-ancestors https://${shop} https://admin.shopify.com;`
    : "frame-ancestors 'none';"
}

/**
 * The SPA's index.html as served: embedded in the store admin (`apiKey` given, i.e. running
 * against the real platform), App Bridge's meta tag and script go first in <head>, so the page
 * gets session tokens (`window.shopify.idToken`, used by apps/web/src/app/api.ts). Standalone
 * (the emulator, `?shop=&secret=`), the page is served as built.
 */
export function renderDocument(
  html: string,
  embedded: { apiKey: string } | undefined,
  opts: { sentryDsn?: string } = {},
): string {
  const escapeAttr = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
  // The browser's error reporting DSN (apps/web/src/app/report-error.ts): only when configured.
  const reporting = opts.sentryDsn
    ? `\n    <meta name="teiki-sentry-dsn" content="${escapeAttr(opts.sentryDsn)}" />`
    : ''
  if (!embedded) return reporting ? html.replace(/<head>/i, (head) => `${head}${reporting}`) : html
  const tags = `<meta name="shopify-api-key" content="${escapeAttr(embedded.apiKey)}" />\n    <script src="${APP_BRIDGE_SCRIPT}"></script>`
  return html.replace(/<head>/i, (head) => `${head}\n    ${tags}${reporting}`)
}

/** Serves the SPA document for every client-side route, with its per-shop frame-ancestors. */
export function documentSender(
  webDist: string,
  embedded: { apiKey: string } | undefined,
  opts: { sentryDsn?: string } = {},
) {
  let cached: Promise<string> | null = null
  const load = () => {
    if (!cached) {
      const reading = readFile(join(webDist, 'index.html'), 'utf8').then((html) =>
        renderDocument(html, embedded, opts),
      )
      // A failed read (the build is missing) is tried again on the next request.
      reading.catch(() => {
        if (cached === reading) cached = null
      })
      cached = reading
    }
    return cached
  }
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const shop = (request.query as Record<string, unknown> | undefined)?.shop
    const html = await load()
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', frameAncestors(typeof shop === 'string' ? shop : null))
      .header('cache-control', 'no-store')
      .send(html)
  }
}
