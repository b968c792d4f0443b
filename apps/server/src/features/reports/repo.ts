import { type DbClient, queryRows, statement } from '../../db/pool.ts'

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
  const { rows } = await db.query<{ days: string }>(
    statement(
      `report-daily-${column}`,
      `select coalesce(string_agg(d.day::text || '=' || d.n, ',' order by d.day), '') as days
       from (select day, sum(${column})::int as n from report_daily
             where shop_id = $1 and day between $2::date and $3::date group by day) d`,
      [shopId, from, to],
    ),
  )
  return dayCounts(rows[0]?.days ?? '')
}

/**
 * `2026-01-05=3,2026-01-06=1`: a year's figures come as one value, not 365 rows (reading rows
 * was most of the server's CPU per report request).
 */
function dayCounts(text: string): Map<string, number> {
  const out = new Map<string, number>()
  if (text === '') return out
  for (const pair of text.split(',')) out.set(pair.slice(0, 10), Number(pair.slice(11)))
  return out
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
  const { rows } = await db.query<{ before: number; days: string }>(
    statement(
      'report-active',
      `select (select coalesce(sum(active_delta), 0)::int from report_daily
                where shop_id = $1 and day < $2::date) as before,
         coalesce(string_agg(d.day::text || '=' || d.n, ',' order by d.day), '') as days
       from (select day, sum(active_delta)::int as n from report_daily
             where shop_id = $1 and day between $2::date and $3::date group by day) d`,
      [shopId, from, to],
    ),
  )
  return { before: rows[0]?.before ?? 0, deltas: dayCounts(rows[0]?.days ?? '') }
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
  // One value as well: `day=currency=amount=orders` per day and currency (ISO codes, decimal text).
  const { rows } = await db.query<{ days: string }>(
    statement(
      'report-sales',
      `select coalesce(string_agg(concat_ws('=', d.day, d.currency_code, d.amount, d.orders), ','
         order by d.day, d.currency_code), '') as days
       from (select day, currency_code, trim_scale(sum(amount))::text as amount, sum(orders)::int as orders
             from report_daily_sales
             where shop_id = $1 and day between $2::date and $3::date and ($4::text is null or currency_code = $4)
               and ${TEST_ORDERS_COUNT}
             group by day, currency_code having sum(orders) <> 0 or sum(amount) <> 0) d`,
      [shopId, from, to, currency ?? null],
    ),
  )
  const text = rows[0]?.days ?? ''
  if (text === '') return []
  return text.split(',').map((entry) => {
    const [day = '', code = '', amount = '0', orders = '0'] = entry.split('=')
    return { day, currency: code, amount, orders: Number(orders) }
  })
}

/** Currencies sold in during the range, most orders first. */
export function currencies(db: DbClient, shopId: string, from: string, to: string) {
  return queryRows<{ currency: string; amount: string; orders: number }>(
    db,
    statement(
      'report-currencies',
      `select currency_code as currency, trim_scale(sum(amount))::text as amount, sum(orders)::int as orders
       from report_daily_sales where shop_id = $1 and day between $2::date and $3::date and ${TEST_ORDERS_COUNT}
       group by currency_code having sum(orders) > 0 order by sum(orders) desc, currency_code`,
      [shopId, from, to],
    ),
  )
}

/** Contracts in ACTIVE now, from the mirror (index-only on (shop_id, status, id)). */
export async function activeNow(db: DbClient, shopId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from subscription_contracts where shop_id = $1 and status = 'ACTIVE'`,
    [shopId],
  )
  return rows[0]?.n ?? 0
}
