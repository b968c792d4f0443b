import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Runtime } from './context.ts'
import type { ShopState } from './records.ts'
import type { Store } from './store.ts'

// The platform's own pages the emulator serves (not a shop's storefront): the app charge's
// approval, the card issuer's 3-D Secure page, the theme editor. Plain HTML forms.

/** A page with `title` as its heading; `body` is HTML, `width` its column's. */
export const platformPage = (title: string, body: string, width = '32rem') => `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><title>${title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: sans-serif; max-width: ${width}; margin: 3rem auto; line-height: 1.6">
<h1 style="font-size: 1.3rem">${title}</h1>
${body}
</body></html>`

/** Sends a page, never cached, sending no referrer (some of their URLs carry a token). */
export function sendPage(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
  })
  res.end(html)
}

/** The match of `path` on the request's path when it is a GET or a POST (a page or its form), else null. */
export function matchPage(req: IncomingMessage, path: RegExp): RegExpExecArray | null {
  if (req.method !== 'GET' && req.method !== 'POST') return null
  return path.exec((req.url ?? '/').split('?')[0]!)
}

/** A page's handler: true when the request was one of its paths (it then answered it). */
export type PageHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  deps: { store: Store; runtime: Runtime },
) => Promise<boolean>

/**
 * A shop's page (its domain the path's first group, URL-encoded): the match and the shop, which
 * is undefined when the emulator has no such shop; null when the request is not for `path`.
 */
export function matchShopPage(req: IncomingMessage, path: RegExp, store: Store) {
  const match = matchPage(req, path)
  return match && { match, shop: store.shop(decodeURIComponent(match[1]!)) as ShopState | undefined }
}
