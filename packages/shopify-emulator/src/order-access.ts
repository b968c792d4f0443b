import type { Context } from './context.ts'
import type { OrderRecord, ShopState } from './records.ts'

/**
 * Which orders the app may read (shopify.dev, Admin GraphQL `Order` object: "Only the last 60
 * days' worth of orders from a store are accessible from the Order object by default. If you
 * want to access older records, then you need to request access to all orders", the
 * `read_all_orders` scope). Without that scope an older order is not there for the app: not in
 * `orders`, `order(id)`, `node(s)`, a contract's `orders` or `originOrder`, a customer's
 * `orders`, a billing attempt's or a refund's `order`, not in bulk operations (they run these
 * resolvers) and not for mutations that name it (`refundCreate`). The window is counted from
 * the order's creation to the moment of the read.
 */
export const ORDER_HISTORY_DAYS = 60
export const READ_ALL_ORDERS = 'read_all_orders'
const WINDOW_MS = ORDER_HISTORY_DAYS * 86_400_000

export const readsAllOrders = (shop: ShopState): boolean => shop.installation.scopes.includes(READ_ALL_ORDERS)

/** The oldest creation time the app may read now, or null when it reads every order. */
export function ordersReadableFrom(ctx: Pick<Context, 'shop' | 'now'>): number | null {
  return readsAllOrders(ctx.shop) ? null : ctx.now() - WINDOW_MS
}

export function isReadableOrder(ctx: Pick<Context, 'shop' | 'now'>, order: OrderRecord): boolean {
  const from = ordersReadableFrom(ctx)
  return from === null || order.createdAt >= from
}

/** The readable ones of `orders`, in their order (the list itself when every order is readable). */
export function readableOrders(ctx: Pick<Context, 'shop' | 'now'>, orders: readonly OrderRecord[]) {
  const from = ordersReadableFrom(ctx)
  return from === null ? orders : orders.filter((o) => o.createdAt >= from)
}

/** The order, or null when there is none or the app may not read it. */
export const readableOrNull = (ctx: Pick<Context, 'shop' | 'now'>, order: OrderRecord | null | undefined) =>
  order && isReadableOrder(ctx, order) ? order : null
