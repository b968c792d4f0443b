import type { DbClient } from '../db/pool.ts'

// Each writer takes a page of rows as one JSON parameter and upserts them with a single
// statement (jsonb_to_recordset): one round trip per page instead of one per row.

export type CustomerRecord = {
  id: string
  first_name: string | null
  last_name: string | null
  display_name: string
  name_key: string
  email: string | null
  phone: string | null
  phone_rev: string | null
  default_address: unknown
  /** Null: not read (the mirror keeps the tags it has). */
  tags?: string[] | null
  created_at: string
  updated_at: string
}

export async function upsertCustomers(db: DbClient, shopId: string, rows: CustomerRecord[]): Promise<void> {
  if (rows.length === 0) return
  // Rows read with their tags replace the mirror's tags; rows read without keep them.
  const withTags = rows.filter((row) => Array.isArray(row.tags))
  const withoutTags = rows.filter((row) => !Array.isArray(row.tags))
  for (const [part, tagsKnown] of [
    [withTags, true],
    [withoutTags, false],
  ] as const) {
    if (part.length > 0) await upsertCustomerRows(db, shopId, part, tagsKnown)
  }
}

async function upsertCustomerRows(
  db: DbClient,
  shopId: string,
  rows: CustomerRecord[],
  tagsKnown: boolean,
): Promise<void> {
  await db.query(
    `insert into customers (shop_id, id, first_name, last_name, display_name, name_key, email, phone, phone_rev,
       default_address, tags, created_at, updated_at)
     select $1, r.id, r.first_name, r.last_name, r.display_name, r.name_key, r.email, r.phone, r.phone_rev,
       r.default_address, coalesce(r.tags, '{}'), r.created_at, r.updated_at
     from jsonb_to_recordset($2::jsonb) as r(id bigint, first_name text, last_name text, display_name text,
       name_key text, email text, phone text, phone_rev text, default_address jsonb, tags text[],
       created_at timestamptz, updated_at timestamptz)
     on conflict (shop_id, id) do update set first_name = excluded.first_name, last_name = excluded.last_name,
       display_name = excluded.display_name, name_key = excluded.name_key, email = excluded.email,
       phone = excluded.phone, phone_rev = excluded.phone_rev, default_address = excluded.default_address,
       tags = case when $3 then excluded.tags else customers.tags end,
       created_at = excluded.created_at, updated_at = excluded.updated_at
     where customers.updated_at is null or customers.updated_at <= excluded.updated_at`,
    [shopId, JSON.stringify(rows), tagsKnown],
  )
  // Contracts carry their customer's name for the list (migration 0003).
  await db.query(
    `update subscription_contracts c set customer_display_name = cu.display_name
     from customers cu
     where cu.shop_id = $1 and cu.id = any($2::bigint[]) and c.shop_id = $1 and c.customer_id = cu.id
       and c.customer_display_name is distinct from cu.display_name`,
    [shopId, rows.map((row) => row.id)],
  )
}

export type ProductRecord = {
  id: string
  title: string
  handle: string
  status: string
  image_url: string | null
  updated_at: string
}
export type VariantRecord = {
  id: string
  product_id: string
  title: string
  sku: string | null
  price: string | null
}

export async function upsertProducts(
  db: DbClient,
  shopId: string,
  products: ProductRecord[],
  variants: VariantRecord[],
): Promise<void> {
  if (products.length > 0) {
    await db.query(
      `insert into products (shop_id, id, title, handle, status, image_url, updated_at)
       select $1, r.id, r.title, r.handle, r.status, r.image_url, r.updated_at
       from jsonb_to_recordset($2::jsonb) as r(id bigint, title text, handle text, status text, image_url text,
         updated_at timestamptz)
       on conflict (shop_id, id) do update set title = excluded.title, handle = excluded.handle,
         status = excluded.status, image_url = excluded.image_url, updated_at = excluded.updated_at`,
      [shopId, JSON.stringify(products)],
    )
  }
  if (variants.length > 0) {
    await db.query(
      `insert into product_variants (shop_id, id, product_id, title, sku, price)
       select $1, r.id, r.product_id, r.title, r.sku, r.price
       from jsonb_to_recordset($2::jsonb) as r(id bigint, product_id bigint, title text, sku text, price numeric)
       on conflict (shop_id, id) do update set product_id = excluded.product_id, title = excluded.title,
         sku = excluded.sku, price = excluded.price`,
      [shopId, JSON.stringify(variants)],
    )
  }
}

