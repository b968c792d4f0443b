import type { IncomingMessage, ServerResponse } from 'node:http'
import { DELIVERY_TIME_LABELS, PREFECTURES } from '@teiki/domain'
import type { Liquid } from 'liquidjs'
import type { Context, Runtime } from '../context.ts'
import { readBody, sendJson } from '../http.ts'
import type { ShopState } from '../records.ts'
import type { Store } from '../store.ts'
import { findById } from '../store.ts'
import { type Cart, type CartLine, Carts } from './cart.ts'
import { cartBody, checkoutBody, defaultBuyer, thankYouBody } from './cart-pages.ts'
import { type Buyer, placeOrder } from './checkout.ts'
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

/** A cart's completed checkout: its order, and the checkout's event until the thank-you page sent it. */
type CompletedCheckout = { orderId: number; checkout: Record<string, unknown> | null }

type Storefront = {
  ext: ThemeExtension
  engine: Liquid
  carts: Carts
  lastOrders: Map<string, CompletedCheckout>
}

/** What a page carries besides its body: the theme's assets, and a checkout to report to the pixel. */
type PageExtra = { stylesheets?: string[]; scripts?: string[]; checkout?: Record<string, unknown> | null }

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
    }
  }
  return shared
}

function sendHtml(res: ServerResponse, status: number, html: string, cookie?: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
    ...(cookie ? { 'set-cookie': cookie } : {}),
  })
  res.end(html)
}

function redirect(res: ServerResponse, location: string, cookie?: string): void {
  res.writeHead(303, { location, ...(cookie ? { 'set-cookie': cookie } : {}) })
  res.end()
}

const cartToken = (req: IncomingMessage) =>
  /(?:^|;\s*)cart=([0-9a-f]{32})(?:;|$)/.exec(req.headers.cookie ?? '')?.[1]

const cartCookie = (shop: string, cart: Cart) =>
  `cart=${cart.token}; Path=${STOREFRONT_PREFIX}${shop}; HttpOnly; SameSite=Lax`

