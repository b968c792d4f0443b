import { idFromGid, toGid } from '../../platform/gid.ts'
import { fetchOrder } from '../../platform/operations/order.ts'
import { upsertOrder } from '../../sync/mirror-repo.ts'
import { orderRecord } from '../../sync/records.ts'
import {
  type Apply,
  gidFrom,
  nothing,
  type Payload,
  requireClient,
  type TopicHandler,
  type WebhookContext,
} from './handler.ts'
import { heldOrderMoney, holdsOrder } from './repo.ts'

/**
 * orders/create: the order is read from the platform with the header shop's token rather than
 * taken from the payload, because the payload names no shop: a genuine order body of one shop
 * re-sent under another's domain would otherwise land in that shop's mirror. Another shop's
 * order is not found there, and nothing is recorded. The order does not say which contract it
 * belongs to (the billing-attempt success does), so the link is left null here and never
 * cleared by this upsert. A replay writes the platform's current order again: no change.
 */
export const orderCreateTopic: TopicHandler = {
  async prepare(ctx): Promise<Apply | null> {
    const gid = gidFrom(ctx.payload, 'Order')
    if (!gid) return null
    // Mirrored already (by the billing engine, from its attempt): an order is read once. One
    // not mirrored yet is read a few seconds later when a job queue runs (deferred.ts).
    const id = idFromGid(gid)
    if (await holdsOrder(ctx.db, ctx.shop.id, id)) return nothing
    const { defer } = ctx
    if (defer) return (tx) => defer(tx, { shopId: ctx.shop.id, kind: 'order', id })
    const order = await fetchOrder(requireClient(ctx), gid)
    if (!order) return null
    const record = orderRecord(order, null)
    return async (tx) => upsertOrder(tx, ctx.shop.id, record)
  },
}

/** The order as the platform has it now, written over the mirror's (refunds only grow there). */
async function refreshOrder(ctx: WebhookContext, gid: string): Promise<Apply | null> {
  const order = await fetchOrder(requireClient(ctx), gid)
  if (!order) return null
  const record = orderRecord(order, null)
  return async (tx) => upsertOrder(tx, ctx.shop.id, record)
}

/**
 * Whether an orders/updated body tells nothing the mirror lacks: the order is held with the
 * same total, not refunded and not cancelled on either side. Most updates are fulfilment and
 * the like; they cost no platform read. Anything else (a refund, a cancellation, an edited
 * total) is read from the platform: the body only decides whether to ask.
 */
function unchanged(
  held: { total: string | null; refunded: string; cancelled: boolean },
  p: Payload,
): boolean {
  const status = typeof p.financial_status === 'string' ? p.financial_status : ''
  return (
    held.total !== null &&
    Number(held.total) === Number(p.total_price) &&
    Number(held.refunded) === 0 &&
    !held.cancelled &&
    (p.cancelled_at ?? null) === null &&
    !status.includes('refunded') &&
    status !== 'voided'
  )
}

/**
 * orders/updated: a refund, a cancellation or an edit of an order. An order the mirror does not
 * hold is taken as orders/create takes it; a held one is read again from the platform unless
 * the body shows nothing the mirror keeps has changed.
 */
export const orderUpdateTopic: TopicHandler = {
  async prepare(ctx): Promise<Apply | null> {
    const gid = gidFrom(ctx.payload, 'Order')
    if (!gid) return null
    const held = await heldOrderMoney(ctx.db, ctx.shop.id, idFromGid(gid))
    if (!held) return orderCreateTopic.prepare(ctx)
    if (unchanged(held, ctx.payload)) return nothing
    return refreshOrder(ctx, gid)
  },
}

/**
 * refunds/create: the body names its order by numeric id only; the order is read from the
 * platform with the header shop's token (its totalRefundedSet) and mirrored, so LTV, the
 * lifetime totals and the daily subtotal (triggers of migration 0028) take the refund off.
 */
export const refundCreateTopic: TopicHandler = {
  async prepare(ctx): Promise<Apply | null> {
    const orderId = ctx.payload.order_id
    if (typeof orderId !== 'number' && typeof orderId !== 'string') return null
    return refreshOrder(ctx, toGid('Order', String(orderId)))
  },
}
