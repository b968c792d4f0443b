import type { IncomingMessage, ServerResponse } from 'node:http'
import { DELIVERY_TIME_LABELS, PREFECTURES } from '@teiki/domain'
import type { Context, Runtime } from '../context.ts'
import { readBody, sendJson } from '../http.ts'
import type { Store } from '../store.ts'
import { findById } from '../store.ts'
import { createSessions, handleAccountPaths, signedInCustomer } from './accounts.ts'
import { handleAppProxy } from './app-proxy.ts'
import { type Cart, Carts } from './cart.ts'
import { cartBody, checkoutBody, defaultBuyer, thankYouBody } from './cart-pages.ts'
import { type CartRequest, type PageExtra, redirect, type Storefront, sendHtml } from './cart-request.ts'
import { cartAdd, cartAddJs, cartChange, cartJson, cartUpdate } from './cart-routes.ts'
import { cartValidationErrors } from './cart-validation.ts'
import { type Buyer, placeOrder } from './checkout.ts'
import { serveCheckoutUi, thankYouBlockTags } from './checkout-ui.ts'
import { escapeHtml, storePage } from './layout.ts'
import { createStorefrontLiquid, extensionAsset, loadExtension, type ThemeExtension } from './liquid.ts'
import { MONEY_FORMAT, productPageBody, themeFor } from './product-page.ts'
import { pageEvents, pixelCheckout, serveWebPixelScript, webPixelsHead } from './web-pixels.ts'

/**
 * The emulated online store of each shop, under `/s/<shop domain>` of the emulator: product
 * pages with the theme's app blocks, the cart (`/cart/add` as a form post and `/cart/add.js`
 * as JSON, like the platform's Ajax API), checkout paid with the demo card, and the thank-you
 * page. The product's `onlineStoreUrl` in the Admin API points here.
 */

export const STOREFRONT_PREFIX = '/s/'

export const storefrontBase = (baseUrl: string, shop: string) => `${baseUrl}${STOREFRONT_PREFIX}${shop}`

export type StorefrontDeps = { store: Store; runtime: Runtime }

let shared: Storefront | undefined
/** One extension and Liquid engine for the process (the extension is read once). */
function storefront(): Storefront {
  if (!shared) {
    const ext = loadExtension()
    shared = {
      ext,
      engine: createStorefrontLiquid(ext, { locale: 'ja', moneyFormat: MONEY_FORMAT, assetUrl: (f) => f }),
      carts: new Carts(),
      lastOrders: new Map(),
      sessions: createSessions(),
    }
  }
  return shared
}

const cartToken = (req: IncomingMessage) =>
  /(?:^|;\s*)cart=([0-9a-f]{32})(?:;|$)/.exec(req.headers.cookie ?? '')?.[1]

const cartCookie = (shop: string, cart: Cart) =>
  `cart=${cart.token}; Path=${STOREFRONT_PREFIX}${shop}; HttpOnly; SameSite=Lax`

/** The buyer of a checkout form, or the reason it is refused (Japanese). */
export function parseBuyer(form: URLSearchParams): Buyer | string {
  const text = (name: string, max = 100) => (form.get(name) ?? '').trim().slice(0, max)
  const buyer: Buyer = {
    email: text('email', 200),
    lastName: text('lastName'),
    firstName: text('firstName'),
    phone: text('phone', 30) || null,
    zip: text('zip', 10),
    provinceCode: text('provinceCode', 10),
    city: text('city'),
    address1: text('address1'),
    address2: text('address2') || null,
    deliveryTime: null,
  }
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(buyer.email)) return 'メールアドレスを正しく入力してください。'
  if (!buyer.lastName || !buyer.firstName) return 'お名前（姓・名）を入力してください。'
  if (!/^\d{3}-?\d{4}$/.test(buyer.zip)) return '郵便番号は 123-4567 の形で入力してください。'
  if (!PREFECTURES.some((p) => p.code === buyer.provinceCode)) return '都道府県を選んでください。'
  const slot = text('deliveryTime', 10)
  if (slot !== '' && slot !== 'NONE') {
    if (!(slot in DELIVERY_TIME_LABELS)) return '配送時間帯を選んでください。'
    buyer.deliveryTime = slot as Buyer['deliveryTime']
  }
  if (!buyer.city || !buyer.address1) return '市区町村と番地を入力してください。'
  return buyer
}