/** A cart line from the platform's add parameters; null when the variant or plan is not the shop's. */
function cartLine(
  shop: ShopState,
  id: unknown,
  quantity: unknown,
  plan: unknown,
  properties?: unknown,
): CartLine | null {
  const variant = findById(shop.variants, Number(id))
  const q = quantity === undefined || quantity === null || quantity === '' ? 1 : Number(quantity)
  if (!variant || !Number.isInteger(q) || q < 1) return null
  let sellingPlanId: number | null = null
  if (plan !== undefined && plan !== null && plan !== '') {
    const groups = shop.sellingPlanGroups.filter(
      (g) => g.productIds.includes(variant.productId) || g.variantIds?.includes(variant.id),
    )
    if (!groups.some((g) => g.sellingPlans.some((p) => p.id === Number(plan)))) return null
    sellingPlanId = Number(plan)
  }
  const props: Record<string, string> = {}
  if (properties && typeof properties === 'object') {
    for (const [k, v] of Object.entries(properties))
      if (typeof v === 'string') props[k.slice(0, 100)] = v.slice(0, 500)
  }
  return { variantId: variant.id, quantity: q, sellingPlanId, properties: props }
}

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
  const page = (title: string, body: string, { checkout = null, ...assets }: PageExtra = {}) =>
    storePage({
      title,
      shopName: shop.info.name,
      base,
      cartCount: cart.lines.length,
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
  return handleCartPaths({ req, res, ctx, sf, cart, cookie, base, path, page })
}

type CartRequest = {
  req: IncomingMessage
  res: ServerResponse
  ctx: Context
  sf: Storefront
  cart: Cart
  cookie: string
  base: string
  path: string
  page: (title: string, body: string, extra?: PageExtra) => string
}

const indexPage = ({ res, ctx, base, cookie, page }: CartRequest) => {
  const items = ctx.shop.products
    .filter((p) => p.status === 'ACTIVE')
    .map((p) => `<li><a href="${base}/products/${p.handle}">${escapeHtml(p.title)}</a></li>`)
    .join('')
  sendHtml(res, 200, page('商品一覧', `<h1>商品一覧</h1><ul>${items}</ul>`), cookie)
}

async function cartAdd({ req, res, ctx, sf, cart, cookie, base, page }: CartRequest) {
  const form = new URLSearchParams(await readBody(req))
  const line = cartLine(ctx.shop, form.get('id'), form.get('quantity'), form.get('selling_plan'))
  if (!line)
    return sendHtml(
      res,
      422,
      page('カート', '<p class="error">この商品はカートに追加できません。</p>'),
      cookie,
    )
  sf.carts.add(cart, line)
  redirect(res, `${base}/cart`, cookie)
}

/** The Ajax API's `/cart/add.js`: `{ items: [{ id, quantity, selling_plan, properties }] }`, all or none. */
async function cartAddJs({ req, res, ctx, sf, cart, cookie }: CartRequest) {
  let body: { items?: unknown[] } = {}
  try {
    body = JSON.parse(await readBody(req)) as { items?: unknown[] }
  } catch {}
  const items = Array.isArray(body.items) ? body.items : []
  const lines = items.map((i) => {
    const it = (i ?? {}) as Record<string, unknown>
    return cartLine(ctx.shop, it.id, it.quantity, it.selling_plan, it.properties)
  })
  res.setHeader('set-cookie', cookie)
  if (lines.length === 0 || lines.some((l) => l === null)) {
    return sendJson(res, 422, {
      status: 422,
      message: 'Cart Error',
      description: 'この商品はカートに追加できません。',
    })
  }
  for (const line of lines) sf.carts.add(cart, line!)
  sendJson(res, 200, { items: lines })
}

/** The Ajax API's cart: what `/cart.js` and `/cart/update.js` answer (lines as `/cart/add.js` does). */
const cartJson = (cart: Cart) => ({
  token: cart.token,
  attributes: cart.attributes,
  item_count: cart.lines.reduce((n, l) => n + l.quantity, 0),
  items: cart.lines,
})

/**
 * The Ajax API's `/cart/update.js`: `{ attributes: { key: value } }` as JSON, or the form's
 * `attributes[key]=value`; an empty value removes the key. 422 and nothing changed for a body
 * the platform would refuse (too many or too long attributes).
 */
async function cartUpdateJs({ req, res, sf, cart, cookie }: CartRequest) {
  const text = await readBody(req)
  let attributes: Record<string, unknown> = {}
  if ((req.headers['content-type'] ?? '').includes('application/json')) {
    try {
      const body = JSON.parse(text) as { attributes?: unknown }
      if (body.attributes && typeof body.attributes === 'object')
        attributes = body.attributes as Record<string, unknown>
    } catch {}
  } else {
    for (const [name, value] of new URLSearchParams(text)) {
      const m = /^attributes\[(.+)\]$/.exec(name)
      if (m) attributes[m[1]!] = value
    }
  }
  res.setHeader('set-cookie', cookie)
  if (!sf.carts.setAttributes(cart, attributes))
    return sendJson(res, 422, {
      status: 422,
      message: 'Cart Error',
      description: 'カートの属性を保存できません。',
    })
  sendJson(res, 200, cartJson(cart))
}

async function cartChange({ req, res, sf, cart, cookie, base }: CartRequest) {
  const form = new URLSearchParams(await readBody(req))
  const index = Number(form.get('line')) - 1
  if (Number.isInteger(index) && index >= 0 && form.get('quantity') === '0') sf.carts.remove(cart, index)
  redirect(res, `${base}/cart`, cookie)
}

async function checkout(r: CartRequest) {
  const { req, res, ctx, sf, cart, cookie, base, page } = r
  if (cart.lines.length === 0) return redirect(res, `${base}/cart`, cookie)
  if (req.method === 'GET') {
    return sendHtml(
      res,
      200,
      page('ご購入手続き', checkoutBody(ctx, cart, base, defaultBuyer(ctx.now()))),
      cookie,
    )
  }
  const form = new URLSearchParams(await readBody(req))
  const buyer = parseBuyer(form)
  if (typeof buyer === 'string') {
    const shown = { ...defaultBuyer(ctx.now()), ...Object.fromEntries(form) } as Buyer
    return sendHtml(res, 400, page('ご購入手続き', checkoutBody(ctx, cart, base, shown, buyer)), cookie)
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
  const body = thankYouBody(ctx, order, contracts, base)
  sendHtml(res, 200, page('ご注文ありがとうございます', body, { checkout }), cookie)
}

/** The store's pages besides products and assets, by method and path. */
const CART_ROUTES: Record<string, (r: CartRequest) => void | Promise<void>> = {
  'GET /': indexPage,
  'POST /cart/add': cartAdd,
  'POST /cart/add.js': cartAddJs,
  'POST /cart/change': cartChange,
  'POST /cart/update.js': cartUpdateJs,
  'GET /cart.js': ({ res, cart, cookie }) => {
    res.setHeader('set-cookie', cookie)
    sendJson(res, 200, cartJson(cart))
  },
  'GET /cart': ({ res, ctx, cart, cookie, base, page }) =>
    sendHtml(res, 200, page('カート', cartBody(ctx, cart, base)), cookie),
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
