import type { DbClient } from '../../db/pool.ts'
import type { Payload } from './handler.ts'
import { mirrorOwnsIds, type WebhookShop } from './repo.ts'

/**
 * Binds a delivery's unsigned headers to its signed body. X-Shopify-Hmac-Sha256 covers the
 * body only, so anyone holding one genuine body (a contract update of shop A, a redact of one
 * customer) could re-send it with another topic or another shop's domain. Before anything is
 * read or written, the body must have the shape of the header's topic and name the header's
 * shop: a shop body its myshopify domain and platform id, a compliance body its shop_domain and
 * shop_id, a resource body a GID of the topic's own type that no other shop's mirror holds.
 * The handlers then read what they apply from the platform with the header shop's token, so a
 * body that passes here still cannot move data between shops (defence in depth).
 */

/** A platform resource a body names, as its GID type and numeric id. */
export type NamedResource = { type: string; id: string }

/** What a body says about whom it concerns. */
export type Claims = {
  /** The shop's platform id the body names (app/uninstalled, compliance topics), else null. */
  shopPlatformId: string | null
  resources: NamedResource[]
}

export type Refusal = { refused: string }

const refuse = (reason: string): Refusal => ({ refused: reason })

const MAX_BIGINT = 9_223_372_036_854_775_807n

/** A platform id as the mirror stores it (a bigint), from a JSON number or digit string. */
export function platformId(value: unknown): string | null {
  const text =
    typeof value === 'number' && Number.isSafeInteger(value) && value > 0
      ? String(value)
      : typeof value === 'string' && /^\d{1,19}$/.test(value)
        ? value
        : null
  return text !== null && BigInt(text) > 0n && BigInt(text) <= MAX_BIGINT ? String(BigInt(text)) : null
}

const GID = /^gid:\/\/shopify\/([A-Za-z]+)\/(\d{1,19})$/

function parseGid(value: unknown): NamedResource | null {
  const m = typeof value === 'string' ? GID.exec(value) : null
  const id = m ? platformId(m[2]) : null
  return m && id ? { type: m[1]!, id } : null
}

/**
 * Every GID anywhere in the body (the contract's customer, the attempt's order, a group's
 * products…): none of them may belong to another shop. Depth and count are bounded, so a
 * hostile (but signed) body cannot make this walk expensive.
 */
function gidsIn(value: unknown, out: NamedResource[] = [], depth = 0): NamedResource[] {
  if (depth > 6 || out.length >= 1000) return out
  const gid = parseGid(value)
  if (gid) out.push(gid)
  else if (Array.isArray(value)) for (const v of value) gidsIn(v, out, depth + 1)
  else if (value && typeof value === 'object') for (const v of Object.values(value)) gidsIn(v, out, depth + 1)
  return out
}

/** A body about one platform resource: its own GID of `type`, and `id` agreeing with it. */
function resourceBody(p: Payload, type: string): Claims | Refusal {
  const own = parseGid(p.admin_graphql_api_id)
  if (!own || own.type !== type) return refuse(`admin_graphql_api_id is not a ${type} GID`)
  if ('id' in p && platformId(p.id) !== own.id) return refuse('id and admin_graphql_api_id differ')
  return { shopPlatformId: null, resources: gidsIn(p) }
}

/** The status a contract body must carry under each status topic (update/create carry any). */
const CONTRACT_STATUS: Record<string, string> = {
  'subscription_contracts/activate': 'active',
  'subscription_contracts/pause': 'paused',
  'subscription_contracts/cancel': 'cancelled',
  'subscription_contracts/fail': 'failed',
  'subscription_contracts/expire': 'expired',
}

function contractBody(p: Payload, topic: string): Claims | Refusal {
  const status = CONTRACT_STATUS[topic]
  if (status && p.status !== status) return refuse(`${topic} body has status ${String(p.status)}`)
  return resourceBody(p, 'SubscriptionContract')
}

/**
 * A success names its order and no error; a failure an error code and no order; a challenge
 * (3-D Secure) neither: the customer has yet to authenticate.
 */
function billingAttemptBody(p: Payload, topic: string): Claims | Refusal {
  if (parseGid(p.admin_graphql_api_subscription_contract_id)?.type !== 'SubscriptionContract')
    return refuse('billing attempt body without its contract GID')
  const order = parseGid(p.admin_graphql_api_order_id)
  const hasError = typeof p.error_code === 'string' && p.error_code !== ''
  if (p.ready !== true) return refuse('billing attempt body is not ready')
  const fits = topic.endsWith('/success')
    ? order?.type === 'Order' && !hasError
    : topic.endsWith('/failure')
      ? order === null && hasError
      : order === null && !hasError
  if (!fits) return refuse(`body is not the outcome ${topic} reports`)
  return resourceBody(p, 'SubscriptionBillingAttempt')
}

/**
 * A refund names its order by numeric id only (`order_id`, no GID): the order is a named
 * resource too, so a genuine refund body of one shop's order cannot be re-sent as another's.
 */
function refundBody(p: Payload): Claims | Refusal {
  const orderId = platformId(p.order_id)
  if (!orderId) return refuse('a refund body names its order_id')
  const claims = resourceBody(p, 'Refund')
  if ('refused' in claims) return claims
  return { ...claims, resources: [...claims.resources, { type: 'Order', id: orderId }] }
}

