import type { ResolverMap } from '../attach-resolvers.ts'
import type { Context } from '../context.ts'
import { parseGid } from '../gid.ts'
import { extraOf } from '../shop-extra.ts'
import { findById } from '../store.ts'
import { customerPayload } from '../webhooks/payloads.ts'
import { lookup, userError } from './common.ts'

/** The platform splits each tag argument on commas and trims it. */
const splitTags = (tags: readonly string[]) =>
  tags
    .flatMap((t) => t.split(','))
    .map((t) => t.trim())
    .filter((t) => t !== '')

function editTags(
  ctx: Context,
  gid: string,
  edit: (current: string[], tags: string[]) => string[],
  tags: string[],
) {
  const parsed = parseGid(gid)
  if (parsed?.type !== 'Customer')
    return { node: null, userErrors: [userError(['id'], 'The emulator tags customers only', null)] }
  const customer = findById(ctx.shop.customers, parsed.id)
  if (!customer) return { node: null, userErrors: [userError(['id'], 'Customer does not exist', null)] }
  const before = customer.tags.join(',')
  customer.tags = edit(customer.tags, splitTags(tags))
  customer.updatedAt = Math.max(ctx.now(), customer.updatedAt)
  ctx.store.changed()
  // The platform tells apps a customer changed (customers/update), the app's own edits too.
  if (customer.tags.join(',') !== before)
    ctx.runtime.emit(ctx.shop, 'customers/update', customerPayload(customer))
  return { node: { ...customer, __typename: 'Customer' }, userErrors: [] }
}

export const customerMutations: ResolverMap = {
  Mutation: {
    tagsAdd: (_s, args: { id: string; tags: string[] }, ctx: Context) =>
      editTags(ctx, args.id, (current, tags) => [...new Set([...current, ...tags])], args.tags),
    tagsRemove: (_s, args: { id: string; tags: string[] }, ctx: Context) =>
      editTags(ctx, args.id, (current, tags) => current.filter((t) => !tags.includes(t)), args.tags),
    customerPaymentMethodSendUpdateEmail: (
      _s,
      args: { customerPaymentMethodId: string; email?: { to?: string | null } | null },
      ctx: Context,
    ) => {
      const pm = lookup(ctx.shop.paymentMethods, args.customerPaymentMethodId, 'CustomerPaymentMethod')
      if (!pm)
        return {
          customer: null,
          userErrors: [userError(['customerPaymentMethodId'], 'Payment method does not exist', null)],
        }
      if (pm.revokedAt !== null)
        return {
          customer: null,
          userErrors: [userError(['customerPaymentMethodId'], 'Payment method is revoked', null)],
        }
      const customer = findById(ctx.shop.customers, pm.customerId) ?? null
      // The emulator sends no mail; tests read `extra.sentEmails` (or emulator.sentEmails()).
      extraOf(ctx.shop, ctx.now()).sentEmails.push({
        paymentMethodId: pm.id,
        customerId: pm.customerId,
        to: args.email?.to ?? customer?.email ?? null,
        at: ctx.now(),
      })
      ctx.store.changed()
      return { customer, userErrors: [] }
    },
  },
}
