import type { DbClient } from '../../db/pool.ts'
import type { OrderRecord } from '../../sync/mirror-repo.ts'

/** A shop as webhooks see it: uninstalled shops included, the compliance topics need them. */
export type WebhookShop = {
  id: string
  domain: string
  access_token: string | null
  uninstalled_at: Date | null
}

export async function findShopForWebhook(db: DbClient, domain: string): Promise<WebhookShop | null> {
  const { rows } = await db.query<WebhookShop>(
    'select id, domain, access_token, uninstalled_at from shops where domain = $1',
    [domain],
  )
  return rows[0] ?? null
}

export async function isDelivered(db: DbClient, shopId: string, webhookId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'select 1 from webhook_deliveries where shop_id = $1 and webhook_id = $2',
    [shopId, webhookId],
  )
  return (rowCount ?? 0) > 0
}

/**
 * Claims a delivery inside the applying transaction. False when it was already applied; a
 * concurrent copy of the same delivery waits on the unique key until the first commits.
 */
export async function recordDelivery(
  db: DbClient,
  delivery: { shopId: string; webhookId: string; topic: string; receivedAt: Date },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `insert into webhook_deliveries (shop_id, webhook_id, topic, received_at, processed_at)
     values ($1, $2, $3, $4, now()) on conflict (shop_id, webhook_id) do nothing`,
    [delivery.shopId, delivery.webhookId, delivery.topic, delivery.receivedAt],
  )
  return rowCount === 1
}

/**
 * Serialises writers of one contract until commit. The contract upsert decides which events
 * to append from the row it read; two deliveries about the same contract (pause + update
 * arrive together) would otherwise both see the old status and log the move twice.
 */
export async function lockContract(db: DbClient, shopId: string, contractId: string): Promise<void> {
  await db.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [
    `contract:${shopId}:${contractId}`,
  ])
}

export type BillingAttemptRecord = {
  id: string
  contract_id: string
  idempotency_key: string
  ready: boolean
  error_code: string | null
  error_message: string | null
  order_id: string | null
  created_at: string
}

/**
 * Upserts an attempt; true when the row is new or its outcome changed, so the billing event
 * is appended once per outcome even if the platform sends the outcome again.
 */
export async function upsertBillingAttempt(
  db: DbClient,
  shopId: string,
  a: BillingAttemptRecord,
): Promise<boolean> {
  const previous = await db.query<{ ready: boolean; error_code: string | null; order_id: string | null }>(
    'select ready, error_code, order_id from billing_attempts where shop_id = $1 and id = $2 for update',
    [shopId, a.id],
  )
  await db.query(
    `insert into billing_attempts (shop_id, id, contract_id, idempotency_key, created_at, ready, error_code,
       error_message, order_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     on conflict (shop_id, id) do update set ready = billing_attempts.ready or excluded.ready,
       error_code = coalesce(excluded.error_code, billing_attempts.error_code),
       error_message = coalesce(excluded.error_message, billing_attempts.error_message),
       order_id = coalesce(excluded.order_id, billing_attempts.order_id)`,
    [
      shopId,
      a.id,
      a.contract_id,
      a.idempotency_key,
      a.created_at,
      a.ready,
      a.error_code,
      a.error_message,
      a.order_id,
    ],
  )
  const before = previous.rows[0]
  if (!before) return true
  return (
    before.ready !== a.ready ||
    (before.error_code ?? null) !== a.error_code ||
    String(before.order_id ?? '') !== String(a.order_id ?? '')
  )
}

export type { OrderRecord }

/** Upserts an order; a known contract link is never cleared by a payload that lacks it. */
export async function upsertOrder(db: DbClient, shopId: string, o: OrderRecord): Promise<void> {
  await db.query(
    `insert into orders (shop_id, id, name, contract_id, customer_id, total_amount, currency_code, test, created_at,
       cancelled_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     on conflict (shop_id, id) do update set name = coalesce(excluded.name, orders.name),
       contract_id = coalesce(excluded.contract_id, orders.contract_id),
       customer_id = coalesce(excluded.customer_id, orders.customer_id),
       total_amount = coalesce(excluded.total_amount, orders.total_amount),
       currency_code = coalesce(excluded.currency_code, orders.currency_code),
       test = excluded.test, cancelled_at = coalesce(excluded.cancelled_at, orders.cancelled_at)`,
    [
      shopId,
      o.id,
      o.name,
      o.contract_id,
      o.customer_id,
      o.total_amount,
      o.currency_code,
      o.test,
      o.created_at,
      o.cancelled_at,
    ],
  )
}

/** After a group update: plans the group no longer has. */
export async function deleteSellingPlansNotIn(
  db: DbClient,
  shopId: string,
  groupId: string,
  keep: string[],
): Promise<void> {
  await db.query(
    'delete from selling_plans where shop_id = $1 and group_id = $2 and not (id = any($3::bigint[]))',
    [shopId, groupId, keep],
  )
}

export async function deleteSellingPlanGroup(db: DbClient, shopId: string, groupId: string): Promise<void> {
  await db.query('delete from selling_plan_groups where shop_id = $1 and id = $2', [shopId, groupId])
}

/**
 * Marks the shop uninstalled and forgets its token. A late delivery of an uninstall that
 * happened before the current installation (triggered before installed_at) changes nothing.
 */
export async function markUninstalled(db: DbClient, shopId: string, triggeredAt: Date | null): Promise<void> {
  await db.query(
    `update shops set uninstalled_at = now(), access_token = null
     where id = $1 and ($2::timestamptz is null or installed_at <= $2)`,
    [shopId, triggeredAt],
  )
}

/**
 * customers/redact: the customer's personal data goes, the row (and its contracts' history)
 * stays so reports keep their counts. The contract's shipping address holds the same name,
 * phone and address, so it goes too.
 */
export async function redactCustomer(db: DbClient, shopId: string, customerId: string): Promise<void> {
  await db.query(
    `update customers set first_name = null, last_name = null, display_name = '', name_key = '', email = null,
       phone = null, phone_rev = null, default_address = null
     where shop_id = $1 and id = $2`,
    [shopId, customerId],
  )
  await db.query(
    `update subscription_contracts set customer_display_name = '', delivery_method = null
     where shop_id = $1 and customer_id = $2`,
    [shopId, customerId],
  )
}

/** shop/redact: every row of the shop goes (all tables cascade from shops). */
export async function deleteShop(db: DbClient, shopId: string): Promise<void> {
  await db.query('delete from shops where id = $1', [shopId])
}
