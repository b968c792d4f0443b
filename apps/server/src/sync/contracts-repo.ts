import type { DbClient } from '../db/pool.ts'

export type ContractRecord = {
  id: string
  status: string
  customer_id: string
  next_billing_date: string | null
  currency_code: string
  interval: string | null
  interval_count: number | null
  billing_policy: unknown
  delivery_policy: unknown
  delivery_price: string | null
  delivery_method: unknown
  payment_method: unknown
  custom_attributes: unknown
  note: string | null
  last_payment_status: string | null
  origin_order_id: string | null
  revision_id: string | null
  created_at: string
  updated_at: string
}

export type LineRecord = {
  contract_id: string
  id: string
  product_id: string | null
  variant_id: string | null
  title: string
  variant_title: string | null
  sku: string | null
  quantity: number
  selling_plan_id: string | null
  selling_plan_name: string | null
  current_price: string | null
  variant_image_url: string | null
  position: number
}

export type ContractChange = {
  id: string
  previous_status: string | null
  status: string
  created_at: Date
  updated_at: Date
}

/**
 * Upserts a page of contracts and replaces their lines, keeping the newer state: a row whose
 * stored updated_at is later than the incoming one is left alone (an old sync page or a
 * replayed webhook never moves a contract backwards). Returns what changed, for events.
 */
export async function upsertContracts(
  db: DbClient,
  shopId: string,
  contracts: ContractRecord[],
  lines: LineRecord[],
): Promise<ContractChange[]> {
  if (contracts.length === 0) return []
  const { rows } = await db.query<ContractChange>(
    `with incoming as (
       select * from jsonb_to_recordset($2::jsonb) as r(id bigint, status text, customer_id bigint,
         next_billing_date timestamptz, currency_code text, interval text, interval_count int, billing_policy jsonb,
         delivery_policy jsonb, delivery_price numeric, delivery_method jsonb, payment_method jsonb,
         custom_attributes jsonb, note text, last_payment_status text, origin_order_id bigint, revision_id text,
         created_at timestamptz, updated_at timestamptz)
     ), previous as (
       -- One primary-key probe per incoming contract (the limit keeps the planner from turning
       -- it into a join): a generic plan cannot see that a settlement passes one contract, and
       -- hashed the shop's every contract for it (test/order-write-growth.test.ts).
       select c.id, c.status from incoming i
       cross join lateral (
         select c.id, c.status from subscription_contracts c where c.shop_id = $1 and c.id = i.id limit 1
       ) c
     ), written as (
       insert into subscription_contracts as c (shop_id, id, status, customer_id, next_billing_date, currency_code,
         interval, interval_count, billing_policy, delivery_policy, delivery_price, delivery_method, payment_method,
         custom_attributes, note, last_payment_status, origin_order_id, revision_id, created_at, updated_at,
         customer_display_name)
       select $1, i.id, i.status, i.customer_id, i.next_billing_date, i.currency_code, i.interval, i.interval_count,
         i.billing_policy, i.delivery_policy, i.delivery_price, i.delivery_method, i.payment_method,
         coalesce(i.custom_attributes, '[]'), i.note, i.last_payment_status, i.origin_order_id, i.revision_id,
         i.created_at, i.updated_at,
         coalesce((select cu.display_name from customers cu where cu.shop_id = $1 and cu.id = i.customer_id), '')
       from incoming i
       on conflict (shop_id, id) do update set status = excluded.status, customer_id = excluded.customer_id,
         next_billing_date = excluded.next_billing_date, currency_code = excluded.currency_code,
         interval = excluded.interval, interval_count = excluded.interval_count,
         billing_policy = excluded.billing_policy, delivery_policy = excluded.delivery_policy,
         delivery_price = excluded.delivery_price, delivery_method = excluded.delivery_method,
         payment_method = excluded.payment_method, custom_attributes = excluded.custom_attributes,
         note = excluded.note, last_payment_status = excluded.last_payment_status,
         origin_order_id = excluded.origin_order_id, revision_id = excluded.revision_id,
         updated_at = excluded.updated_at, customer_display_name = excluded.customer_display_name
       where c.updated_at <= excluded.updated_at
       returning c.id, c.status, c.created_at, c.updated_at
     )
     select w.id, p.status as previous_status, w.status, w.created_at, w.updated_at
     from written w left join previous p on p.id = w.id`,
    [shopId, JSON.stringify(contracts)],
  )
  const written = rows.map((row) => row.id)
  if (written.length > 0) {
    await db.query('delete from subscription_lines where shop_id = $1 and contract_id = any($2::bigint[])', [
      shopId,
      written,
    ])
    const kept = new Set(written.map(String))
    const keptLines = lines.filter((line) => kept.has(line.contract_id))
    if (keptLines.length > 0) {
      await db.query(
        `insert into subscription_lines (shop_id, contract_id, id, product_id, variant_id, title, variant_title, sku,
           quantity, selling_plan_id, selling_plan_name, current_price, variant_image_url, position)
         select $1, r.contract_id, r.id, r.product_id, r.variant_id, r.title, r.variant_title, r.sku, r.quantity,
           r.selling_plan_id, r.selling_plan_name, r.current_price, r.variant_image_url, r.position
         from jsonb_to_recordset($2::jsonb) as r(contract_id bigint, id text, product_id bigint, variant_id bigint,
           title text, variant_title text, sku text, quantity int, selling_plan_id bigint, selling_plan_name text,
           current_price numeric, variant_image_url text, position int)`,
        [shopId, JSON.stringify(keptLines)],
      )
    }
  }
  return rows
}