export type SellingPlanGroupRecord = {
  id: string
  name: string
  merchant_code: string | null
  products_count: number
  product_variants_count: number
  created_at: string
}
export type SellingPlanRecord = {
  id: string
  group_id: string
  name: string
  description: string | null
  category: string | null
  options: string[]
  billing_policy: unknown
  delivery_policy: unknown
  pricing_policies: unknown
}

export async function upsertSellingPlanGroups(
  db: DbClient,
  shopId: string,
  groups: SellingPlanGroupRecord[],
  plans: SellingPlanRecord[],
): Promise<void> {
  if (groups.length > 0) {
    await db.query(
      `insert into selling_plan_groups (shop_id, id, name, merchant_code, products_count, product_variants_count, created_at)
       select $1, r.id, r.name, r.merchant_code, r.products_count, r.product_variants_count, r.created_at
       from jsonb_to_recordset($2::jsonb) as r(id bigint, name text, merchant_code text, products_count int,
         product_variants_count int, created_at timestamptz)
       on conflict (shop_id, id) do update set name = excluded.name, merchant_code = excluded.merchant_code,
         products_count = excluded.products_count, product_variants_count = excluded.product_variants_count`,
      [shopId, JSON.stringify(groups)],
    )
  }
  if (plans.length > 0) {
    await db.query(
      `insert into selling_plans (shop_id, id, group_id, name, description, category, options, billing_policy,
         delivery_policy, pricing_policies)
       select $1, r.id, r.group_id, r.name, r.description, r.category,
         array(select jsonb_array_elements_text(r.options)), r.billing_policy, r.delivery_policy, r.pricing_policies
       from jsonb_to_recordset($2::jsonb) as r(id bigint, group_id bigint, name text, description text,
         category text, options jsonb, billing_policy jsonb, delivery_policy jsonb, pricing_policies jsonb)
       on conflict (shop_id, id) do update set group_id = excluded.group_id, name = excluded.name,
         description = excluded.description, category = excluded.category, options = excluded.options,
         billing_policy = excluded.billing_policy, delivery_policy = excluded.delivery_policy,
         pricing_policies = excluded.pricing_policies`,
      [shopId, JSON.stringify(plans)],
    )
  }
}

export type OrderRecord = {
  id: string
  name: string | null
  /** Null when the order was not read through its contract (then a stored link is kept). */
  contract_id: string | null
  customer_id: string | null
  total_amount: string | null
  /** Refunded so far (Order.totalRefundedSet); null when not read (a stored amount is kept). */
  refunded_amount: string | null
  currency_code: string | null
  test: boolean
  created_at: string
  cancelled_at: string | null
}

const ORDER_COLUMNS = `id bigint, name text, contract_id bigint, customer_id bigint, total_amount numeric,
  refunded_amount numeric, currency_code text, test boolean, created_at timestamptz, cancelled_at timestamptz`

/** One row per id (an origin order shared by two contracts comes twice): the first wins. */
function distinctOrders(rows: OrderRecord[]): OrderRecord[] {
  const seen = new Set<string>()
  return rows.filter((row) => !seen.has(row.id) && seen.add(row.id))
}

/**
 * Upserts orders with the rules of upsertOrder (one order, webhooks and billing): a
 * known contract link or value is never cleared by a row that lacks it, and a cancellation
 * stays (orders are not un-cancelled), and so does a refund (the refunded amount only grows: a
 * page read before a refund and written after it cannot take it back). Rows that would not change are not rewritten, so a sync
 * run again writes nothing. Rows are taken in id order, so two writers that share orders lock
 * them in the same order. Returns how many rows were inserted or changed.
 */
