import { SELLING_PLAN_GROUP_PAGE_SIZE, type SellingPlanGroupSummary } from '@teiki/contract'
import { type CustomCycleDiscount, type DiscountValueType, planDiscountType } from '@teiki/domain'
import { type DbClient, queryRow, queryRows } from '../../db/pool.ts'

// The mirror's selling plan groups and plans as the app reads them, and what the app keeps
// about plans (custom cycle discounts, parent variants: migration 0015).

type GroupRow = {
  id: string
  name: string
  merchant_code: string | null
  products_count: number
  product_variants_count: number
  created_at: Date | null
  plans: Array<{ id: string; name: string; policies: number; rules: number }> | null
}

const GROUP_COLUMNS = `g.id::text, g.name, g.merchant_code, g.products_count, g.product_variants_count, g.created_at,
  (select jsonb_agg(jsonb_build_object('id', p.id::text, 'name', p.name,
      'policies', jsonb_array_length(p.pricing_policies),
      'rules', (select count(*) from selling_plan_cycle_discounts d
                where d.shop_id = p.shop_id and d.selling_plan_id = p.id)) order by p.id)
   from selling_plans p where p.shop_id = g.shop_id and p.group_id = g.id) as plans`

function summary(row: GroupRow): SellingPlanGroupSummary {
  return {
    id: row.id,
    name: row.name,
    merchantCode: row.merchant_code,
    productsCount: row.products_count,
    productVariantsCount: row.product_variants_count,
    plans: (row.plans ?? []).map((p) => ({
      id: p.id,
      name: p.name,
      discountType: planDiscountType(Math.min(p.policies, 2), Number(p.rules)),
    })),
    createdAt: row.created_at ? row.created_at.toISOString() : null,
  }
}

/**
 * One page of the shop's groups, newest first (index selling_plan_groups_list_idx), whose name
 * contains `query` (case-insensitive, literal), with each group's plans and their discount type;
 * and how many groups match.
 */
export async function listGroups(
  db: DbClient,
  shopId: string,
  query: string,
  page: number,
): Promise<{ groups: SellingPlanGroupSummary[]; total: number }> {
  const where = "g.shop_id = $1 and ($2 = '' or strpos(lower(g.name), $2) > 0)"
  const term = query.toLowerCase()
  // The page is cut on the list index first and only its 10 rows get their plans: the plans'
  // subquery in the select list would otherwise run for every row the offset skips.
  const [rows, count] = await Promise.all([
    db.query<GroupRow>(
      `with page as (
         select g.id from selling_plan_groups g where ${where}
         order by g.created_at desc, g.id desc limit $3 offset $4
       )
       select ${GROUP_COLUMNS} from page join selling_plan_groups g on g.shop_id = $1 and g.id = page.id
       order by g.created_at desc, g.id desc`,
      [shopId, term, SELLING_PLAN_GROUP_PAGE_SIZE, (page - 1) * SELLING_PLAN_GROUP_PAGE_SIZE],
    ),
    db.query<{ total: number }>(`select count(*)::int as total from selling_plan_groups g where ${where}`, [
      shopId,
      term,
    ]),
  ])
  return { groups: rows.rows.map(summary), total: count.rows[0]?.total ?? 0 }
}

/** The group's list row, or null when the shop's mirror lacks it. */
export async function findGroup(db: DbClient, shopId: string, groupId: string) {
  const where = 'g.shop_id = $1 and g.id = $2'
  const row = await queryRow<GroupRow>(
    db,
    `select ${GROUP_COLUMNS} from selling_plan_groups g where ${where}`,
    [shopId, groupId],
  )
  return row && summary(row)
}

export type MirroredPlan = {
  id: string
  name: string
  description: string | null
  category: string | null
  options: string[]
  billingPolicy: unknown
  deliveryPolicy: unknown
  pricingPolicies: unknown
}

/** The group's plans as the mirror holds them, by id. */
export function groupPlans(db: DbClient, shopId: string, groupId: string) {
  return queryRows<MirroredPlan>(
    db,
    `select id::text, name, description, category, options, billing_policy as "billingPolicy",
       delivery_policy as "deliveryPolicy", pricing_policies as "pricingPolicies"
     from selling_plans where shop_id = $1 and group_id = $2 order by id`,
    [shopId, groupId],
  )
}

/** The group of one of the shop's plans, or null. */
export async function groupOfPlan(db: DbClient, shopId: string, planId: string): Promise<string | null> {
  const { rows } = await db.query<{ group_id: string }>(
    'select group_id::text from selling_plans where shop_id = $1 and id = $2',
    [shopId, planId],
  )
  return rows[0]?.group_id ?? null
}