/**
 * Appends `created` and `status_changed` events for what a sync, webhook or app action
 * changed. `extra` is merged into the payload of real (not inferred) status moves, e.g. the
 * merchant's cancellation reason.
 */
export async function appendContractEvents(
  db: DbClient,
  shopId: string,
  source: 'sync' | 'webhook' | 'app' | 'billing',
  changes: ContractChange[],
  extra: Record<string, unknown> = {},
): Promise<number> {
  const events = changes.flatMap((change) => {
    if (change.previous_status === null) {
      const created = { contract_id: change.id, type: 'created', occurred_at: change.created_at, payload: {} }
      if (change.status === 'ACTIVE') return [created]
      // First seen in another status: the platform does not tell when it left ACTIVE, so the
      // move is dated at its last update and marked inferred for the reports.
      const moved = {
        contract_id: change.id,
        type: 'status_changed',
        occurred_at: change.updated_at,
        payload: { from: 'ACTIVE', to: change.status, inferred: true },
      }
      return [created, moved]
    }
    if (change.previous_status !== change.status) {
      return [
        {
          contract_id: change.id,
          type: 'status_changed',
          occurred_at: change.updated_at,
          payload: { ...extra, from: change.previous_status, to: change.status },
        },
      ]
    }
    return []
  })
  if (events.length === 0) return 0
  await db.query(
    `insert into contract_events (shop_id, contract_id, type, occurred_at, source, payload)
     select $1, r.contract_id, r.type, r.occurred_at, $2, r.payload
     from jsonb_to_recordset($3::jsonb) as r(contract_id bigint, type text, occurred_at timestamptz, payload jsonb)`,
    [shopId, source, JSON.stringify(events)],
  )
  return events.length
}

/**
 * Appends one history row that is not a status move (`billed`, `line_added`, …). Without
 * `occurredAt` the row is dated by the database clock (the transaction's start).
 */
export async function appendContractEvent(
  db: DbClient,
  shopId: string,
  source: 'sync' | 'webhook' | 'app' | 'billing',
  event: { contractId: string; type: string; occurredAt?: string | Date; payload: Record<string, unknown> },
): Promise<void> {
  await db.query(
    `insert into contract_events (shop_id, contract_id, type, occurred_at, source, payload)
     values ($1, $2, $3, coalesce($4::timestamptz, now()), $5, $6)`,
    [shopId, event.contractId, event.type, event.occurredAt ?? null, source, JSON.stringify(event.payload)],
  )
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

/**
 * What a mutation of the app's own answered about a contract, laid over the mirrored row
 * without reading the whole contract again: its status, next billing date, updatedAt and
 * revision, and what the app set (attributes, line prices, the payment status the platform
 * records with a charge). Skipped when the mirror already holds a newer state.
 */
export type ContractPatch = {
  status: string
  nextBillingDate: string | null
  updatedAt: string
  revisionId: string | null
  customAttributes?: Array<{ key: string; value: string | null }>
  lastPaymentStatus?: string
  linePrices?: Array<{ lineId: string; price: string }>
}

/** Applies a patch; the change (for status events), or none when a newer state was there. */
export async function patchContract(
  db: DbClient,
  shopId: string,
  contractId: string,
  patch: ContractPatch,
): Promise<ContractChange[]> {
  const { rows } = await db.query<ContractChange>(
    `with previous as (
       select status from subscription_contracts where shop_id = $1 and id = $2
     )
     update subscription_contracts c set status = $3, next_billing_date = $4, updated_at = $5, revision_id = $6,
       custom_attributes = coalesce($7::jsonb, c.custom_attributes),
       last_payment_status = coalesce($8, c.last_payment_status)
     where c.shop_id = $1 and c.id = $2 and c.updated_at <= $5
     returning c.id::text, (select status from previous) as previous_status, c.status, c.created_at, c.updated_at`,
    [
      shopId,
      contractId,
      patch.status,
      patch.nextBillingDate,
      patch.updatedAt,
      patch.revisionId,
      patch.customAttributes ? JSON.stringify(patch.customAttributes) : null,
      patch.lastPaymentStatus ?? null,
    ],
  )
  if (rows.length > 0 && patch.linePrices && patch.linePrices.length > 0) {
    await db.query(
      `update subscription_lines l set current_price = r.price
       from jsonb_to_recordset($3::jsonb) as r(line_id text, price numeric)
       where l.shop_id = $1 and l.contract_id = $2 and l.id = r.line_id`,
      [
        shopId,
        contractId,
        JSON.stringify(patch.linePrices.map((p) => ({ line_id: p.lineId, price: p.price }))),
      ],
    )
  }
  return rows
}

/** How many contracts the mirror holds for the shop (sizes a sync's export parts). */
export async function mirroredContractCount(db: DbClient, shopId: string): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    'select count(*) as n from subscription_contracts where shop_id = $1',
    [shopId],
  )
  return Number(rows[0]?.n ?? 0)
}

/** The shop's contracts, counted up to `limit` (the prep-days rule looks at 5: spec §9). */
export async function countContractsUpTo(db: DbClient, shopId: string, limit: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'select count(*)::int as n from (select 1 from subscription_contracts where shop_id = $1 limit $2) c',
    [shopId, limit],
  )
  return rows[0]!.n
}
