import { type DbClient, queryRows, statement } from '../../db/pool.ts'

// SQL of the traffic feature (migration 0019, and contract_attributions of 0017).

export type HitRow = {
  shop_id: string
  event_id: string
  kind: 'page_viewed' | 'checkout_completed'
  client_id: string
  source: string
  medium: string
  campaign: string
  content: string
  order_id: string | null
}

/**
 * Stores a batch of hits in one statement (group commit) and adds the new page views to the
 * per day counts in `slot` (0–7: the ingest queue gives each of its concurrent writers its
 * own, so two batches in flight never wait for each other's row locks on the same day's
 * counts); a known event id is dropped by the primary key. Returns the stored ids. A prepared
 * statement: planned once per connection, not once per batch (half the database's CPU).
 */
export async function insertHits(db: DbClient, hits: HitRow[], slot: number): Promise<Set<string>> {
  const { rows } = await db.query<{ key: string }>(
    statement(
      'traffic-insert-hits',
      `with incoming as (
       select * from jsonb_to_recordset($1::jsonb) as r(shop_id bigint, event_id text, kind text, client_id text,
         source text, medium text, campaign text, content text, order_id bigint)
     ), ins as (
       insert into traffic_hits (shop_id, event_id, kind, client_id, source, medium, campaign, content, order_id)
       select shop_id, event_id, kind, client_id, source, medium, campaign, content, order_id from incoming
       on conflict (shop_id, event_id) do nothing
       returning shop_id, event_id, kind, occurred_at, source, medium, campaign, content
     ), daily as (
       insert into traffic_daily as t (shop_id, day, source, medium, campaign, content, slot, views)
       select i.shop_id, (i.occurred_at at time zone s.iana_timezone)::date, i.source, i.medium, i.campaign,
         i.content, $2::smallint, count(*)
       from ins i join shops s on s.id = i.shop_id
       where i.kind = 'page_viewed'
       group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6
       on conflict (shop_id, day, source, medium, campaign, content, slot) do update set views = t.views + excluded.views
       returning 1
     )
     select shop_id || ':' || event_id as key from ins`,
      [JSON.stringify(hits), slot],
    ),
  )
  return new Set(rows.map((r) => r.key))
}

/**
 * The shop's pixel key, made on first use. The no-op update returns the stored key also when a
 * concurrent first request made it (a plain `do nothing` would return nothing, and a re-read in
 * the same snapshot would not see it).
 */
export async function pixelKey(db: DbClient, shopId: string, fresh: string): Promise<string> {
  const { rows } = await db.query<{ key: string }>(
    `insert into traffic_pixel_keys as k (shop_id, key) values ($1, $2)
     on conflict (shop_id) do update set key = k.key returning key`,
    [shopId, fresh],
  )
  return rows[0]!.key
}

/** The shop id and pixel key of an installed shop's domain (null when either is missing). */
export async function shopPixelKey(
  db: DbClient,
  domain: string,
): Promise<{ shopId: string; key: string } | null> {
  const { rows } = await db.query<{ shop_id: string; key: string }>(
    `select s.id::text as shop_id, k.key from shops s join traffic_pixel_keys k on k.shop_id = s.id
     where s.domain = $1 and s.uninstalled_at is null`,
    [domain],
  )
  return rows[0] ? { shopId: rows[0].shop_id, key: rows[0].key } : null
}

export type PendingCheckout = {
  event_id: string
  client_id: string
  occurred_at: Date
  contract_id: string | null
  customer_id: string | null
}

/** Checkouts of the last 2 days not settled yet, with the contract their order made (if any yet). */
export function pendingCheckouts(db: DbClient, shopId: string) {
  return queryRows<PendingCheckout>(
    db,
    `select h.event_id, h.client_id, h.occurred_at, c.id::text as contract_id, c.customer_id::text as customer_id
     from traffic_hits h
     left join subscription_contracts c on c.shop_id = h.shop_id and c.origin_order_id = h.order_id
     where h.shop_id = $1 and h.kind = 'checkout_completed' and not h.settled
       and h.occurred_at > now() - interval '2 days'
     order by h.occurred_at limit 500`,
    [shopId],
  )
}

/** The non-direct page views of a browser in the 30 days up to `until`, newest first. */
export async function touchesOf(db: DbClient, shopId: string, clientId: string, until: Date) {
  const { rows } = await db.query<{
    source: string
    medium: string
    campaign: string
    content: string
    occurred_at: Date
  }>(
    `select source, medium, campaign, content, occurred_at from traffic_hits
     where shop_id = $1 and client_id = $2 and kind = 'page_viewed' and source <> ''
       and occurred_at <= $3 and occurred_at >= $3::timestamptz - interval '30 days'
     order by occurred_at desc limit 50`,
    [shopId, clientId, until],
  )
  return rows
}

/** Writes a contract's attribution (the first decision stays) and settles the checkout. */
export async function attribute(
  db: DbClient,
  shopId: string,
  eventId: string,
  row: {
    contractId: string
    customerId: string | null
    touch: { source: string; medium: string; campaign: string; content: string; occurredAt: Date } | null
  },
): Promise<void> {
  if (row.touch) {
    const t = row.touch
    await db.query(
      `insert into contract_attributions (shop_id, contract_id, customer_id, source, medium, campaign, content, touched_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (shop_id, contract_id) do nothing`,
      [shopId, row.contractId, row.customerId, t.source, t.medium, t.campaign, t.content, t.occurredAt],
    )
  }
  await db.query('update traffic_hits set settled = true where shop_id = $1 and event_id = $2', [
    shopId,
    eventId,
  ])
}

/** Shops with unsettled checkouts of the last 2 days (the sweep's work list). */
export async function shopsWithPendingCheckouts(db: DbClient): Promise<string[]> {
  const { rows } = await db.query<{ shop_id: string }>(
    `select distinct shop_id::text from traffic_hits
     where kind = 'checkout_completed' and not settled and occurred_at > now() - interval '2 days'`,
  )
  return rows.map((r) => r.shop_id)
}
