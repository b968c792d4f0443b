import type { DbClient } from '../../db/pool.ts'

export type CohortFilter = {
  sellingPlanGroupId?: string
  sellingPlanId?: string
  source?: string
  medium?: string
}

export type CohortCounts = { month: string; contracts: number; reached: number[] }

/**
 * Per cohort month from `from` (the shop-local month the contract started in): its size and
 * how many contracts reached 1…12 counted orders (report_contracts, kept by the triggers of
 * migration 0018). A plan filter keeps contracts with a line on that plan (or a plan of that
 * group); a source/medium filter keeps contracts attributed to it (contract_attributions;
 * `(direct)` selects contracts with no attribution).
 */
export async function cohortCounts(
  db: DbClient,
  shopId: string,
  from: string,
  to: string,
  filter: CohortFilter,
): Promise<CohortCounts[]> {
  const reached = Array.from({ length: 12 }, (_, i) => `count(*) filter (where r.n >= ${i + 1})::int`).join(
    ', ',
  )
  const { rows } = await db.query<{ month: string; contracts: number; reached: number[] }>(
    `select to_char(date_trunc('month', r.started_on), 'YYYY-MM-DD') as month, count(*)::int as contracts,
       array[${reached}] as reached
     from (select r.*, case when exists (select 1 from shop_flags f where f.shop_id = $1
             and f.flag = 'test_shop' and f.enabled) then r.test_orders else r.orders end as n
           from report_contracts r where r.shop_id = $1) r
     where r.shop_id = $1 and r.started_on >= $2::date and r.started_on <= $3::date
       and ($4::bigint is null or exists (select 1 from subscription_lines l where l.shop_id = $1
             and l.contract_id = r.contract_id and l.selling_plan_id = $4))
       and ($5::bigint is null or exists (select 1 from subscription_lines l
             join selling_plans p on p.shop_id = l.shop_id and p.id = l.selling_plan_id
             where l.shop_id = $1 and l.contract_id = r.contract_id and p.group_id = $5))
       and (($6::text is null and $7::text is null)
         or ($6 = '(direct)' and not exists (select 1 from contract_attributions a
             where a.shop_id = $1 and a.contract_id = r.contract_id))
         or exists (select 1 from contract_attributions a where a.shop_id = $1 and a.contract_id = r.contract_id
             and ($6 is null or a.source = $6) and ($7 is null or a.medium = $7)))
     group by 1 order by 1`,
    [
      shopId,
      from,
      to,
      filter.sellingPlanId ?? null,
      filter.sellingPlanGroupId ?? null,
      filter.source ?? null,
      filter.medium ?? null,
    ],
  )
  return rows
}
