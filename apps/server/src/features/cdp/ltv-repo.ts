import type { DbClient } from '../../db/pool.ts'

/**
 * A range of days as the LTV statement reads it (domain `ltvRangeParts`): the whole months it
 * covers (month numbers, null when none) and up to two spans of instants at its edges.
 */
export type LtvRange = {
  firstMonth: number | null
  lastMonth: number | null
  edges: Array<{ start: Date; end: Date }>
}

const rangeParams = (shopId: string, r: LtvRange) => [
  shopId,
  r.firstMonth,
  r.lastMonth,
  r.edges[0]?.start ?? null,
  r.edges[0]?.end ?? null,
  r.edges[1]?.start ?? null,
  r.edges[1]?.end ?? null,
]

/** A running total of ltv_months through month `m` (0 before its first month, flat after its last). */
const THROUGH = (column: string, m: string) =>
  `(case when ${m} < m.base_month then 0 else m.${column}[least(${m} - m.base_month + 1, cardinality(m.${column}))] end)`

/**
 * The successful subscription orders (linked to a contract, not a test, not cancelled) of the
 * range, their net amounts (refunds taken off: domain analytics `netAmount`) summed per customer
 * and currency: never across currencies (domain ltv.ts). `minor`: the total in ten-thousandths
 * of the currency unit (exact: the scale of the amounts). $1 shop, $2/$3 the first and last
 * whole month, $4–$7 the edge spans (start, end exclusive).
 */
// The whole months are two elements of each customer's running totals (ltv_months, migration
// 0028): no aggregate over the ~200,000 orders of a year. The edge days are summed from the
// orders over the partial covering orders_ltv_idx, and joined on (customer, currency).
const TOTALS = `select coalesce(m.customer_id, e.customer_id) as customer_id,
    coalesce(m.currency_code, e.currency_code) as currency_code,
    coalesce(m.minor, 0) + coalesce(e.minor, 0) as minor, coalesce(m.n, 0) + coalesce(e.n, 0) as n
  from (
    select * from (
      select m.customer_id, m.currency_code,
        ${THROUGH('amounts', '$3::int')} - ${THROUGH('amounts', '($2::int - 1)')} as minor,
        ${THROUGH('counts', '$3::int')} - ${THROUGH('counts', '($2::int - 1)')} as n
      from ltv_months m
      where m.shop_id = $1 and m.base_month <= $3::int and m.base_month + cardinality(m.counts) - 1 >= $2::int
    ) w where w.n > 0
  ) m
  full join (
    select o.customer_id, coalesce(o.currency_code, 'JPY') as currency_code, sum(o.net_minor)::bigint as minor,
      count(*)::int as n
    from orders o
    where o.shop_id = $1 and o.customer_id is not null and o.contract_id is not null and not o.test
      and o.cancelled_at is null
      and ((o.created_at >= $4 and o.created_at < $5) or (o.created_at >= $6 and o.created_at < $7))
    group by 1, 2
  ) e on e.customer_id = m.customer_id and e.currency_code = m.currency_code`

/** The amount of a total, in the currency's unit with the mirror's scale (`1980.0000`). */
const AMOUNT = (alias: string) => `(${alias}.minor * 0.0001)`

/** The shop's currency first, then highest first; ties by customer id. $8 the shop's currency. */
const ORDER = 'currency_code <> $8, minor desc, customer_id'

export type LtvPage = {
  total: number
  max_ltv: string | null
  list: Array<{
    customerId: string
    currencyCode: string
    amount: number
    orderCount: number
    displayName: string | null
    email: string | null
  }>
  errors: Array<{ customerId: string; codes: string[]; displayName: string | null }>
}

/** One page of the LTV table, its row count, the top total in the shop's currency, and the customers paying in several currencies. */
export async function ltvPage(
  db: DbClient,
  q: { shopId: string; range: LtvRange; currency: string; offset: number; limit: number },
): Promise<LtvPage> {
  // The year of a 100k-customer shop holds ~60k (customer, currency) rows: room for the totals,
  // the page's sort and the edge days' aggregate in memory (the default 4 MB spills). And a plan
  // for these months and days: the server's pool forces generic plans (db/pool.ts), which
  // cannot see how many rows the range holds. Only for this transaction.
  await db.query(`set local work_mem = '64MB'`)
  await db.query(`set local plan_cache_mode = force_custom_plan`)
  const { rows } = await db.query<LtvPage>(
    `with totals as materialized (${TOTALS}),
     -- One pass for the count, the bar scale and whether any row is in another currency.
     stats as (
       select count(*)::int as total, max(minor) filter (where currency_code = $8) as max_minor,
         count(*) filter (where currency_code <> $8) as foreign_rows
       from totals
     ),
     page as (select * from totals order by ${ORDER} offset $9 limit $10),
     -- Only customers with a row in another currency can have two: looked for only when there is
     -- such a row (most shops sell in one currency), by a filter rather than grouping every row.
     multi as (
       select customer_id, array_agg(currency_code order by currency_code) as codes
       from totals
       where (select foreign_rows from stats) > 0
         and customer_id in (select customer_id from totals where currency_code <> $8)
       group by customer_id having count(*) > 1 order by customer_id limit 100
     )
     select s.total, (s.max_minor * 0.0001)::text as max_ltv,
       (select coalesce(jsonb_agg(jsonb_build_object('customerId', p.customer_id::text, 'currencyCode', p.currency_code,
           'amount', ${AMOUNT('p')}, 'orderCount', p.n, 'displayName', cu.display_name, 'email', cu.email)
           order by p.currency_code <> $8, p.minor desc, p.customer_id), '[]')
        from page p left join customers cu on cu.shop_id = $1 and cu.id = p.customer_id) as list,
       (select coalesce(jsonb_agg(jsonb_build_object('customerId', m.customer_id::text, 'codes', m.codes,
           'displayName', cu.display_name) order by m.customer_id), '[]')
        from multi m left join customers cu on cu.shop_id = $1 and cu.id = m.customer_id) as errors
     from stats s`,
    [...rangeParams(q.shopId, q.range), q.currency, q.offset, q.limit],
  )
  return rows[0]!
}

export type LtvCsvRow = {
  customer_id: string
  currency_code: string
  amount: string
  n: number
  display_name: string | null
  email: string | null
}

/**
 * Every row of the LTV table in its order, `batch` at a time through a cursor in one read-only
 * transaction: the totals are computed once, and only one batch is in memory.
 */
export async function* ltvRows(
  client: DbClient,
  q: { shopId: string; range: LtvRange; currency: string },
  batch = 2000,
): AsyncGenerator<LtvCsvRow[]> {
  await client.query('begin read only')
  let ended = false
  try {
    await client.query(`set local work_mem = '64MB'`)
    await client.query(`set local plan_cache_mode = force_custom_plan`)
    await client.query(
      `declare ltv_csv no scroll cursor for
       select t.customer_id::text, t.currency_code, ${AMOUNT('t')}::text as amount, t.n, cu.display_name, cu.email
       from (${TOTALS}) t left join customers cu on cu.shop_id = $1 and cu.id = t.customer_id
       order by t.currency_code <> $8, t.minor desc, t.customer_id`,
      [...rangeParams(q.shopId, q.range), q.currency],
    )
    for (;;) {
      const { rows } = await client.query<LtvCsvRow>(`fetch ${batch} from ltv_csv`)
      if (rows.length > 0) yield rows
      if (rows.length < batch) break
    }
    await client.query('commit')
    ended = true
  } finally {
    // A download the browser abandoned stops the generator here: the cursor goes with the transaction.
    if (!ended) await client.query('rollback').catch(() => {})
  }
}