export async function upsertOrders(db: DbClient, shopId: string, rows: OrderRecord[]): Promise<number> {
  if (rows.length === 0) return 0
  const { rowCount } = await db.query(
    `insert into orders as o (shop_id, id, name, contract_id, customer_id, total_amount, refunded_amount,
       currency_code, test, created_at, cancelled_at)
     select $1, r.id, r.name, r.contract_id, r.customer_id, r.total_amount, coalesce(r.refunded_amount, 0),
       r.currency_code, r.test, r.created_at, r.cancelled_at
     from jsonb_to_recordset($2::jsonb) as r(${ORDER_COLUMNS})
     order by r.id
     on conflict (shop_id, id) do update set name = coalesce(excluded.name, o.name),
       contract_id = coalesce(excluded.contract_id, o.contract_id),
       customer_id = coalesce(excluded.customer_id, o.customer_id),
       total_amount = coalesce(excluded.total_amount, o.total_amount),
       refunded_amount = greatest(excluded.refunded_amount, o.refunded_amount),
       currency_code = coalesce(excluded.currency_code, o.currency_code),
       test = excluded.test, cancelled_at = coalesce(excluded.cancelled_at, o.cancelled_at)
     where (o.name, o.contract_id, o.customer_id, o.total_amount, o.refunded_amount, o.currency_code, o.test,
         o.cancelled_at)
       is distinct from (coalesce(excluded.name, o.name), coalesce(excluded.contract_id, o.contract_id),
         coalesce(excluded.customer_id, o.customer_id), coalesce(excluded.total_amount, o.total_amount),
         greatest(excluded.refunded_amount, o.refunded_amount),
         coalesce(excluded.currency_code, o.currency_code), excluded.test,
         coalesce(excluded.cancelled_at, o.cancelled_at))`,
    [shopId, JSON.stringify(distinctOrders(rows))],
  )
  return rowCount ?? 0
}

/**
 * Refreshes orders the mirror already holds (same rules as upsertOrders, contract link kept);
 * orders it does not hold are left out, their contract being unknown. Returns how many changed.
 */
export async function refreshOrders(db: DbClient, shopId: string, rows: OrderRecord[]): Promise<number> {
  if (rows.length === 0) return 0
  const { rowCount } = await db.query(
    `update orders o set name = coalesce(r.name, o.name), customer_id = coalesce(r.customer_id, o.customer_id),
       total_amount = coalesce(r.total_amount, o.total_amount),
       refunded_amount = greatest(r.refunded_amount, o.refunded_amount),
       currency_code = coalesce(r.currency_code, o.currency_code), test = r.test,
       cancelled_at = coalesce(r.cancelled_at, o.cancelled_at)
     from jsonb_to_recordset($2::jsonb) as r(${ORDER_COLUMNS})
     where o.shop_id = $1 and o.id = r.id
       -- The keys as an index condition (as in keepContractLinePricing): not every order of the shop.
       and o.id = any(array(select (e->>'id')::bigint from jsonb_array_elements($2::jsonb) e))
       and (o.name, o.customer_id, o.total_amount, o.refunded_amount, o.currency_code, o.test, o.cancelled_at)
         is distinct from (coalesce(r.name, o.name), coalesce(r.customer_id, o.customer_id),
           coalesce(r.total_amount, o.total_amount), greatest(r.refunded_amount, o.refunded_amount),
           coalesce(r.currency_code, o.currency_code), r.test, coalesce(r.cancelled_at, o.cancelled_at))`,
    [shopId, JSON.stringify(distinctOrders(rows))],
  )
  return rowCount ?? 0
}

/**
 * Upserts an order; a known contract link is never cleared by a payload that lacks it. An order
 * read without its customer (a billing attempt's) takes the customer of its contract.
 */
