import { existsSync, readFileSync } from 'node:fs'
import type { ServerResponse } from 'node:http'
import { join } from 'node:path'
import { buildSync } from 'esbuild'
import type { Context } from '../context.ts'
import type { ShopState, VariantRecord } from '../records.ts'
import { findById } from '../store.ts'
import type { PixelExtension } from '../web-pixel-extension.ts'
import type { Cart } from './cart.ts'
import { type Buyer, type CheckoutResult, checkoutUnitPrice } from './checkout.ts'

/**
 * The app's web pixel running in the emulated store, as the platform runs it (shopify.dev, "Web
 * Pixels API"): once the app has activated its pixel extension on the shop (`webPixelCreate`),
 * every store page loads the web pixels manager (web-pixels/manager.js), which starts the
 * extension in a strict sandbox (a Web Worker: web-pixels/sandbox.js with the extension's code
 * bundled as `shopify app deploy` bundles it, by esbuild) and calls its `register` callback with
 * `analytics`, `browser`, `init` and the `settings` the app created; `analytics.subscribe`
 * then receives the standard events of the page in the platform's shapes: `page_viewed` on
 * every page, `checkout_completed` once per checkout on its thank-you page. Consent: the store
 * shows no consent banner (a Japanese shop's default), so the pixel's `customer_privacy`
 * needs are met, as they are on the platform where no consent is required.
 */

const HERE = join(import.meta.dirname, 'web-pixels')
const MANAGER = readFileSync(join(HERE, 'manager.js'), 'utf8')
const RUNTIME = readFileSync(join(HERE, 'sandbox.js'), 'utf8')

/** The extension's entry, found as Shopify CLI finds it: `src/index.{ts,tsx,js,jsx}`. */
function entryOf(dir: string): string {
  const entry = ['ts', 'tsx', 'js', 'jsx'].map((ext) => join(dir, 'src', `index.${ext}`)).find(existsSync)
  if (!entry) throw new Error(`${dir} has no src/index.{ts,tsx,js,jsx}`)
  return entry
}

const sandboxes = new Map<string, string>()
/** The sandbox's script for the extension in `dir`: the runtime, then the bundled pixel (built once). */
export function sandboxScript(dir: string): string {
  let script = sandboxes.get(dir)
  if (script === undefined) {
    const { outputFiles } = buildSync({
      entryPoints: [entryOf(dir)],
      bundle: true,
      write: false,
      format: 'iife',
      target: 'es2020',
      logLevel: 'silent',
      // The package the platform provides: its `register` hands the callback to `shopify.extend`.
      alias: { '@shopify/web-pixels-extension': join(HERE, 'register.js') },
    })
    const bundle = outputFiles[0]!.text
    script = `${RUNTIME}\n;(function (shopify) {\n${bundle}})(self.__teikiWebPixelShopify)\n`
    sandboxes.set(dir, script)
  }
  return script
}

const money = (amount: number, currencyCode: string) => ({ amount, currencyCode })

function variantOf(shop: ShopState, variant: VariantRecord) {
  const product = findById(shop.products, variant.productId)
  return {
    id: String(variant.id),
    title: variant.title,
    sku: variant.sku || null,
    price: money(variant.price, shop.info.currencyCode),
    image: product?.imageUrl ? { src: product.imageUrl } : null,
    product: {
      id: String(variant.productId),
      title: product?.title ?? '',
      vendor: product?.vendor ?? '',
      type: product?.productType ?? null,
    },
  }
}

/** Each cart line with its variant and its first cycle's price, as the events carry them. */
function linesOf(ctx: Context, cart: Cart) {
  const currency = ctx.shop.info.currencyCode
  return cart.lines.flatMap((line, index) => {
    const variant = findById(ctx.shop.variants, line.variantId)
    if (!variant) return []
    const unit = checkoutUnitPrice(ctx, line)
    return [
      {
        index,
        quantity: line.quantity,
        unit,
        total: unit * line.quantity,
        variant: variantOf(ctx.shop, variant),
        currency,
      },
    ]
  })
}

/** `init.data.cart`: the cart as the page was rendered (null when empty). */
export function pixelCart(ctx: Context, cart: Cart) {
  const lines = linesOf(ctx, cart)
  if (lines.length === 0) return null
  const currency = ctx.shop.info.currencyCode
  return {
    id: cart.token,
    totalQuantity: lines.reduce((n, l) => n + l.quantity, 0),
    cost: {
      totalAmount: money(
        lines.reduce((s, l) => s + l.total, 0),
        currency,
      ),
    },
    lines: lines.map((l) => ({
      quantity: l.quantity,
      cost: { totalAmount: money(l.total, currency) },
      merchandise: l.variant,
    })),
  }
}

