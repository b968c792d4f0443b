import type { AdminClient } from '../../platform/admin-client.ts'
import { PlatformUnavailableError } from '../../platform/errors.ts'
import { fetchShopIdentity } from '../../platform/operations/shop-identity.ts'
import { platformId } from './binding.ts'
import type { Apply, Payload, TopicHandler } from './handler.ts'
import { deleteShop, hasCustomer, markUninstalled, redactCustomer } from './repo.ts'

/**
 * app/uninstalled: the shop stops authenticating and its token is dropped, but only once the
 * platform refuses that token (401/403 to the cheapest query). A genuine uninstall revokes the
 * token before the delivery is sent; a replayed or re-addressed body (its headers are not
 * signed) meets a token that still works and changes nothing, not even the delivery log.
 * Replays after a real uninstall find the shop uninstalled and are ignored before this runs.
 */
export const appUninstalledTopic: TopicHandler = {
  async prepare(ctx): Promise<Apply | null> {
    const token = ctx.shop.access_token
    if (!ctx.client || !token || !(await tokenRefused(ctx.client))) {
      ctx.log.info(
        { shop: ctx.shop.domain },
        'app/uninstalled ignored: the platform still accepts the shop token',
      )
      return null
    }
    return async (tx) => markUninstalled(tx, ctx.shop.id, token)
  },
}

async function tokenRefused(client: AdminClient): Promise<boolean> {
  try {
    await fetchShopIdentity(client)
    return false
  } catch (error) {
    if (error instanceof PlatformUnavailableError && (error.status === 401 || error.status === 403))
      return true
    // Unreachable or failing: unknown, so the delivery fails and the platform sends it again.
    throw error
  }
}

/**
 * customers/data_request: the merchant must send the customer their data. Teiki holds only
 * copies of platform data, so there is nothing to compile: the request is logged for the
 * record (with whether this shop's mirror holds the customer at all) and acknowledged. A
 * customer of another shop never gets here (binding.ts).
 */
export const customerDataRequestTopic: TopicHandler = {
  afterUninstall: true,
  async prepare(ctx): Promise<Apply> {
    const customerId = platformId((ctx.payload.customer as Payload).id)!
    return async (tx) => {
      const held = await hasCustomer(tx, ctx.shop.id, customerId)
      ctx.log.info(
        { shop: ctx.shop.domain, customerId, held, request: ctx.payload.data_request ?? null },
        'customers/data_request received',
      )
    }
  },
}

/**
 * customers/redact: the customer's personal data in this shop's mirror goes. binding.ts has
 * refused a customer another shop holds; every write is keyed by this shop, and redacting
 * twice (a replay) leaves the same blanks.
 */
export const customerRedactTopic: TopicHandler = {
  afterUninstall: true,
  async prepare(ctx): Promise<Apply> {
    const customerId = platformId((ctx.payload.customer as Payload).id)!
    return async (tx) => redactCustomer(tx, ctx.shop.id, customerId)
  },
}

/**
 * shop/redact (48 hours after the uninstall): everything of the shop is deleted, only for a
 * shop whose uninstall the platform confirmed (app/uninstalled above). A shop installed (again)
 * is in use, so the request is logged and changes nothing. A replay after the deletion finds no
 * shop and is ignored.
 */
export const shopRedactTopic: TopicHandler = {
  afterUninstall: true,
  async prepare(ctx): Promise<Apply | null> {
    if (!ctx.shop.uninstalled_at) {
      ctx.log.info({ shop: ctx.shop.domain }, 'shop/redact for an installed shop ignored')
      return null
    }
    return async (tx) => deleteShop(tx, ctx.shop.id)
  },
}