/** A file of the theme extension's `assets/` (the blocks' script and stylesheet), or 404. */
function serveAsset(res: ServerResponse, ext: ThemeExtension, name: string): void {
  const content = extensionAsset(ext, name)
  if (!content) {
    sendJson(res, 404, { errors: 'Not Found' })
    return
  }
  const type = name.endsWith('.js')
    ? 'text/javascript'
    : name.endsWith('.css')
      ? 'text/css'
      : 'application/octet-stream'
  res.writeHead(200, {
    'content-type': `${type}; charset=utf-8`,
    'content-length': content.length,
    'cache-control': 'public, max-age=300',
  })
  res.end(content)
}

/** True when the request was a storefront path. */
export async function handleStorefront(
  req: IncomingMessage,
  res: ServerResponse,
  deps: StorefrontDeps,
): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://emulator')
  if (!url.pathname.startsWith(STOREFRONT_PREFIX)) return false
  const [domain = '', ...rest] = url.pathname.slice(STOREFRONT_PREFIX.length).split('/')
  const shop = deps.store.shop(decodeURIComponent(domain))
  if (!shop) {
    sendHtml(res, 404, '<!doctype html><p>ストアが見つかりません。</p>')
    return true
  }
  const sf = storefront()
  const base = `${STOREFRONT_PREFIX}${shop.info.myshopifyDomain}`
  const path = `/${rest.join('/')}`
  const ctx: Context = { shop, store: deps.store, now: () => Date.now(), runtime: deps.runtime }
  const cart = sf.carts.get(shop.info.myshopifyDomain, cartToken(req))
  const cookie = cartCookie(shop.info.myshopifyDomain, cart)
  const customerId = signedInCustomer(sf.sessions, shop.info.myshopifyDomain, req)
  const page = (title: string, body: string, { checkout = null, ...assets }: PageExtra = {}) =>
    storePage({
      title,
      shopName: shop.info.name,
      base,
      cartCount: cart.lines.length,
      signedIn: customerId !== null,
      body,
      ...assets,
      head: webPixelsHead({
        ctx,
        base,
        extension: deps.runtime.pixelExtension,
        cart,
        events: pageEvents(checkout),
      }),
    })
  const method = req.method ?? 'GET'

  const asset = /^\/assets\/([\w.-]+)$/.exec(path)
  if (asset && method === 'GET') {
    serveAsset(res, sf.ext, asset[1]!)
    return true
  }
  if (method === 'GET' && serveWebPixelScript(res, ctx, path, deps.runtime.pixelExtension)) return true
  if (method === 'GET' && serveCheckoutUi(res, ctx, path, sf.lastOrders.has(cart.token))) return true
  const request: CartRequest = { req, res, ctx, sf, cart, cookie, base, path, page }
  if (await handleAccountPaths(request, sf.sessions)) return true
  if (await handleAppProxy(request, url, customerId)) return true
  const product = /^\/products\/([a-z0-9-]+)$/.exec(path)
  if (product && method === 'GET') {
    const record = shop.products.find((p) => p.handle === product[1] && p.status === 'ACTIVE')
    if (!record) {
      sendHtml(res, 404, page('見つかりません', '<p>商品が見つかりません。</p>'), cookie)
      return true
    }
    const numeric = (name: string) =>
      /^\d{1,20}$/.test(url.searchParams.get(name) ?? '') ? Number(url.searchParams.get(name)) : null
    const { body, assets } = await productPageBody({
      shop,
      product: record,
      theme: themeFor(shop, ctx.now(), url.searchParams.get('preview_theme_id')),
      ext: sf.ext,
      engine: sf.engine,
      base,
      drop: {
        variantId: numeric('variant'),
        sellingPlanId: numeric('selling_plan'),
        isOutOfStock: (id) => deps.runtime.faults.isOutOfStock(shop.info.myshopifyDomain, id),
      },
    })
    const assetUrl = (f: string) => `${base}/assets/${f}`
    sendHtml(
      res,
      200,
      page(record.title, body, {
        stylesheets: assets.filter((f) => f.endsWith('.css')).map(assetUrl),
        scripts: assets.filter((f) => f.endsWith('.js')).map(assetUrl),
      }),
      cookie,
    )
    return true
  }
  return handleCartPaths(request)
}

