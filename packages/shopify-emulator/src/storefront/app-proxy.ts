import { createHmac } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { readBody } from '../http.ts'
import { parseTomlTables } from '../web-pixel-extension.ts'
import { type CartRequest, sendHtml } from './cart-request.ts'
import { deployedAppUrl } from './checkout-ui.ts'

/**
 * The platform's app proxy in the emulated store (shopify.dev, "App proxies"): a request to
 * `/apps/<subpath>/…` is forwarded to the app's proxy URL + the rest of the path, its query
 * kept except what the platform sets itself — `shop`, `logged_in_customer_id` (the signed-in
 * customer, empty for nobody), `path_prefix`, `timestamp` — and `signature`, the hex
 * HMAC-SHA256 with the app's secret over those sorted `key=value` pairs. An answer of type
 * `application/liquid` is shown inside the store's layout; anything else is passed on as it is.
 * The proxy is the repository's `shopify.app.toml` [app_proxy]; its host is where the app is
 * deployed (the URL its webhooks go to), as the deployed config's would be.
 */

const DEFAULT_APP_TOML = resolve(import.meta.dirname, '../../../../shopify.app.toml')

export type AppProxyConfig = { prefix: string; subpath: string; path: string }

export function loadAppProxyConfig(file = DEFAULT_APP_TOML): AppProxyConfig | null {
  // Only the [app_proxy] table is read (the rest of the file has multi-line arrays the
  // emulator's small TOML reader does not take).
  const section = /^\[app_proxy\][^\n]*\n((?:(?!\s*\[)[^\n]*\n?)*)/m.exec(readFileSync(file, 'utf8'))
  if (!section) return null
  const table = parseTomlTables(`[app_proxy]\n${section[1]}`).get('app_proxy')
  if (!table || typeof table.url !== 'string' || typeof table.subpath !== 'string') return null
  return {
    prefix: typeof table.prefix === 'string' ? table.prefix : 'apps',
    subpath: table.subpath,
    path: new URL(table.url).pathname.replace(/\/$/, ''),
  }
}

/** The proxy's `signature`: hex HMAC-SHA256 with the app secret over the other parameters, sorted `key=value`, joined. */
export function appProxySignature(query: Record<string, string>, apiSecret: string): string {
  const message = Object.keys(query)
    .filter((k) => k !== 'signature')
    .sort()
    .map((k) => `${k}=${query[k]}`)
    .join('')
  return createHmac('sha256', apiSecret).update(message).digest('hex')
}

/** The parameters the platform sets; a shopper's own values for them are dropped. */
const PLATFORM_PARAMS = new Set(['shop', 'logged_in_customer_id', 'path_prefix', 'timestamp', 'signature'])

/** Forwards a request under `/apps/<subpath>` to the app; false for any other path. */
export async function handleAppProxy(r: CartRequest, url: URL, customerId: number | null): Promise<boolean> {
  const config = r.ctx.runtime.appProxy
  if (!config) return false
  const prefix = `/${config.prefix}/${config.subpath}`
  if (r.path !== prefix && !r.path.startsWith(`${prefix}/`)) return false
  const appUrl = deployedAppUrl(r.ctx)
  if (!appUrl) {
    sendHtml(r.res, 502, r.page('エラー', '<p>アプリに接続できませんでした。</p>'), r.cookie)
    return true
  }
  const query: Record<string, string> = {}
  for (const [key, value] of url.searchParams)
    if (!PLATFORM_PARAMS.has(key)) query[key] = query[key] ? `${query[key]},${value}` : value
  Object.assign(query, {
    shop: r.ctx.shop.info.myshopifyDomain,
    logged_in_customer_id: customerId === null ? '' : String(customerId),
    path_prefix: prefix,
    timestamp: String(Math.floor(r.ctx.now() / 1000)),
  })
  query.signature = r.ctx.runtime.signAppProxy(query)
  const target = `${appUrl}${config.path}${r.path.slice(prefix.length)}?${new URLSearchParams(query)}`
  const method = r.req.method ?? 'GET'
  const answer = await fetch(target, {
    method,
    headers: { 'content-type': r.req.headers['content-type'] ?? 'text/plain' },
    ...(method === 'GET' || method === 'HEAD' ? {} : { body: await readBody(r.req) }),
  }).catch(() => null)
  if (!answer) {
    sendHtml(r.res, 502, r.page('エラー', '<p>アプリに接続できませんでした。</p>'), r.cookie)
    return true
  }
  const type = answer.headers.get('content-type') ?? 'text/plain'
  const body = await answer.text()
  if (type.startsWith('application/liquid')) {
    sendHtml(r.res, answer.status, r.page('マイページ', body), r.cookie)
    return true
  }
  r.res.writeHead(answer.status, {
    'content-type': type,
    'cache-control': 'no-store',
    'set-cookie': r.cookie,
  })
  r.res.end(body)
  return true
}
