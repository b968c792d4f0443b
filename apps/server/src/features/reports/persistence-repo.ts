import type { DbClient } from '../../db/pool.ts'

export type CohortFilter = {
  sellingPlanGroupId?: string
  sellingPlanId?: string
  source?: string
  medium?: string
}

export type CohortCounts = { month: string; contracts: number; reached: number[] }

const REACHED = Array.from({ length: 12 }, (_, i) => i + 1)

/**
 * Per cohort month from `from` to `to` (the shop-local month the contract started in): its size
 * and how many contracts reached 1…12 counted orders. Without filters it reads the histogram
 * (report_cohorts); with a plan or source filter it starts from the contracts the filter keeps
 * and reads their counts (report_contracts). Test orders count in a shop flagged test_shop.
 */
export async function cohortCounts(
  db: DbClient,
  shopId: string,
  from: string,
  to: string,
  filter: CohortFilter,
): Promise<CohortCounts[]> {
  const flag = await db.query<{ on: boolean }>(
    `select exists (select 1 from shop_flags where shop_id = $1 and flag = 'test_shop' and enabled) as on`,
    [shopId],
  )
  const withTest = flag.rows[0]?.on ?? false
  const filtered = [filter.sellingPlanGroupId, filter.sellingPlanId, filter.source, filter.medium].some(
    Boolean,
  )
  const { rows } = filtered
    ? await filteredCounts(db, shopId, from, to, filter, withTest)
    : await db.query<{ month: string; bucket: number; contracts: number }>(
        `select month::text, bucket, sum(contracts)::int as contracts from report_cohorts
         where shop_id = $1 and with_test = $4 and month >= date_trunc('month', $2::date)::date and month <= $3::date
         group by month, bucket having sum(contracts) <> 0`,
        [shopId, from, to, withTest],
      )
  const byMonth = new Map<string, CohortCounts>()
  for (const r of rows) {
    const c = byMonth.get(r.month) ?? { month: r.month, contracts: 0, reached: REACHED.map(() => 0) }
    c.contracts += r.contracts
    for (const n of REACHED) if (r.bucket >= n) c.reached[n - 1]! += r.contracts
    byMonth.set(r.month, c)
  }
  return [...byMonth.values()].sort((a, b) => a.month.localeCompare(b.month))
}

/**
 * The filtered contracts' order counts, as the histogram's rows. A plan filter starts from the
 * lines on that plan (or the group's plans), a source/medium filter from the attributions;
 * `(direct)` keeps the contracts without one.
 */
function filteredCounts(
  db: DbClient,
  shopId: string,
  from: string,
  to: string,
  f: CohortFilter,
  withTest: boolean,
) {
  const params: unknown[] = [shopId, from, to, withTest]
  const where: string[] = []
  if (f.sellingPlanId || f.sellingPlanGroupId) {
    params.push(f.sellingPlanId ?? null, f.sellingPlanGroupId ?? null)
    where.push(`r.contract_id in (select l.contract_id from subscription_lines l where l.shop_id = $1
      and l.selling_plan_id in (select p.id from selling_plans p where p.shop_id = $1
        and ($5::bigint is null or p.id = $5) and ($6::bigint is null or p.group_id = $6)))`)
  }
  if (f.source === '(direct)') {
    where.push(
      'not exists (select 1 from contract_attributions a where a.shop_id = $1 and a.contract_id = r.contract_id)',
    )
  } else if (f.source || f.medium) {
    params.push(f.source ?? null, f.medium ?? null)
    const [s, m] = [params.length - 1, params.length]
    where.push(`r.contract_id in (select a.contract_id from contract_attributions a where a.shop_id = $1
      and ($${s}::text is null or a.source = $${s}) and ($${m}::text is null or a.medium = $${m}))`)
  }
  return db.query<{ month: string; bucket: number; contracts: number }>(
    `select date_trunc('month', r.started_on)::date::text as month,
       least(case when $4 then r.test_orders else r.orders end, 12) as bucket, count(*)::int as contracts
     from report_contracts r
     where r.shop_id = $1 and r.started_on >= date_trunc('month', $2::date)::date and r.started_on <= $3::date
       and ${where.join(' and ')}
     group by 1, 2`,
    params,
  )
}