const indexPage = ({ res, ctx, base, cookie, page }: CartRequest) => {
  const items = ctx.shop.products
    .filter((p) => p.status === 'ACTIVE')
    .map((p) => `<li><a href="${base}/products/${p.handle}">${escapeHtml(p.title)}</a></li>`)
    .join('')
  sendHtml(res, 200, page('商品一覧', `<h1>商品一覧</h1><ul>${items}</ul>`), cookie)
}

/**
 * Checkout: the shop's validations run when it is shown (CHECKOUT_INTERACTION) and when it is
 * paid (CHECKOUT_COMPLETION); while one refuses the cart, the page says why and no order is
 * placed (validation errors always block checkout, shopify.dev, `Validation`).
 */
async function checkout(r: CartRequest) {
  const { req, res, ctx, sf, cart, cookie, base, page } = r
  if (cart.lines.length === 0) return redirect(res, `${base}/cart`, cookie)
  if (req.method === 'GET') {
    const errors = cartValidationErrors(ctx, cart, 'CHECKOUT_INTERACTION')
    const body = checkoutBody(ctx, cart, base, defaultBuyer(ctx.now()), errors)
    return sendHtml(res, 200, page('ご購入手続き', body), cookie)
  }
  const form = new URLSearchParams(await readBody(req))
  const buyer = parseBuyer(form)
  const errors = typeof buyer === 'string' ? [buyer] : cartValidationErrors(ctx, cart, 'CHECKOUT_COMPLETION')
  if (typeof buyer === 'string' || errors.length > 0) {
    const shown = { ...defaultBuyer(ctx.now()), ...Object.fromEntries(form) } as Buyer
    const status = typeof buyer === 'string' ? 400 : 422
    return sendHtml(res, status, page('ご購入手続き', checkoutBody(ctx, cart, base, shown, errors)), cookie)
  }
  const result = placeOrder(ctx, cart, buyer)
  // The checkout as bought, for the pixel's checkout_completed on the thank-you page.
  const checkoutEvent = pixelCheckout(ctx, cart, buyer, result)
  sf.carts.clear(cart)
  sf.lastOrders.set(cart.token, { orderId: result.order.id, checkout: checkoutEvent })
  redirect(res, `${base}/thank-you`, cookie)
}

const thankYou = ({ res, ctx, sf, cart, cookie, base, page }: CartRequest) => {
  const done = sf.lastOrders.get(cart.token)
  const order = findById(ctx.shop.orders, done?.orderId ?? -1)
  if (!done || !order) return redirect(res, `${base}/`, cookie)
  const contracts = ctx.shop.contracts.filter((c) => c.originOrderId === order.id)
  // checkout_completed is sent once per checkout: a reload of the page shows only page_viewed.
  const checkout = done.checkout
  done.checkout = null
  const body = thankYouBody(ctx, order, contracts, base) + thankYouBlockTags(ctx, base, order)
  sendHtml(res, 200, page('ご注文ありがとうございます', body, { checkout }), cookie)
}

/** The store's pages besides products and assets, by method and path. */
const CART_ROUTES: Record<string, (r: CartRequest) => void | Promise<void>> = {
  'GET /': indexPage,
  'POST /cart/add': cartAdd,
  'POST /cart/add.js': cartAddJs,
  'POST /cart/change': cartChange,
  'POST /cart/update': cartUpdate,
  'POST /cart/update.js': cartUpdate,
  'GET /cart.js': ({ res, cart, cookie }) => {
    res.setHeader('set-cookie', cookie)
    sendJson(res, 200, cartJson(cart))
  },
  // The cart as it stands, with what the validations say of it now (a rule changed since it was
  // filled): the platform shows validation errors on the cart page of themes with a cart template.
  'GET /cart': ({ res, ctx, cart, cookie, base, page }) => {
    const errors = cartValidationErrors(ctx, cart, 'CART_INTERACTION')
    sendHtml(res, 200, page('カート', cartBody(ctx, cart, base, errors)), cookie)
  },
  'GET /checkout': checkout,
  'POST /checkout': checkout,
  'GET /thank-you': thankYou,
}

async function handleCartPaths(r: CartRequest): Promise<boolean> {
  const route = CART_ROUTES[`${r.req.method ?? 'GET'} ${r.path}`]
  if (route) await route(r)
  else sendHtml(r.res, 404, r.page('見つかりません', '<p>ページが見つかりません。</p>'), r.cookie)
  return true
}
