import { idFromGid } from '../../platform/gid.ts'
import { fetchCustomer } from '../../platform/operations/customer.ts'
import { upsertCustomers } from '../../sync/mirror-repo.ts'
import { customerRecord } from '../../sync/records.ts'
import { type Apply, gidFrom, requireClient, type TopicHandler } from './handler.ts'
import { holdsCustomer, redactCustomer } from './repo.ts'

/**
 * customers/create and customers/update: the customer (tags included) is read from the platform
 * with the header shop's token, never taken from the body (which names no shop); another shop's
 * customer is not found there and nothing is recorded. The upsert keeps whichever of the stored
 * and fetched rows is newer (updated_at), so late or replayed deliveries change nothing.
 */
export const customerTopic: TopicHandler = {
  async prepare(ctx): Promise<Apply | null> {
    const gid = gidFrom(ctx.payload, 'Customer')
    if (!gid) return null
    const customer = await fetchCustomer(requireClient(ctx), gid)
    if (!customer) return null
    const record = customerRecord(customer)
    return async (tx) => upsertCustomers(tx, ctx.shop.id, [record])
  },
}

/**
 * customers/delete: the customer's personal data goes as on customers/redact, but only for a
 * customer this shop's mirror holds and once the platform confirms the customer is gone (the body is signed but its shop header is not: a
 * re-addressed delete of a customer that still exists is ignored).
 */
export const customerDeleteTopic: TopicHandler = {
  async prepare(ctx): Promise<Apply | null> {
    const gid = gidFrom(ctx.payload, 'Customer')
    if (!gid) return null
    const id = idFromGid(gid)
    // A customer this shop's mirror does not hold: nothing to erase (another shop's body).
    if (!(await holdsCustomer(ctx.db, ctx.shop.id, id))) return null
    if (await fetchCustomer(requireClient(ctx), gid)) {
      ctx.log.info({ shop: ctx.shop.domain }, 'customers/delete ignored: the platform still has the customer')
      return null
    }
    return async (tx) => redactCustomer(tx, ctx.shop.id, id)
  },
}
