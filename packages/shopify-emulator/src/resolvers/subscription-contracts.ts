import type { ResolverMap } from '../attach-resolvers.ts'
import { connection, sortedBy } from '../connection.ts'
import { type Context, perExport } from '../context.ts'
import { publicImageUrl } from '../demo-data/product-images.ts'
import { toGid } from '../gid.ts'
import { readableOrders, readableOrNull } from '../order-access.ts'
import type { BillingAttemptRecord, ContractLineRecord, ContractRecord } from '../records.ts'
import { datedSortKeys, fieldsByKind, filterBySearch, type SearchSpec } from '../search-query.ts'
import { findById } from '../store.ts'
import { linesOf } from './line-pricing.ts'
import { byGid, manyById } from './lookup.ts'

export const contractSearch: SearchSpec<ContractRecord> = {
  fields: fieldsByKind<ContractRecord>({
    number: ['id', 'customer_id'],
    string: ['status', 'last_payment_status'],
    date: ['created_at', 'updated_at', 'next_billing_date'],
  }),
  sortKeys: { ...datedSortKeys(), ID: (c) => c.id, STATUS: (c) => c.status },
}

export const contractResolvers: ResolverMap = {
  QueryRoot: {
    subscriptionContracts: (_s, args, ctx: Context) => {
      const key = contractSearch.sortKeys![args.sortKey]
      const items = perExport(ctx, `subscriptionContracts ${args.sortKey} ${args.query ?? ''}`, () =>
        sortedBy(filterBySearch(ctx.shop.contracts, args.query, contractSearch), key),
      )
      return connection(items, args, { key, sorted: true })
    },
    subscriptionContract: (_s, args, ctx) => byGid(ctx.shop.contracts, args.id, 'SubscriptionContract'),
  },
  SubscriptionContract: {
    customer: (c: ContractRecord, _a, ctx: Context) => findById(ctx.shop.customers, c.customerId) ?? null,
    originOrder: (c: ContractRecord, _a, ctx: Context) =>
      c.originOrderId === null ? null : readableOrNull(ctx, findById(ctx.shop.orders, c.originOrderId)),
    customerPaymentMethod: (c: ContractRecord, args, ctx: Context) => {
      const pm = c.paymentMethodId === null ? undefined : findById(ctx.shop.paymentMethods, c.paymentMethodId)
      if (!pm || (pm.revokedAt !== null && !args.showRevoked)) return null
      return pm
    },
    lines: (c: ContractRecord, args) => connection(linesOf(c), args),
    linesCount: (c: ContractRecord) => ({ count: c.lines.length, precision: 'EXACT' }),
    orders: (c: ContractRecord, args, ctx: Context) =>
      connection(readableOrders(ctx, manyById(ctx.shop.orders, c.orderIds)), args),
    billingAttempts: (c: ContractRecord, args, ctx: Context) =>
      connection(manyById(ctx.shop.billingAttempts, c.billingAttemptIds), args),
  },
  SubscriptionLine: {
    productId: (l: ContractLineRecord) => toGid('Product', l.productId),
    variantId: (l: ContractLineRecord) => toGid('ProductVariant', l.variantId),
    sellingPlanId: (l: ContractLineRecord) =>
      l.sellingPlanId === null ? null : toGid('SellingPlan', l.sellingPlanId),
    variantImage: (l: ContractLineRecord, _a, ctx: Context) => {
      const product = findById(ctx.shop.products, l.productId)
      return product?.imageUrl
        ? { url: publicImageUrl(product.imageUrl, ctx.runtime.baseUrl()), altText: product.title }
        : null
    },
  },
  SubscriptionBillingAttempt: {
    // The generator leaves the key implicit to keep 100,000-contract shops small.
    idempotencyKey: (a: BillingAttemptRecord) => a.idempotencyKey ?? `teiki-${a.contractId}-${a.id}`,
    nextActionUrl: (a: BillingAttemptRecord) => a.nextActionUrl ?? null,
    order: (a: BillingAttemptRecord, _a, ctx: Context) =>
      a.orderId === null ? null : readableOrNull(ctx, findById(ctx.shop.orders, a.orderId)),
    subscriptionContract: (a: BillingAttemptRecord, _a, ctx: Context) =>
      findById(ctx.shop.contracts, a.contractId),
  },
}