/** create/update carry the group; delete only its id and GID. */
function sellingPlanGroupBody(p: Payload, topic: string): Claims | Refusal {
  if (topic.endsWith('/delete')) {
    if (Object.keys(p).some((k) => k !== 'id' && k !== 'admin_graphql_api_id'))
      return refuse('a group delete body carries only the id')
  } else if (typeof p.name !== 'string' || !Array.isArray(p.selling_plans)) {
    return refuse('a group body carries its name and plans')
  }
  return resourceBody(p, 'SellingPlanGroup')
}

/** app/uninstalled: the shop object itself. */
function shopBody(p: Payload, shopDomain: string): Claims | Refusal {
  if (p.myshopify_domain !== shopDomain) return refuse('the shop body names another myshopify domain')
  const id = platformId(p.id)
  if (!id) return refuse('the shop body has no shop id')
  return { shopPlatformId: id, resources: [] }
}

/** A compliance body: the shop by shop_domain and shop_id, plus the topic's own keys. */
function complianceBody(p: Payload, shopDomain: string, topic: string): Claims | Refusal {
  if (p.shop_domain !== shopDomain) return refuse('shop_domain is not the header shop')
  const shopId = platformId(p.shop_id)
  if (!shopId) return refuse('compliance body without shop_id')
  if (topic === 'shop/redact') {
    if (Object.keys(p).some((k) => k !== 'shop_id' && k !== 'shop_domain'))
      return refuse('a shop/redact body names only the shop')
    return { shopPlatformId: shopId, resources: [] }
  }
  const ordersKey = topic === 'customers/redact' ? 'orders_to_redact' : 'orders_requested'
  const customer = p.customer as Payload | null | undefined
  const customerId = customer && typeof customer === 'object' ? platformId(customer.id) : null
  const orders = p[ordersKey]
  if (!customerId || !Array.isArray(orders)) return refuse(`${topic} body needs customer.id and ${ordersKey}`)
  const orderIds = orders.map(platformId)
  if (orderIds.some((id) => id === null)) return refuse(`${ordersKey} holds something other than ids`)
  return {
    shopPlatformId: shopId,
    resources: [{ type: 'Customer', id: customerId }, ...orderIds.map((id) => ({ type: 'Order', id: id! }))],
  }
}

const APP_SUBSCRIPTION_STATUSES = new Set([
  'PENDING',
  'ACCEPTED',
  'ACTIVE',
  'DECLINED',
  'EXPIRED',
  'FROZEN',
  'CANCELLED',
])

/**
 * app_subscriptions/update: the subscription wrapped in `app_subscription` (no root id), named by
 * an AppSubscription GID, with the shop's GID beside it: the shop id must be this shop's. The
 * subscription has no mirror table: the handler reads it back with the header shop's token, and
 * a subscription that is not this shop's app's is unknown to it (the delivery is ignored).
 */
function appSubscriptionBody(p: Payload): Claims | Refusal {
  const sub = p.app_subscription as Payload | null | undefined
  if (!sub || typeof sub !== 'object' || Array.isArray(sub)) return refuse('no app_subscription in the body')
  if (parseGid(sub.admin_graphql_api_id)?.type !== 'AppSubscription')
    return refuse('admin_graphql_api_id is not an AppSubscription GID')
  const shop = parseGid(sub.admin_graphql_api_shop_id)
  if (shop?.type !== 'Shop') return refuse('admin_graphql_api_shop_id is not a Shop GID')
  if (typeof sub.name !== 'string' || !APP_SUBSCRIPTION_STATUSES.has(String(sub.status)))
    return refuse('an app subscription body carries its name and status')
  return { shopPlatformId: shop.id, resources: [] }
}

type Shape = (p: Payload, topic: string, shopDomain: string) => Claims | Refusal

const SHAPES: Record<string, Shape> = {
  subscription_contracts: (p, topic) => contractBody(p, topic),
  subscription_billing_attempts: (p, topic) => billingAttemptBody(p, topic),
  orders: (p) => resourceBody(p, 'Order'),
  refunds: (p) => refundBody(p),
  selling_plan_groups: (p, topic) => sellingPlanGroupBody(p, topic),
  app: (p, _topic, shop) => shopBody(p, shop),
  app_subscriptions: (p) => appSubscriptionBody(p),
  customers: (p, topic, shop) =>
    topic === 'customers/redact' || topic === 'customers/data_request'
      ? complianceBody(p, shop, topic)
      : resourceBody(p, 'Customer'),
  shop: (p, topic, shop) => complianceBody(p, shop, topic),
}

/** The body's claims, or why it does not fit the topic and shop of its headers (pure: no I/O). */
export function readClaims(topic: string, shopDomain: string, payload: Payload): Claims | Refusal {
  const shape = SHAPES[topic.slice(0, topic.indexOf('/'))]
  return shape ? shape(payload, topic, shopDomain) : refuse(`no shape known for ${topic}`)
}

/**
 * The checks that need the mirror: the shop id the body names is this shop's (when the sync
 * has learnt it), and no named resource is held by another shop's mirror and not by this one.
 * Resources the mirror does not know at all pass: the handler's platform read decides them.
 */
export async function checkClaims(db: DbClient, shop: WebhookShop, claims: Claims): Promise<Refusal | null> {
  if (claims.shopPlatformId && shop.platform_id && claims.shopPlatformId !== String(shop.platform_id))
    return refuse('the body names another shop id')
  const byType = new Map<string, string[]>()
  for (const r of claims.resources) byType.set(r.type, [...(byType.get(r.type) ?? []), r.id])
  for (const [type, ids] of byType) {
    const foreign = await mirrorOwnsIds(db, shop.id, type, [...new Set(ids)])
    if (foreign) return refuse(`${type} ${foreign} belongs to another shop`)
  }
  return null
}
