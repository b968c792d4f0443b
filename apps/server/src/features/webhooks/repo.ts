import { type DbClient, queryRow } from '../../db/pool.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'

/**
 * A shop as webhooks see it: uninstalled shops included (the compliance topics need them),
 * with the whole ShopRow so the shared per-shop Admin client can be asked for it.
 */
export type WebhookShop = ShopRow & {
  uninstalled_at: Date | null
  /** The shop's own platform id once the sync has read it (binding.ts checks bodies against it). */
  platform_id: string | null
}

export function findShopForWebhook(db: DbClient, domain: string) {
  return queryRow<WebhookShop>(
    db,
    `select id, domain, name, secret_hash, access_token, scopes, currency_code, iana_timezone, primary_domain_url,
       shopify_plan, app_plan, synced_at, uninstalled_at, platform_id
     from shops where domain = $1`,
    [domain],
  )
}

/** A delivery already applied: the same webhook id, or the same event of the same topic. */
export async function isDelivered(
  db: DbClient,
  shopId: string,
  delivery: { webhookId: string; topic: string; eventId: string | null },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `select 1 from webhook_deliveries
     where shop_id = $1 and (webhook_id = $2 or (topic = $3 and event_id = $4))`,
    [shopId, delivery.webhookId, delivery.topic, delivery.eventId],
  )
  return (rowCount ?? 0) > 0
}

/** The mirror table of each platform type a webhook body may name (GID type → table). */
const MIRROR_TABLES: Readonly<Record<string, string>> = {
  Customer: 'customers',
  Order: 'orders',
  Product: 'products',
  ProductVariant: 'product_variants',
  SellingPlan: 'selling_plans',
  SellingPlanGroup: 'selling_plan_groups',
  SubscriptionBillingAttempt: 'billing_attempts',
  SubscriptionContract: 'subscription_contracts',
}

/**
 * One of `ids` (of GID `type`) that another shop's mirror holds and this shop's does not, else
 * null. Tables are keyed (shop_id, id) with no index on id alone, so this shop is probed first
 * (the usual case: the resource is its own) and only the ids it lacks are looked for shop by
 * shop (one primary-key probe per shop, forced by the lateral join, never a scan of the table).
 */
export async function mirrorOwnsIds(
  db: DbClient,
  shopId: string,
  type: string,
  ids: string[],
): Promise<string | null> {
  const table = MIRROR_TABLES[type]
  if (!table || ids.length === 0) return null
  const own = await db.query<{ id: string }>(
    `select id::text as id from ${table} where shop_id = $1 and id = any($2::bigint[])`,
    [shopId, ids],
  )
  const known = new Set(own.rows.map((r) => r.id))
  const unknown = ids.filter((id) => !known.has(id))
  if (unknown.length === 0) return null
  const { rows } = await db.query<{ id: string }>(
    `select x.id::text as id from shops s cross join lateral (
       select o.id from ${table} o where o.shop_id = s.id and o.id = any($2::bigint[]) limit 1
     ) x where s.id <> $1 limit 1`,
    [shopId, unknown],
  )
  return rows[0]?.id ?? null
}

/**
 * Claims a delivery inside the applying transaction. False when it was already applied; a
 * concurrent copy of the same delivery waits on the unique key until the first commits.
 */
export async function recordDelivery(
  db: DbClient,
  delivery: { shopId: string; webhookId: string; topic: string; eventId: string | null; receivedAt: Date },
): Promise<boolean> {
  // No conflict target: a second webhook id of an already applied event is a conflict too.
  const { rowCount } = await db.query(
    `insert into webhook_deliveries (shop_id, webhook_id, topic, event_id, received_at, processed_at)
     values ($1, $2, $3, $4, $5, now()) on conflict do nothing`,
    [delivery.shopId, delivery.webhookId, delivery.topic, delivery.eventId, delivery.receivedAt],
  )
  return rowCount === 1
}

/** After a group update: plans the group no longer has. */
/**
 * Marks the shop uninstalled and forgets its token: only the token the platform has just
 * refused, so a re-install that stored a new token meanwhile is left alone. (The unsigned
 * X-Shopify-Triggered-At no longer decides anything here: the refusal is the proof.)
 */
