import { type DbClient, statement } from '../../db/pool.ts'

/** Test orders count only in a shop flagged test_shop (a development store: every order is a test). */
export const TEST_ORDERS_COUNT = `(not test or exists (select 1 from shop_flags f
  where f.shop_id = $1 and f.flag = 'test_shop' and f.enabled))`

// Reads of the report rollups (migration 0018). Every figure sums the 8 slots of a day; days are
// `date` columns compared as text (`YYYY-MM-DD`), so no process zone ever touches them. Each read
// is one prepared statement (planned once per connection, as the search's: ADR 0004).

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
  measure: CountColumn,
  from: string,
  to: string,
): Promise<Map<string, number>> {
  const column = COUNT_COLUMNS[measure]
  const { rows } = await db.query<{ day: string; n: number }>(
    statement(
      `report-daily-${column}`,
      `select day::text as day, sum(${column})::int as n from report_daily
       where shop_id = $1 and day between $2::date and $3::date group by day`,
      [shopId, from, to],
    ),
  )
  return new Map(rows.map((r) => [r.day, r.n]))
}

/**
 * The active deltas per day of the range and, in the same statement, their sum before it (the
 * contracts active when the range starts): one round trip per request.
 */
export async function activeDeltas(
  db: DbClient,
  shopId: string,
  from: string,
  to: string,
): Promise<{ before: number; deltas: Map<string, number> }> {
  const { rows } = await db.query<{ day: string | null; n: number }>(
    statement(
      'report-active',
      `select day::text as day, sum(active_delta)::int as n from report_daily
       where shop_id = $1 and day between $2::date and $3::date group by day
       union all
       select null, coalesce(sum(active_delta), 0)::int from report_daily where shop_id = $1 and day < $2::date`,
      [shopId, from, to],
    ),
  )
  const deltas = new Map<string, number>()
  let before = 0
  for (const r of rows) {
    if (r.day === null) before = r.n
    else deltas.set(r.day, r.n)
  }
  return { before, deltas }
}

export type SalesRow = { day: string; currency: string; amount: string; orders: number }

/**
 * Sales per day and currency, amounts as decimal text without trailing zeros (`1980`, `19.8`):
 * never a float, and nothing left for the server to reformat.
 */
export async function salesByDay(
  db: DbClient,
  shopId: string,
  from: string,
  to: string,
  currency?: string,
): Promise<SalesRow[]> {
  const { rows } = await db.query<SalesRow>(
    statement(
      'report-sales',
      `select day::text as day, currency_code as currency, trim_scale(sum(amount))::text as amount,
         sum(orders)::int as orders
       from report_daily_sales
       where shop_id = $1 and day between $2::date and $3::date and ($4::text is null or currency_code = $4)
         and ${TEST_ORDERS_COUNT}
       group by day, currency_code having sum(orders) <> 0 or sum(amount) <> 0
       order by day, currency_code`,
      [shopId, from, to, currency ?? null],
    ),
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
    statement(
      'report-currencies',
      `select currency_code as currency, trim_scale(sum(amount))::text as amount, sum(orders)::int as orders
       from report_daily_sales where shop_id = $1 and day between $2::date and $3::date and ${TEST_ORDERS_COUNT}
       group by currency_code having sum(orders) > 0 order by sum(orders) desc, currency_code`,
      [shopId, from, to],
    ),
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
