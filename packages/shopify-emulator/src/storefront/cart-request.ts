import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Liquid } from 'liquidjs'
import type { Context } from '../context.ts'
import type { Sessions } from './accounts.ts'
import type { Cart, Carts } from './cart.ts'
import type { ThemeExtension } from './liquid.ts'

/** What the store's cart, checkout and thank-you handlers share (routes.ts, cart-routes.ts). */

/** A cart's completed checkout: its order, and the checkout's event until the thank-you page sent it. */
export type CompletedCheckout = { orderId: number; checkout: Record<string, unknown> | null }

export type Storefront = {
  ext: ThemeExtension
  engine: Liquid
  carts: Carts
  lastOrders: Map<string, CompletedCheckout>
  /** Customers signed in to the store (accounts.ts). */
  sessions: Sessions
}

/** What a page carries besides its body: the theme's assets, and a checkout to report to the pixel. */
export type PageExtra = {
  stylesheets?: string[]
  scripts?: string[]
  checkout?: Record<string, unknown> | null
}

export type CartRequest = {
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

export function sendHtml(res: ServerResponse, status: number, html: string, cookie?: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
    ...(cookie ? { 'set-cookie': cookie } : {}),
  })
  res.end(html)
}

export function redirect(res: ServerResponse, location: string, cookie?: string): void {
  res.writeHead(303, { location, ...(cookie ? { 'set-cookie': cookie } : {}) })
  res.end()
}
