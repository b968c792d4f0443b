import type { DbClient } from '../../db/pool.ts'

/** Test orders count only in a shop flagged test_shop (a development store: every order is a test). */
export const TEST_ORDERS_COUNT = `(not test or exists (select 1 from shop_flags f
  where f.shop_id = $1 and f.flag = 'test_shop' and f.enabled))`

// Reads of the report rollups (migration 0018). Every figure sums the 8 slots of a day; days are
// `date` columns compared as text (`YYYY-MM-DD`), so no process zone ever touches them.

export type CountColumn = 'created' | 'cancelled' | 'paused' | 'failed'
const COUNT_COLUMNS: Record<CountColumn, string> = {
  created: 'created',
  cancelled: 'cancelled',
  paused: 'paused',
  failed: 'failed',
}

/** The measure per day of the range (days without facts absent). */
export async function countsByDay(
  db: DbClient,
  shopId: string,
  measure: CountColumn | 'active_delta',
  from: string,
  to: string,
): Promise<Map<string, number>> {
  const column = measure === 'active_delta' ? 'active_delta' : COUNT_COLUMNS[measure]
  const { rows } = await db.query<{ day: string; n: number }>(
    `select day::text as day, sum(${column})::int as n from report_daily
     where shop_id = $1 and day between $2::date and $3::date group by day`,
    [shopId, from, to],
  )
  return new Map(rows.map((r) => [r.day, r.n]))
}

/** Contracts active at the start of `from`: every active delta before it. */
export async function activeBefore(db: DbClient, shopId: string, from: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'select coalesce(sum(active_delta), 0)::int as n from report_daily where shop_id = $1 and day < $2::date',
    [shopId, from],
  )
  return rows[0]?.n ?? 0
}

export type SalesRow = { day: string; currency: string; amount: string; orders: number }

/** Sales per day and currency (amounts as decimal text: never a float). */
export async function salesByDay(
  db: DbClient,
  shopId: string,
  from: string,
  to: string,
  currency?: string,
): Promise<SalesRow[]> {
  const { rows } = await db.query<SalesRow>(
    `select day::text as day, currency_code as currency, sum(amount)::text as amount, sum(orders)::int as orders
     from report_daily_sales
     where shop_id = $1 and day between $2::date and $3::date and ($4::text is null or currency_code = $4)
       and ${TEST_ORDERS_COUNT}
     group by day, currency_code having sum(orders) <> 0 or sum(amount) <> 0
     order by day, currency_code`,
    [shopId, from, to, currency ?? null],
  )
  return rows
}

/** Currencies sold in during the range, most orders first. */
export async function currencies(
  db: DbClient,
  shopId: string,
  from: string,
  to: string,
): Promise<Array<{ currency: string; amount: string; orders: number }>> {
  const { rows } = await db.query<{ currency: string; amount: string; orders: number }>(
    `select currency_code as currency, sum(amount)::text as amount, sum(orders)::int as orders
     from report_daily_sales where shop_id = $1 and day between $2::date and $3::date and ${TEST_ORDERS_COUNT}
     group by currency_code having sum(orders) > 0 order by sum(orders) desc, currency_code`,
    [shopId, from, to],
  )
  return rows
}

/** Contracts in ACTIVE now, from the mirror (index-only on (shop_id, status, id)). */
export async function activeNow(db: DbClient, shopId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from subscription_contracts where shop_id = $1 and status = 'ACTIVE'`,
    [shopId],
  )
  return rows[0]?.n ?? 0
}
