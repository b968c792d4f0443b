import { idFromGid, maybeIdFromGid } from '../../platform/gid.ts'
import { storableRow } from '../../sync/mirror-text.ts'
import { type Apply, gidFrom, nothing, type Payload, type TopicHandler } from './handler.ts'
import { upsertOrder } from './repo.ts'

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)

/**
 * orders/create: the payload has all the mirror keeps, so no platform read. It does not say
 * which contract the order belongs to (the billing-attempt success does), so the link is
 * left null here and never cleared by this upsert.
 */
export const orderCreateTopic: TopicHandler = {
  async prepare(ctx): Promise<Apply> {
    const p = ctx.payload
    const gid = gidFrom(p, 'Order')
    const createdAt = text(p.created_at)
    if (!gid || !createdAt) return nothing
    const customer = (p.customer ?? null) as Payload | null
    const contractGid = gidFrom(
      p,
      'SubscriptionContract',
      'subscription_contract_id',
      'admin_graphql_api_subscription_contract_id',
    )
    const order = {
      id: idFromGid(gid),
      name: text(p.name),
      contract_id: maybeIdFromGid(contractGid),
      customer_id: customer ? maybeIdFromGid(gidFrom(customer, 'Customer')) : null,
      total_amount: text(p.total_price),
      currency_code: text(p.currency),
      test: p.test === true,
      created_at: createdAt,
      cancelled_at: text(p.cancelled_at),
    }
    const row = storableRow(order, { table: 'orders', id: order.id, contractId: order.contract_id })
    return async (tx) => upsertOrder(tx, ctx.shop.id, row)
  },
}
