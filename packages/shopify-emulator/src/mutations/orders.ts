import { accessDenied, hasScope } from '../access.ts'
import type { ResolverMap } from '../attach-resolvers.ts'
import type { Context } from '../context.ts'
import { readableOrNull } from '../order-access.ts'
import { findById } from '../store.ts'
import { orderPayload } from '../webhooks/payloads.ts'
import { lookup, userError } from './common.ts'

/** OrderInput as far as the emulator keeps it: the note attributes. */
type OrderInput = {
  id: string
  customAttributes?: Array<{ key: string; value: string }> | null
}

/** The platform's limits on a note attribute (its admin refuses longer ones). */
const MAX_ATTRIBUTES = 250
const MAX_KEY = 255

/**
 * orderUpdate: `customAttributes` replaces the order's note attributes (the whole list, as the
 * platform does); other OrderInput fields are not emulated and are refused rather than ignored.
 * Needs `write_orders` (ACCESS_DENIED otherwise); an order the app may not read (older than 60
 * days without read_all_orders) does not exist for it. Tells apps with `orders/updated`.
 */
function orderUpdate(ctx: Context, input: OrderInput & Record<string, unknown>) {
  if (!hasScope(ctx, 'write_orders')) throw accessDenied('orderUpdate', '`write_orders` access scope.')
  const order = readableOrNull(ctx, lookup(ctx.shop.orders, input.id, 'Order'))
  if (!order) return { order: null, userErrors: [userError(['id'], 'Order does not exist', null)] }
  const other = Object.keys(input).find((k) => k !== 'id' && k !== 'customAttributes' && input[k] != null)
  if (other)
    return { order: null, userErrors: [userError([other], `The emulator does not update ${other}`, null)] }
  const attributes = input.customAttributes
  if (attributes) {
    if (attributes.length > MAX_ATTRIBUTES)
      return { order: null, userErrors: [userError(['customAttributes'], 'Too many attributes', null)] }
    const bad = attributes.findIndex((a) => a.key.trim() === '' || a.key.length > MAX_KEY)
    if (bad >= 0)
      return {
        order: null,
        userErrors: [userError(['customAttributes', String(bad), 'key'], "Key can't be blank", null)],
      }
    if (attributes.length > 0)
      order.customAttributes = attributes.map((a) => ({ key: a.key, value: a.value }))
    else delete order.customAttributes
  }
  order.updatedAt = Math.max(ctx.now(), order.updatedAt + 1)
  ctx.store.changed()
  const contract = order.contractId === null ? undefined : findById(ctx.shop.contracts, order.contractId)
  ctx.runtime.emit(ctx.shop, 'orders/updated', orderPayload(ctx.shop, order, contract))
  return { order, userErrors: [] }
}

export const orderMutations: ResolverMap = {
  Mutation: {
    orderUpdate: (_s, args: { input: OrderInput & Record<string, unknown> }, ctx: Context) =>
      orderUpdate(ctx, args.input),
  },
}
