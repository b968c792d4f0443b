import { readFileSync } from 'node:fs'
import type { ServerResponse } from 'node:http'
import { join } from 'node:path'
import { buildSync } from 'esbuild'
import type { CheckoutUiExtension } from '../checkout-ui-extension.ts'
import type { Context } from '../context.ts'
import type { OrderRecord } from '../records.ts'

/**
 * The app's checkout UI extension on the emulated thank-you page, as the platform runs it
 * (shopify.dev, "Checkout UI extensions"): the extension's own code, bundled as `shopify app
 * deploy` bundles it (esbuild; `@shopify/ui-extensions/checkout` resolved to the sandbox's
 * `extension` and component names, the app's URL built in as TEIKI_APP_URL), runs in a Web
 * Worker with no DOM (checkout-ui/worker-runtime.js); the page draws the components it posts
 * (checkout-ui/host.js). Its `sessionToken.get()` is a JWT the emulator signs with the app's
 * secret, `dest` the bare shop domain, as the platform's checkout tokens are.
 *
 * Kinder than the platform in one way, written in docs/platform-fidelity.md: the block is shown
 * once the app has deployed it; the merchant does not place it in a checkout editor.
 */

const HERE = join(import.meta.dirname, 'checkout-ui')
const HOST = readFileSync(join(HERE, 'host.js'), 'utf8')
const RUNTIME = readFileSync(join(HERE, 'worker-runtime.js'), 'utf8')
const MOUNT_ID = 'checkout-ui-thank-you'

const workers = new Map<string, string>()
/** The sandbox's script: the runtime, then the extension's bundle (built once per app URL). */
export function checkoutUiWorkerScript(ext: CheckoutUiExtension, appUrl: string): string {
  const key = `${ext.dir}|${appUrl}`
  let script = workers.get(key)
  if (script === undefined) {
    const { outputFiles } = buildSync({
      entryPoints: [join(ext.dir, ext.module)],
      bundle: true,
      write: false,
      format: 'iife',
      target: 'es2020',
      logLevel: 'silent',
      charset: 'utf8',
      alias: { '@shopify/ui-extensions/checkout': join(HERE, 'ui-extensions.js') },
      define: { 'process.env.TEIKI_APP_URL': JSON.stringify(appUrl) },
    })
    script = `${RUNTIME}\n${outputFiles[0]!.text}`
    workers.set(key, script)
  }
  return script
}

/** The app's URL as its deployment knows it: where the platform delivers its webhooks. */
export function deployedAppUrl(ctx: Context): string | null {
  const callback = ctx.runtime.webhookCallbackUrl
  if (!callback) return null
  try {
    return new URL(callback).origin
  } catch {
    return null
  }
}

/** The thank-you page's block place and its setup; '' when the app has no block deployed. */
export function thankYouBlockTags(ctx: Context, base: string, order: OrderRecord): string {
  const ext = ctx.runtime.checkoutUiExtension
  const appUrl = deployedAppUrl(ctx)
  if (!ext || !appUrl) return ''
  const setup = {
    mountId: MOUNT_ID,
    target: ext.target,
    apiVersion: '2025-04',
    networkAccess: ext.networkAccess,
    workerUrl: `${base}/checkout-ui/${ext.handle}.js`,
    tokenUrl: `${base}/checkout-ui/session-token`,
    shop: { myshopifyDomain: ctx.shop.info.myshopifyDomain, name: ctx.shop.info.name },
    orderConfirmation: {
      order: { id: `gid://shopify/OrderIdentity/${order.id}` },
      number: String(order.number),
    },
  }
  const json = JSON.stringify(setup).replace(/</g, '\\u003c')
  return `<section id="${MOUNT_ID}" class="checkout-ui-block" aria-live="polite" data-extension="${ext.handle}"></section>
<script type="application/json" id="checkout-ui-setup">${json}</script>
<script src="${base}/checkout-ui/host.js" defer></script>`
}

function sendScript(res: ServerResponse, body: string): void {
  res.writeHead(200, {
    'content-type': 'text/javascript; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  })
  res.end(body)
}

/**
 * Serves the host, the extension's sandbox and the session token; false when `path` is none of
 * them. A token is issued only to a browser that has just completed a checkout of this shop
 * (`checkedOut`), as the platform issues one only inside a checkout.
 */
export function serveCheckoutUi(
  res: ServerResponse,
  ctx: Context,
  path: string,
  checkedOut: boolean,
): boolean {
  const ext = ctx.runtime.checkoutUiExtension
  const appUrl = deployedAppUrl(ctx)
  if (path === '/checkout-ui/host.js') {
    sendScript(res, HOST)
    return true
  }
  if (!ext || !appUrl) return false
  if (path === `/checkout-ui/${ext.handle}.js`) {
    sendScript(res, checkoutUiWorkerScript(ext, appUrl))
    return true
  }
  if (path === '/checkout-ui/session-token') {
    if (!checkedOut) {
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' })
      res.end('no checkout')
      return true
    }
    const token = ctx.runtime.checkoutSessionToken(ctx.shop.info.myshopifyDomain)
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
    res.end(token)
    return true
  }
  return false
}
