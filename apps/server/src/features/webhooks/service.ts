import { type Db, withTransaction } from '../../db/pool.ts'
import { unauthenticated } from '../../http/app-error.ts'
import { withinDelivery } from '../../http/request-context.ts'
import { PlatformUnavailableError } from '../../platform/errors.ts'
import type { ShopClients } from '../../platform/shop-clients.ts'
import { checkClaims, readClaims } from './binding.ts'
import type { DeferRefresh } from './deferred.ts'
import type { Payload, WebhookContext } from './handler.ts'
import { findShopForWebhook, isDelivered, recordDelivery } from './repo.ts'
import { TOPIC_HANDLERS } from './topics.ts'

export type WebhookDeps = {
  db: Db
  /** The app's one paced Admin client per shop: webhook reads share the shop's bucket estimate. */
  clients: ShopClients
  /** Drops the shop from the auth cache once its install state changed. */
  forgetShop: (domain: string) => void
  log: WebhookContext['log']
  /** With a job queue: reads deferred to a job (deferred.ts). */
  defer?: DeferRefresh
  billing?: WebhookContext['billing']
}

export type Delivery = {
  webhookId: string
  /** X-Shopify-Event-Id when sent: one event reaches us once per subscription. */
  eventId: string | null
  topic: string
  shopDomain: string
  triggeredAt: Date | null
  receivedAt: Date
  payload: Payload
}

export type Outcome = 'applied' | 'duplicate' | 'ignored'

/**
 * The platform gives a delivery 5 s. Past 4 s the answer is a 500 (the platform retries later)
 * rather than a timeout, and the delivery's reads still waiting in the shop's client are
 * dropped (withinDelivery), so a retried delivery does not pile up reads behind billing.
 */
const DELIVERY_DEADLINE_MS = 4_000

const FORGETS_SHOP = new Set(['app/uninstalled', 'shop/redact', 'app_subscriptions/update'])

const REFUSED = 'Webhook の本文が送信元のストア・トピックと一致しません。'

/**
 * Applies one verified delivery exactly once: its headers bound to its body first
 * (binding.ts: 401 and nothing recorded on a mismatch), then platform reads with the header
 * shop's token (outside the transaction), then one transaction records the delivery and writes
 * the mirror. A failure anywhere records nothing and propagates, so the caller answers 500 and
 * the platform retries; a delivery already recorded is acknowledged without touching anything.
 */
export async function receiveWebhook(deps: WebhookDeps, delivery: Delivery): Promise<Outcome> {
  const handler = TOPIC_HANDLERS[delivery.topic]
  if (!handler) return 'ignored'
  const claims = readClaims(delivery.topic, delivery.shopDomain, delivery.payload)
  if ('refused' in claims) throw refused(deps, delivery, claims.refused)
  const shop = await findShopForWebhook(deps.db, delivery.shopDomain)
  // Unknown or uninstalled shop: nothing of ours to update, and a non-2xx answer would only
  // make the platform retry for hours (and eventually drop the subscription). Say "done".
  if (!shop || (shop.uninstalled_at && !handler.afterUninstall)) return 'ignored'
  const foreign = await checkClaims(deps.db, shop, claims)
  if (foreign) throw refused(deps, delivery, foreign.refused)
  // Cheap early exit for redeliveries: no platform read for something already applied. The
  // unique keys in recordDelivery are what actually guarantee once.
  if (await isDelivered(deps.db, shop.id, delivery)) return 'duplicate'

  // Background work with the delivery's deadline: reads not sent by then are dropped.
  const apply = await withinDeadline(
    withinDelivery(DELIVERY_DEADLINE_MS, () =>
      handler.prepare({
        db: deps.db,
        shop,
        topic: delivery.topic,
        payload: delivery.payload,
        client: shop.access_token ? deps.clients.clientFor(shop) : null,
        log: deps.log,
        ...(deps.defer ? { defer: deps.defer } : {}),
        ...(deps.billing ? { billing: deps.billing } : {}),
      }),
    ),
  )
  if (!apply) return 'ignored'
  const applied = await withTransaction(deps.db, async (tx) => {
    const first = await recordDelivery(tx, { ...delivery, shopId: shop.id })
    if (first) await apply(tx)
    return first
  })
  // The auth cache's copy of the shop is stale now (its install state, or its plan: the plan
  // features checked before every route read it).
  if (applied && FORGETS_SHOP.has(delivery.topic)) deps.forgetShop(shop.domain)
  return applied ? 'applied' : 'duplicate'
}

function refused(deps: WebhookDeps, delivery: Delivery, reason: string): Error {
  deps.log.info(
    { topic: delivery.topic, shop: delivery.shopDomain, webhookId: delivery.webhookId, reason },
    'webhook refused: headers do not match the signed body',
  )
  return unauthenticated(REFUSED)
}

async function withinDeadline<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new PlatformUnavailableError('webhook: platform reads exceeded the delivery deadline')),
      DELIVERY_DEADLINE_MS,
    )
  })
  try {
    return await Promise.race([work, deadline])
  } finally {
    clearTimeout(timer)
    // A read that lost the race still settles later: its failure must not go unhandled.
    work.catch(() => {})
  }
}
