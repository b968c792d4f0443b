import { idFromGid } from '../../platform/gid.ts'
import { fetchOrder } from '../../platform/operations/order.ts'
import { upsertOrder } from '../../sync/mirror-repo.ts'
import { orderRecord } from '../../sync/records.ts'
import { type Apply, gidFrom, nothing, requireClient, type TopicHandler } from './handler.ts'
import { holdsOrder } from './repo.ts'

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
