import { type Db, withTransaction } from '../../db/pool.ts'
import { createAdminClient } from '../../platform/admin-client.ts'
import type { Payload, WebhookContext } from './handler.ts'
import { findShopForWebhook, isDelivered, recordDelivery } from './repo.ts'
import { TOPIC_HANDLERS } from './topics.ts'

export type WebhookDeps = {
  db: Db
  adminOrigin: (shop: string) => string
  fetch?: typeof fetch
  /** Drops the shop from the auth cache once its install state changed. */
  forgetShop: (domain: string) => void
  log: WebhookContext['log']
}

export type Delivery = {
  webhookId: string
  topic: string
  shopDomain: string
  triggeredAt: Date | null
  receivedAt: Date
  payload: Payload
}

export type Outcome = 'applied' | 'duplicate' | 'ignored'

/**
 * Applies one verified delivery exactly once per webhook id: platform reads first (outside
 * the transaction), then one transaction records the id and writes the mirror. A failure
 * anywhere records nothing and propagates, so the caller answers 500 and the platform
 * retries; a delivery already recorded is acknowledged without touching anything.
 */
export async function receiveWebhook(deps: WebhookDeps, delivery: Delivery): Promise<Outcome> {
  const handler = TOPIC_HANDLERS[delivery.topic]
  if (!handler) return 'ignored'
  const shop = await findShopForWebhook(deps.db, delivery.shopDomain)
  // Unknown or uninstalled shop: nothing of ours to update, and a non-2xx answer would only
  // make the platform retry for hours (and eventually drop the subscription). Say "done".
  if (!shop || (shop.uninstalled_at && !handler.afterUninstall)) return 'ignored'
  // Cheap early exit for redeliveries: no platform read for something already applied. The
  // unique key in recordDelivery is what actually guarantees once.
  if (await isDelivered(deps.db, shop.id, delivery.webhookId)) return 'duplicate'

  const client = shop.access_token
    ? createAdminClient({
        shop: shop.domain,
        accessToken: shop.access_token,
        origin: deps.adminOrigin(shop.domain),
        fetch: deps.fetch,
        // The platform retries the webhook itself; a long in-request backoff would only hold
        // the connection past the platform's 5 s delivery timeout.
        maxRetries: 2,
      })
    : null
  const apply = await handler.prepare({
    shop,
    topic: delivery.topic,
    payload: delivery.payload,
    triggeredAt: delivery.triggeredAt,
    client,
    log: deps.log,
  })
  const applied = await withTransaction(deps.db, async (tx) => {
    const first = await recordDelivery(tx, {
      shopId: shop.id,
      webhookId: delivery.webhookId,
      topic: delivery.topic,
      receivedAt: delivery.receivedAt,
    })
    if (first) await apply(tx)
    return first
  })
  if (applied && (delivery.topic === 'app/uninstalled' || delivery.topic === 'shop/redact'))
    deps.forgetShop(shop.domain)
  return applied ? 'applied' : 'duplicate'
}
