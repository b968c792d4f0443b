import { type DbClient, statement } from '../../db/pool.ts'

export type CohortFilter = {
  sellingPlanGroupId?: string
  sellingPlanId?: string
  source?: string
  medium?: string
}

export type CohortCounts = { month: string; contracts: number; reached: number[] }

const REACHED = Array.from({ length: 12 }, (_, i) => i + 1)

/** The histogram's rows to read: with test orders in a shop flagged test_shop (in the statement). */
const WITH_TEST = `(select exists (select 1 from shop_flags f
  where f.shop_id = $1 and f.flag = 'test_shop' and f.enabled))`

/**
 * Per cohort month from `from` to `to` (the shop-local month the contract started in): its size
 * and how many contracts reached 1…12 counted orders. Without filters it reads the histogram
 * (report_cohorts); with a plan or source filter the histogram split by those dimensions
 * (report_cohort_dims). Test orders count in a shop flagged test_shop.
 */
export async function cohortCounts(
  db: DbClient,
  shopId: string,
  from: string,
  to: string,
  filter: CohortFilter,
): Promise<CohortCounts[]> {
  const filtered = [filter.sellingPlanGroupId, filter.sellingPlanId, filter.source, filter.medium].some(
    Boolean,
  )
  const { rows } = filtered
    ? await filteredCounts(db, shopId, from, to, filter)
    : await db.query<{ month: string; bucket: number; contracts: number }>(
        statement(
          'report-cohorts',
          `select month::text, bucket, sum(contracts)::int as contracts from report_cohorts
           where shop_id = $1 and with_test = ${WITH_TEST} and month >= date_trunc('month', $2::date)::date
             and month <= $3::date
           group by month, bucket having sum(contracts) <> 0`,
          [shopId, from, to],
        ),
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
 * The filtered histogram (report_cohort_dims, migration 0027): every contract sits in one row
 * with its start plans, source and medium, so a filter, or several, keeps rows and counts each
 * contract once. A plan filter keeps contracts that started on the plan (or on a plan of the
 * group: the group's plans are read from the mirror); `source=(direct)` keeps the contracts
 * without an attribution (source '').
 */
function filteredCounts(db: DbClient, shopId: string, from: string, to: string, f: CohortFilter) {
  const params: unknown[] = [shopId, from, to]
  const where: string[] = []
  const shape: string[] = []
  const param = (value: unknown) => `$${params.push(value)}`
  if (f.sellingPlanGroupId) {
    shape.push('group')
    const [group, plan] = [param(f.sellingPlanGroupId), param(f.sellingPlanId ?? null)]
    where.push(`h.plan_ids && array(select p.id from selling_plans p where p.shop_id = $1
      and p.group_id = ${group}::bigint and (${plan}::bigint is null or p.id = ${plan}::bigint))`)
  } else if (f.sellingPlanId) {
    shape.push('plan')
    where.push(`h.plan_ids @> array[${param(f.sellingPlanId)}::bigint]`)
  }
  if (f.source === '(direct)') {
    shape.push('direct')
    where.push(`h.source = ''`)
  } else {
    for (const key of ['source', 'medium'] as const) {
      if (!f[key]) continue
      shape.push(key)
      where.push(`h.${key} = ${param(f[key])}::text`)
    }
  }
  // One prepared statement per filter shape (at most 3 × 4 of them).
  return db.query<{ month: string; bucket: number; contracts: number }>(
    statement(
      `report-cohort-dims-${shape.join('-')}`,
      `select h.month::text, h.bucket, sum(h.contracts)::int as contracts from report_cohort_dims h
       where h.shop_id = $1 and h.with_test = ${WITH_TEST} and h.month >= date_trunc('month', $2::date)::date
         and h.month <= $3::date and ${where.join(' and ')}
       group by h.month, h.bucket having sum(h.contracts) <> 0`,
      params,
    ),
  )
}