export async function markUninstalled(db: DbClient, shopId: string, refusedToken: string): Promise<void> {
  await db.query(
    `update shops set uninstalled_at = now(), access_token = null
     where id = $1 and access_token = $2 and uninstalled_at is null`,
    [shopId, refusedToken],
  )
}

/**
 * customers/redact (and customers/delete): everything the app holds that names the customer
 * goes (issue 15, ADR 0017 "what is erased where"). The customer row stays, blank, so reports
 * keep their counts and the contracts their customer id: name, email, phone, address and tags
 * are cleared; their contracts lose the copied name, the shipping address, the payment method
 * (a PayPal account is an email) and the note and attributes (free text about them); the mails
 * sent to their address and their tag history are deleted. contract_events is append-only and
 * holds no name, address or email (payloads carry ids, dates, amounts, statuses), so it stays.
 */
export async function redactCustomer(db: DbClient, shopId: string, customerId: string): Promise<void> {
  const { rows } = await db.query<{ email: string | null }>(
    'select email from customers where shop_id = $1 and id = $2',
    [shopId, customerId],
  )
  const email = rows[0]?.email ?? null
  await db.query(
    `update customers set first_name = null, last_name = null, display_name = '', name_key = '', email = null,
       phone = null, phone_rev = null, default_address = null, tags = '{}'
     where shop_id = $1 and id = $2`,
    [shopId, customerId],
  )
  await db.query(
    `update subscription_contracts set customer_display_name = '', delivery_method = null, payment_method = null,
       note = null, custom_attributes = '[]'
     where shop_id = $1 and customer_id = $2`,
    [shopId, customerId],
  )
  await db.query('delete from customer_tag_events where shop_id = $1 and customer_id = $2', [
    shopId,
    customerId,
  ])
  if (email) {
    await db.query('delete from mail_outbox where shop_id = $1 and lower(to_address) = lower($2)', [
      shopId,
      email,
    ])
  }
}

export async function hasCustomer(db: DbClient, shopId: string, customerId: string): Promise<boolean> {
  const { rowCount } = await db.query('select 1 from customers where shop_id = $1 and id = $2', [
    shopId,
    customerId,
  ])
  return (rowCount ?? 0) > 0
}

/** shop/redact: every row of the shop goes (all tables cascade from shops). */
export async function deleteShop(db: DbClient, shopId: string): Promise<void> {
  await db.query('delete from shops where id = $1', [shopId])
}

/** Whether the mirror already holds the order with its total (orders are read once, at creation). */
/** What the mirror keeps of an order that an order update could change; null when not held. */
export function heldOrderMoney(db: DbClient, shopId: string, orderId: string) {
  return queryRow<{ total: string | null; refunded: string; cancelled: boolean }>(
    db,
    `select total_amount::text as total, refunded_amount::text as refunded, cancelled_at is not null as cancelled
     from orders where shop_id = $1 and id = $2`,
    [shopId, orderId],
  )
}

export async function holdsOrder(db: DbClient, shopId: string, orderId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'select 1 from orders where shop_id = $1 and id = $2 and total_amount is not null',
    [shopId, orderId],
  )
  return (rowCount ?? 0) > 0
}

/**
 * How the mirror's contract stands to revision `revisionId`: `current` when it holds that
 * revision or a later one (revisions are increasing integers; one that is not is compared for
 * equality only), `behind` when it holds an earlier one, `absent` when it holds none.
 */
export async function heldRevision(
  db: DbClient,
  shopId: string,
  contractId: string,
  revisionId: string,
): Promise<'current' | 'behind' | 'absent'> {
  const { rows } = await db.query<{ revision_id: string | null }>(
    'select revision_id from subscription_contracts where shop_id = $1 and id = $2',
    [shopId, contractId],
  )
  if (rows.length === 0) return 'absent'
  const held = rows[0]!.revision_id
  if (held === null) return 'behind'
  if (/^\d+$/.test(held) && /^\d+$/.test(revisionId)) {
    return BigInt(held) >= BigInt(revisionId) ? 'current' : 'behind'
  }
  return held === revisionId ? 'current' : 'behind'
}

/** Whether the mirror holds the customer (a new customer's first contract brings one it does not). */
export async function holdsCustomer(db: DbClient, shopId: string, customerId: string): Promise<boolean> {
  const { rowCount } = await db.query('select 1 from customers where shop_id = $1 and id = $2', [
    shopId,
    customerId,
  ])
  return (rowCount ?? 0) > 0
}