/** Custom cycle discounts of the shop's plans `planIds`, by plan, each by cycle. */
export async function cycleDiscountsOf(
  db: DbClient,
  shopId: string,
  planIds: readonly string[],
): Promise<Map<string, CustomCycleDiscount[]>> {
  const out = new Map<string, CustomCycleDiscount[]>()
  if (planIds.length === 0) return out
  const { rows } = await db.query<{
    selling_plan_id: string
    cycle: number
    adjustment_type: DiscountValueType
    adjustment_value: string
  }>(
    `select selling_plan_id::text, cycle, adjustment_type, adjustment_value::text
     from selling_plan_cycle_discounts where shop_id = $1 and selling_plan_id = any($2::bigint[])
     order by selling_plan_id, cycle`,
    [shopId, planIds],
  )
  for (const r of rows) {
    const list = out.get(r.selling_plan_id) ?? []
    list.push({
      cycle: r.cycle,
      adjustmentType: r.adjustment_type,
      // numeric(20,4) text without trailing zeros: "10.5000" → "10.5", "300.0000" → "300".
      adjustmentValue: r.adjustment_value.includes('.')
        ? r.adjustment_value.replace(/0+$/, '').replace(/\.$/, '')
        : r.adjustment_value,
    })
    out.set(r.selling_plan_id, list)
  }
  return out
}

/** The shop's plans that have custom cycle discounts, with their pricing policies (mirror). */
export async function plansWithCycleDiscounts(
  db: DbClient,
  shopId: string,
): Promise<Array<{ id: string; pricingPolicies: unknown }>> {
  const { rows } = await db.query<{ id: string; pricing_policies: unknown }>(
    `select p.id::text, p.pricing_policies from selling_plans p
     where p.shop_id = $1 and exists (select 1 from selling_plan_cycle_discounts d
                                      where d.shop_id = p.shop_id and d.selling_plan_id = p.id)
     order by p.id`,
    [shopId],
  )
  return rows.map((r) => ({ id: r.id, pricingPolicies: r.pricing_policies }))
}

/** Whether any plan of the group has custom cycle discounts. */
export async function groupHasCycleDiscounts(
  db: DbClient,
  shopId: string,
  groupId: string,
): Promise<boolean> {
  const { rows } = await db.query(
    `select 1 from selling_plans p join selling_plan_cycle_discounts d
       on d.shop_id = p.shop_id and d.selling_plan_id = p.id
     where p.shop_id = $1 and p.group_id = $2 limit 1`,
    [shopId, groupId],
  )
  return rows.length > 0
}

/** Replaces a plan's custom cycle discounts (none: the plan has none). */
export async function replaceCycleDiscounts(
  db: DbClient,
  shopId: string,
  planId: string,
  rules: readonly CustomCycleDiscount[],
): Promise<void> {
  await db.query('delete from selling_plan_cycle_discounts where shop_id = $1 and selling_plan_id = $2', [
    shopId,
    planId,
  ])
  if (rules.length === 0) return
  await db.query(
    `insert into selling_plan_cycle_discounts (shop_id, selling_plan_id, cycle, adjustment_type, adjustment_value)
     select $1, $2, r.cycle, r."adjustmentType", r."adjustmentValue"::numeric
     from jsonb_to_recordset($3::jsonb) as r(cycle int, "adjustmentType" text, "adjustmentValue" text)`,
    [shopId, planId, JSON.stringify(rules)],
  )
}

/** The parent variant set for (group, variant 0 or a variant), or null. */
export async function findParent(
  db: DbClient,
  shopId: string,
  groupId: string,
  variantId: string,
): Promise<string | null> {
  const { rows } = await db.query<{ parent_variant_id: string }>(
    `select parent_variant_id::text from selling_plan_group_parents
     where shop_id = $1 and group_id = $2 and variant_id = $3`,
    [shopId, groupId, variantId],
  )
  return rows[0]?.parent_variant_id ?? null
}

/** Sets (or, with null, clears) the parent variant of (group, variant). */
export async function writeParent(
  db: DbClient,
  shopId: string,
  groupId: string,
  variantId: string,
  parentVariantId: string | null,
): Promise<void> {
  if (parentVariantId === null) {
    await db.query(
      'delete from selling_plan_group_parents where shop_id = $1 and group_id = $2 and variant_id = $3',
      [shopId, groupId, variantId],
    )
    return
  }
  await db.query(
    `insert into selling_plan_group_parents (shop_id, group_id, variant_id, parent_variant_id)
     values ($1, $2, $3, $4)
     on conflict (shop_id, group_id, variant_id) do update
       set parent_variant_id = excluded.parent_variant_id, updated_at = now()`,
    [shopId, groupId, variantId, parentVariantId],
  )
}

/** True when the variant is in the shop's mirror. */
export async function hasVariant(db: DbClient, shopId: string, variantId: string): Promise<boolean> {
  const { rowCount } = await db.query('select 1 from product_variants where shop_id = $1 and id = $2', [
    shopId,
    variantId,
  ])
  return (rowCount ?? 0) > 0
}
