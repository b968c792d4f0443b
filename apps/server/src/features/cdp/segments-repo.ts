import type { SegmentConditions } from '@teiki/domain'
import { type DbClient, queryRow, queryRows } from '../../db/pool.ts'
import type { SegmentWhere } from './segment-sql.ts'

export type SegmentRow = {
  id: string
  name: string
  group_id: string | null
  group_name: string | null
  conditions: SegmentConditions
  created_at: Date
  updated_at: Date
}

const SEGMENT_COLUMNS = `s.id::text, s.name, s.group_id::text, g.name as group_name, s.conditions,
  s.created_at, s.updated_at`

export function listSegments(db: DbClient, shopId: string) {
  return queryRows<SegmentRow>(
    db,
    `select ${SEGMENT_COLUMNS} from cdp_segments s left join cdp_segment_groups g on g.id = s.group_id
     where s.shop_id = $1 order by s.id desc limit 500`,
    [shopId],
  )
}

export function findSegment(db: DbClient, shopId: string, id: string) {
  return queryRow<SegmentRow>(
    db,
    `select ${SEGMENT_COLUMNS} from cdp_segments s left join cdp_segment_groups g on g.id = s.group_id
     where s.shop_id = $1 and s.id = $2`,
    [shopId, id],
  )
}

export type SegmentWrite = { name: string; groupId: string | null; conditions: SegmentConditions }

export async function insertSegment(db: DbClient, shopId: string, w: SegmentWrite): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into cdp_segments (shop_id, group_id, name, conditions) values ($1, $2, $3, $4) returning id::text`,
    [shopId, w.groupId, w.name, JSON.stringify(w.conditions)],
  )
  return rows[0]!.id
}

export async function updateSegment(
  db: DbClient,
  shopId: string,
  id: string,
  w: SegmentWrite,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `update cdp_segments set group_id = $3, name = $4, conditions = $5, updated_at = now()
     where shop_id = $1 and id = $2`,
    [shopId, id, w.groupId, w.name, JSON.stringify(w.conditions)],
  )
  return (rowCount ?? 0) > 0
}

export async function deleteSegment(db: DbClient, shopId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('delete from cdp_segments where shop_id = $1 and id = $2', [shopId, id])
  return (rowCount ?? 0) > 0
}

export type GroupRow = { id: string; name: string; segment_count: number }

export function listGroups(db: DbClient, shopId: string) {
  return queryRows<GroupRow>(
    db,
    `select g.id::text, g.name, (select count(*)::int from cdp_segments s where s.group_id = g.id) as segment_count
     from cdp_segment_groups g where g.shop_id = $1 order by g.name, g.id limit 500`,
    [shopId],
  )
}

export async function insertGroup(db: DbClient, shopId: string, name: string): Promise<void> {
  await db.query(
    'insert into cdp_segment_groups (shop_id, name) values ($1, $2) on conflict (shop_id, name) do nothing',
    [shopId, name],
  )
}

export async function groupExists(db: DbClient, shopId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('select 1 from cdp_segment_groups where shop_id = $1 and id = $2', [
    shopId,
    id,
  ])
  return (rowCount ?? 0) > 0
}

/** Names of the shop's selling plan groups among `ids` (a deleted or foreign id is absent). */
export async function sellingPlanGroupNames(
  db: DbClient,
  shopId: string,
  ids: string[],
): Promise<Record<string, string>> {
  if (ids.length === 0) return {}
  const { rows } = await db.query<{ id: string; name: string }>(
    'select id::text, name from selling_plan_groups where shop_id = $1 and id = any($2::bigint[])',
    [shopId, ids],
  )
  return Object.fromEntries(rows.map((r) => [r.id, r.name]))
}

/** customer_totals.amounts: per currency, the amount and the number of orders. */
export type LifetimeAmounts = Record<string, { amount: number | string; orders: number }>

export type SegmentCustomerRow = {
  id: string
  display_name: string
  email: string | null
  tags: string[]
  order_count: number
  amounts: LifetimeAmounts | null
  first_order_at: Date | null
}

export const FROM_CUSTOMERS = `from customers cu
  left join customer_totals t on t.shop_id = cu.shop_id and t.customer_id = cu.id`

/** A page of the segment's customers, newest customer first; `limit` + 1 rows tell whether more follow. */
export async function segmentCustomers(
  db: DbClient,
  shopId: string,
  where: (firstParam: number) => SegmentWhere,
  offset: number,
  limit: number,
): Promise<SegmentCustomerRow[]> {
  const w = where(4)
  const { rows } = await db.query<SegmentCustomerRow>(
    `select cu.id::text, cu.display_name, cu.email, cu.tags, coalesce(t.order_count, 0) as order_count, t.amounts,
       t.first_order_at
     ${FROM_CUSTOMERS}
     where cu.shop_id = $1 and ${w.sql}
     order by cu.id desc offset $2 limit $3`,
    [shopId, offset, limit, ...w.params],
  )
  return rows
}

export async function segmentCount(
  db: DbClient,
  shopId: string,
  where: (firstParam: number) => SegmentWhere,
): Promise<number> {
  const w = where(2)
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n ${FROM_CUSTOMERS} where cu.shop_id = $1 and ${w.sql}`,
    [shopId, ...w.params],
  )
  return rows[0]!.n
}

/** The segment's customers after `afterId` in id order, `limit` of them (exports and tag batches walk them). */
export async function segmentCustomersAfter(
  db: DbClient,
  shopId: string,
  where: (firstParam: number) => SegmentWhere,
  afterId: string | null,
  limit: number,
): Promise<SegmentCustomerRow[]> {
  const w = where(4)
  const { rows } = await db.query<SegmentCustomerRow>(
    `select cu.id::text, cu.display_name, cu.email, cu.tags, coalesce(t.order_count, 0) as order_count, t.amounts,
       t.first_order_at
     ${FROM_CUSTOMERS}
     where cu.shop_id = $1 and ($2::bigint is null or cu.id > $2) and ${w.sql}
     order by cu.id limit $3`,
    [shopId, afterId, limit, ...w.params],
  )
  return rows
}

/** The traffic sources and media contracts were attributed to (migration 0017), most used first. */
export function trafficSources(
  db: DbClient,
  shopId: string,
  source: string | undefined,
  medium: string | undefined,
) {
  return queryRows<{ source: string; medium: string; contracts: number; customers: number }>(
    db,
    `select source, medium, count(*)::int as contracts, count(distinct customer_id)::int as customers
     from contract_attributions
     where shop_id = $1 and ($2::text is null or source = $2) and ($3::text is null or medium = $3)
     group by source, medium order by contracts desc, source, medium limit 200`,
    [shopId, source ?? null, medium ?? null],
  )
}
