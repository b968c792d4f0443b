import type { ResolverMap } from '../attach-resolvers.ts'
import { connection } from '../connection.ts'
import type { Context } from '../context.ts'
import type { CustomerRecord } from '../records.ts'
import { filterBySearch, type SearchSpec } from '../search-query.ts'
import { byGid } from './lookup.ts'
import { ordersConnection } from './orders.ts'

/** Phone numbers compare as digits in international form, so 090… finds +8190…. */
export const normalizePhone = (s: string) => {
  const digits = s.replace(/\D/g, '')
  return digits.startsWith('0') ? `81${digits.slice(1)}` : digits
}

export const customerSearch: SearchSpec<CustomerRecord> = {
  fields: {
    id: { kind: 'number', get: (c) => c.id },
    email: { kind: 'string', get: (c) => c.email },
    phone: { kind: 'string', get: (c) => c.phone, normalize: normalizePhone },
    first_name: { kind: 'string', get: (c) => c.firstName },
    last_name: { kind: 'string', get: (c) => c.lastName },
    state: { kind: 'string', get: (c) => c.state },
    tag: { kind: 'list', get: (c) => c.tags },
    created_at: { kind: 'date', get: (c) => c.createdAt },
    updated_at: { kind: 'date', get: (c) => c.updatedAt },
    orders_count: { kind: 'number', get: (c) => c.numberOfOrders },
  },
  text: (c) =>
    `${c.displayName} ${c.lastName}${c.firstName} ${c.email ?? ''} ${c.phone ?? ''} ${c.phone ? normalizePhone(c.phone) : ''}`,
}

const sortKeys: Record<string, ((c: CustomerRecord) => number | string) | undefined> = {
  CREATED_AT: (c) => c.createdAt,
  UPDATED_AT: (c) => c.updatedAt,
  NAME: (c) => c.displayName,
  LOCATION: (c) => c.defaultAddress?.provinceCode ?? '',
}

export const customerResolvers: ResolverMap = {
  QueryRoot: {
    customers: (_s, args, ctx) =>
      connection(filterBySearch(ctx.shop.customers, args.query, customerSearch), args, {
        key: sortKeys[args.sortKey],
      }),
    customer: (_s, args, ctx) => byGid(ctx.shop.customers, args.id, 'Customer'),
  },
  Customer: {
    // "Customer search with their contracts" (spec section 7) reads them from the customer.
    subscriptionContracts: (c: CustomerRecord, args, ctx) =>
      connection(
        ctx.shop.contracts.filter((contract) => contract.customerId === c.id),
        args,
      ),
    // The customer's orders, as the shop's `orders` lists them (only those the app may read).
    orders: (c: CustomerRecord, args, ctx: Context) =>
      ordersConnection(
        ctx,
        ctx.shop.orders.filter((o) => o.customerId === c.id),
        args,
      ),
    // Revoked methods only when asked for, as on the platform.
    paymentMethods: (c: CustomerRecord, args, ctx) =>
      connection(
        ctx.shop.paymentMethods.filter(
          (pm) => pm.customerId === c.id && (args.showRevoked === true || pm.revokedAt === null),
        ),
        args,
      ),
  },
}