export async function upsertOrder(db: DbClient, shopId: string, o: OrderRecord): Promise<void> {
  // An order that may be a contract's origin takes the link lock first, as the contract's
  // webhook does (linkOriginOrder): callers run this in a transaction (the lock holds to commit).
  if (o.contract_id === null) await lockOrderLink(db, shopId, o.id)
  await db.query(
    // An order with no contract named may be a contract's origin order (checkout): linked to it,
    // so the contract's order count (and with it the cycle the next charge is priced for) counts it.
    `insert into orders (shop_id, id, name, contract_id, customer_id, total_amount, currency_code, test, created_at,
       cancelled_at, refunded_amount)
     values ($1, $2, $3,
       coalesce($4::bigint, (select c.id from subscription_contracts c where c.shop_id = $1 and c.origin_order_id = $2
         order by c.id limit 1)),
       coalesce($5::bigint, (select c.customer_id from subscription_contracts c where c.shop_id = $1 and c.id = $4)),
       $6, $7, $8, $9, $10, coalesce($11::numeric, 0))
     on conflict (shop_id, id) do update set name = coalesce(excluded.name, orders.name),
       contract_id = coalesce(excluded.contract_id, orders.contract_id),
       customer_id = coalesce(excluded.customer_id, orders.customer_id),
       total_amount = coalesce(excluded.total_amount, orders.total_amount),
       refunded_amount = greatest(excluded.refunded_amount, orders.refunded_amount),
       currency_code = coalesce(excluded.currency_code, orders.currency_code),
       test = excluded.test, cancelled_at = coalesce(excluded.cancelled_at, orders.cancelled_at)
     -- An echo of what the mirror holds (a webhook after the billing engine's own write) writes
     -- nothing, so the rollups' triggers have nothing to do.
     where (orders.name, orders.contract_id, orders.customer_id, orders.total_amount, orders.refunded_amount,
         orders.currency_code, orders.test, orders.cancelled_at)
       is distinct from (coalesce(excluded.name, orders.name), coalesce(excluded.contract_id, orders.contract_id),
         coalesce(excluded.customer_id, orders.customer_id), coalesce(excluded.total_amount, orders.total_amount),
         greatest(excluded.refunded_amount, orders.refunded_amount),
         coalesce(excluded.currency_code, orders.currency_code), excluded.test,
         coalesce(excluded.cancelled_at, orders.cancelled_at))`,
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
      o.refunded_amount,
    ],
  )
}

/**
 * Links a contract's origin order (its checkout) to it when the mirror holds the order unlinked:
 * orders/create may arrive before subscription_contracts/create, and names no contract.
 */
export async function linkOriginOrder(
  db: DbClient,
  shopId: string,
  contractId: string,
  originOrderId: string,
): Promise<void> {
  await lockOrderLink(db, shopId, originOrderId)
  await db.query(
    'update orders set contract_id = $2 where shop_id = $1 and id = $3 and contract_id is null',
    [shopId, contractId, originOrderId],
  )
}

/**
 * Serialises the two halves of linking a checkout's order to its contract until commit: the
 * order's webhook (insert, linked to a contract naming it as its origin) and the contract's
 * (link the order if it is there). Delivered at once, each otherwise ran before the other
 * committed, both saw nothing to link, and the order stayed without its contract. After the
 * lock, the other transaction's statement sees what the first committed (read committed).
 */
async function lockOrderLink(db: DbClient, shopId: string, orderId: string): Promise<void> {
  await db.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`order-link:${shopId}:${orderId}`])
}

/** The tables a first sync fills, and the rollups their triggers keep. */
const SYNCED_TABLES = [
  'customers',
  'products',
  'product_variants',
  'selling_plan_groups',
  'selling_plans',
  'subscription_contracts',
  'subscription_lines',
  'orders',
  'contract_events',
  'customer_totals',
  'ltv_months',
  'report_contracts',
]

/**
 * Gives the planner the shop's real size after a first sync: until autovacuum's next pass (a
 * minute or more on PostgreSQL; never on the embedded PGlite, which has no autovacuum) it
 * plans from the empty tables' statistics, and a billing run right after the sync read a
 * shop's every cycle or contract for one (test/order-write-growth.test.ts).
 */
export async function analyzeSyncedTables(db: DbClient): Promise<void> {
  await db.query(`analyze ${SYNCED_TABLES.join(', ')}`)
}
