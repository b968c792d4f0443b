import type { ResolverMap } from '../attach-resolvers.ts'
import { type ConnectionArgs, connection } from '../connection.ts'
import type { Context } from '../context.ts'
import { readableOrders, readableOrNull } from '../order-access.ts'
import type { OrderRecord, RefundRecord } from '../records.ts'
import { financialStatus, refundedOf } from '../refunds.ts'
import { filterBySearch, type SearchSpec } from '../search-query.ts'
import { findById } from '../store.ts'
import { byGid } from './lookup.ts'

export const orderSearch: SearchSpec<OrderRecord> = {
  fields: {
    id: { kind: 'number', get: (o) => o.id },
    name: { kind: 'string', get: (o) => `#${o.number}` },
    customer_id: { kind: 'number', get: (o) => o.customerId },
    created_at: { kind: 'date', get: (o) => o.createdAt },
    processed_at: { kind: 'date', get: (o) => o.createdAt },
    updated_at: { kind: 'date', get: (o) => o.updatedAt },
    test: { kind: 'string', get: (o) => String(o.test) },
  },
  text: (o) => `#${o.number}`,
}

const sortKeys: Record<string, ((o: OrderRecord) => number | string) | undefined> = {
  // Ids grow with creation time, so the default PROCESSED_AT order is the stored order.
  PROCESSED_AT: undefined,
  CREATED_AT: undefined,
  ORDER_NUMBER: undefined,
  UPDATED_AT: (o) => o.updatedAt,
  TOTAL_PRICE: (o) => o.totalPriceSet,
}

type LineItemView = {
  id: number
  title: string
  quantity: number
  sku: string | null
  variantId: number
  originalUnitPriceSet: number
}

/**
 * Order lines are not stored: subscription orders copy the contract's lines, so they are derived
 * on read. Ids are order id * 10 + position, which keeps them stable and unique.
 */
function lineItemsOf(order: OrderRecord, ctx: Context): LineItemView[] {
  const contract = order.contractId === null ? undefined : findById(ctx.shop.contracts, order.contractId)
  return (contract?.lines ?? []).map((l, i) => ({
    id: order.id * 10 + i,
    title: l.title,
    quantity: l.quantity,
    sku: l.sku,
    variantId: l.variantId,
    originalUnitPriceSet: l.currentPrice,
  }))
}

/** `orders` of the shop or of a customer: searched, sorted, paged, only what the app may read. */
export function ordersConnection(
  ctx: Context,
  orders: readonly OrderRecord[],
  args: ConnectionArgs & { query?: string | null; sortKey?: string },
) {
  return connection(filterBySearch(readableOrders(ctx, orders), args.query, orderSearch), args, {
    key: sortKeys[args.sortKey ?? 'PROCESSED_AT'],
  })
}

export const orderResolvers: ResolverMap = {
  QueryRoot: {
    orders: (_s, args, ctx) => ordersConnection(ctx, ctx.shop.orders, args),
    order: (_s, args, ctx) => readableOrNull(ctx, byGid(ctx.shop.orders, args.id, 'Order')),
  },
  Order: {
    name: (o: OrderRecord) => `#${o.number}`,
    currencyCode: (_o, _a, ctx: Context) => ctx.shop.info.currencyCode,
    customer: (o: OrderRecord, _a, ctx: Context) =>
      o.customerId === null ? null : (findById(ctx.shop.customers, o.customerId) ?? null),
    lineItems: (o: OrderRecord, args, ctx: Context) => connection(lineItemsOf(o, ctx), args),
    customAttributes: (o: OrderRecord) => o.customAttributes ?? [],
    refunds: (o: OrderRecord, args: { first?: number | null }) =>
      (o.refunds ?? []).slice(0, args.first ?? undefined),
    totalRefundedSet: (o: OrderRecord, _a, ctx: Context) => refundedOf(o, ctx.shop.info.currencyCode),
    displayFinancialStatus: (o: OrderRecord, _a, ctx: Context) =>
      financialStatus(o, ctx.shop.info.currencyCode),
  },
  Refund: {
    legacyResourceId: (r: RefundRecord) => r.id,
    order: (r: RefundRecord, _a, ctx: Context) => readableOrNull(ctx, findById(ctx.shop.orders, r.orderId)),
    totalRefundedSet: (r: RefundRecord) => r.amount,
    updatedAt: (r: RefundRecord) => r.createdAt,
  },
  LineItem: {
    variant: (l: LineItemView, _a, ctx: Context) => findById(ctx.shop.variants, l.variantId) ?? null,
  },
}