function sellingPlanAllocationOf(ctx: Context, planId: number | null) {
  if (planId === null) return null
  for (const group of ctx.shop.sellingPlanGroups) {
    const plan = group.sellingPlans.find((p) => p.id === planId)
    if (plan) return { sellingPlan: { id: `gid://shopify/SellingPlan/${plan.id}`, name: plan.name } }
  }
  return null
}

/** `checkout_completed`'s `data.checkout`: the cart as bought, and the order it made. */
export function pixelCheckout(ctx: Context, cart: Cart, buyer: Buyer, result: CheckoutResult) {
  const currency = ctx.shop.info.currencyCode
  const lines = linesOf(ctx, cart)
  const subtotal = lines.reduce((s, l) => s + l.total, 0)
  return {
    token: cart.token,
    attributes: [],
    currencyCode: currency,
    email: buyer.email,
    phone: buyer.phone,
    lineItems: lines.map((l) => ({
      id: `${cart.token}-${l.index + 1}`,
      quantity: l.quantity,
      title: l.variant.product.title,
      variant: l.variant,
      // "Line item selling plan" (changelog 2024-06-23, "More data in web pixels").
      sellingPlanAllocation: sellingPlanAllocationOf(ctx, cart.lines[l.index]!.sellingPlanId),
    })),
    order: {
      id: String(result.order.id),
      customer: { id: String(result.customer.id), isFirstOrder: result.customer.numberOfOrders <= 1 },
    },
    shippingAddress: {
      city: buyer.city,
      country: 'Japan',
      countryCode: 'JP',
      phone: buyer.phone,
      province: buyer.provinceCode,
      provinceCode: buyer.provinceCode,
      zip: buyer.zip,
    },
    shippingLine: { price: money(result.order.totalPriceSet - subtotal, currency) },
    subtotalPrice: money(subtotal, currency),
    totalPrice: money(result.order.totalPriceSet, currency),
    totalTax: money(0, currency),
  }
}

export type PixelPageEvent = { name: 'page_viewed' | 'checkout_completed'; data: Record<string, unknown> }

/** The page's standard events: `page_viewed` always, and a checkout once when it completed. */
export function pageEvents(checkout: Record<string, unknown> | null): PixelPageEvent[] {
  return [
    { name: 'page_viewed', data: {} },
    ...(checkout ? [{ name: 'checkout_completed' as const, data: { checkout } }] : []),
  ]
}

type HeadInput = {
  ctx: Context
  base: string
  extension: PixelExtension | null
  cart: Cart
  events: PixelPageEvent[]
}

/**
 * The tags a store page carries for the app's pixel: its setup (the settings the app created,
 * the init snapshot and the page's events, as JSON) and the manager; '' when the app has no
 * pixel on the shop (no `webPixelCreate`, or deleted) or has deployed no extension.
 */
export function webPixelsHead({ ctx, base, extension, cart, events }: HeadInput): string {
  const pixel = ctx.shop.extra?.webPixel
  if (!pixel || !extension) return ''
  const shop = ctx.shop.info
  const setup = {
    pixel: { id: String(pixel.id), settings: pixel.settings, runtimeContext: 'strict' },
    sandboxUrl: `${base}/web-pixels/${pixel.id}/sandbox.js`,
    customerPrivacy: {
      analyticsProcessingAllowed: true,
      marketingAllowed: true,
      preferencesProcessingAllowed: true,
      saleOfDataAllowed: true,
    },
    init: {
      // The emulated store has no customer accounts: nobody is logged in.
      customer: null,
      cart: pixelCart(ctx, cart),
      checkout: null,
      productVariants: [],
      shop: {
        name: shop.name,
        myshopifyDomain: shop.myshopifyDomain,
        countryCode: 'JP',
        storefrontUrl: base,
        paymentSettings: { currencyCode: shop.currencyCode },
      },
    },
    events,
  }
  // `<` escaped: the JSON cannot close its script tag, whatever a product title holds.
  const json = JSON.stringify(setup).replace(/</g, '\\u003c')
  return `<script type="application/json" id="web-pixels-manager-setup">${json}</script>
<script src="${base}/web-pixels-manager.js" defer></script>`
}

/** Serves the manager and the pixel's sandbox; false when `path` is neither. */
export function serveWebPixelScript(
  res: ServerResponse,
  ctx: Context,
  path: string,
  extension: PixelExtension | null,
): boolean {
  let body: string | null = null
  if (path === '/web-pixels-manager.js') body = MANAGER
  const sandbox = /^\/web-pixels\/(\d+)\/sandbox\.js$/.exec(path)
  if (sandbox) {
    const pixel = ctx.shop.extra?.webPixel
    if (!pixel || String(pixel.id) !== sandbox[1] || !extension) return false
    body = sandboxScript(extension.dir)
  }
  if (body === null) return false
  res.writeHead(200, {
    'content-type': 'text/javascript; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  })
  res.end(body)
  return true
}
