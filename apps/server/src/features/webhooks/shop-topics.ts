import { idFromGid } from '../../platform/gid.ts'
import { type Apply, gidFrom, nothing, type Payload, type TopicHandler } from './handler.ts'
import { deleteShop, markUninstalled, redactCustomer } from './repo.ts'

/** app/uninstalled: the token is dead, so it is dropped and the shop's requests stop authenticating. */
export const appUninstalledTopic: TopicHandler = {
  async prepare(ctx): Promise<Apply> {
    return async (tx) => markUninstalled(tx, ctx.shop.id, ctx.triggeredAt)
  },
}

/**
 * customers/data_request: the merchant must send the customer their data. Teiki holds only
 * copies of platform data, so there is nothing to compile: the request is logged for the
 * record and acknowledged.
 */
export const customerDataRequestTopic: TopicHandler = {
  afterUninstall: true,
  async prepare(ctx): Promise<Apply> {
    const customer = (ctx.payload.customer ?? {}) as Payload
    ctx.log.info(
      { shop: ctx.shop.domain, customerId: customer.id ?? null, request: ctx.payload.data_request ?? null },
      'customers/data_request received',
    )
    return nothing
  },
}

export const customerRedactTopic: TopicHandler = {
  afterUninstall: true,
  async prepare(ctx): Promise<Apply> {
    const customer = (ctx.payload.customer ?? null) as Payload | null
    const gid = customer ? gidFrom(customer, 'Customer') : null
    if (!gid) return nothing
    const id = idFromGid(gid)
    return async (tx) => redactCustomer(tx, ctx.shop.id, id)
  },
}

/**
 * shop/redact (48 hours after the uninstall): everything of the shop is deleted. A shop that
 * has been installed again since is in use, so the request is logged and not applied.
 */
export const shopRedactTopic: TopicHandler = {
  afterUninstall: true,
  async prepare(ctx): Promise<Apply> {
    if (!ctx.shop.uninstalled_at) {
      ctx.log.info({ shop: ctx.shop.domain }, 'shop/redact for an installed shop ignored')
      return nothing
    }
    return async (tx) => deleteShop(tx, ctx.shop.id)
  },
}
