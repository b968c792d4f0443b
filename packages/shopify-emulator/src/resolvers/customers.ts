import type { ResolverMap } from '../attach-resolvers.ts'
import { connection } from '../connection.ts'
import type { Context } from '../context.ts'
import type { CustomerRecord } from '../records.ts'
import { datedSortKeys, fieldsByKind, type SearchSpec, searchConnection } from '../search-query.ts'
import { byGid } from './lookup.ts'
import { ordersConnection } from './orders.ts'

/** Phone numbers compare as digits in international form, so 090… finds +8190…. */
export const normalizePhone = (s: string) => {
  const digits = s.replace(/\D/g, '')
  return digits.startsWith('0') ? `81${digits.slice(1)}` : digits
}

export const customerSearch: SearchSpec<CustomerRecord> = {
  fields: {
    ...fieldsByKind<CustomerRecord>({
      number: ['id'],
      string: ['email', 'first_name', 'last_name', 'state'],
      date: ['created_at', 'updated_at'],
    }),
    phone: { kind: 'string', get: (c) => c.phone, normalize: normalizePhone },
    tag: { kind: 'list', get: (c) => c.tags },
    orders_count: { kind: 'number', get: (c) => c.numberOfOrders },
  },
  text: (c) =>
    `${c.displayName} ${c.lastName}${c.firstName} ${c.email ?? ''} ${c.phone ?? ''} ${c.phone ? normalizePhone(c.phone) : ''}`,
  sortKeys: {
    ...datedSortKeys(),
    NAME: (c) => c.displayName,
    LOCATION: (c) => c.defaultAddress?.provinceCode ?? '',
  },
}

export const customerResolvers: ResolverMap = {
  QueryRoot: {
    customers: (_s, args, ctx) => searchConnection(ctx.shop.customers, args, customerSearch),
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
