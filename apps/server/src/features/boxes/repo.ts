import { BOX_PAGE_SIZE } from '@teiki/contract'
import { type DbClient, queryRow } from '../../db/pool.ts'

// The app's boxes (migration 0016), with their group as the mirror has it.

export type BoxRow = {
  id: string
  name: string | null
  min_selection: number | null
  max_selection: number | null
  selling_plan_group_id: string | null
  created_at: Date
  updated_at: Date
  group_name: string | null
  group_products_count: number | null
}

const SELECT = `select b.id::text, b.name, b.min_selection, b.max_selection, b.selling_plan_group_id::text,
    b.created_at, b.updated_at, g.name as group_name, g.products_count as group_products_count
  from boxes b
  left join selling_plan_groups g on g.shop_id = b.shop_id and g.id = b.selling_plan_group_id`

/** One page (100) of the shop's boxes, newest first, and how many there are. */
export async function listBoxes(db: DbClient, shopId: string, page: number) {
  const [rows, count] = await Promise.all([
    db.query<BoxRow>(
      `${SELECT} where b.shop_id = $1 order by b.created_at desc, b.id desc limit $2 offset $3`,
      [shopId, BOX_PAGE_SIZE, (page - 1) * BOX_PAGE_SIZE],
    ),
    db.query<{ total: number }>('select count(*)::int as total from boxes where shop_id = $1', [shopId]),
  ])
  return { rows: rows.rows, total: count.rows[0]?.total ?? 0 }
}

export async function findBox(db: DbClient, shopId: string, id: string): Promise<BoxRow | undefined> {
  const { rows } = await db.query<BoxRow>(`${SELECT} where b.shop_id = $1 and b.id = $2`, [shopId, id])
  return rows[0]
}

/** A new box with the defaults (spec §4: created first, then saved field by field); its id. */
export async function insertBox(
  db: DbClient,
  shopId: string,
  settings: {
    name: string | null
    minSelection: number | null
    maxSelection: number | null
    sellingPlanGroupId: string | null
  },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into boxes (shop_id, name, min_selection, max_selection, selling_plan_group_id)
     values ($1, $2, $3, $4, $5) returning id::text`,
    [shopId, settings.name, settings.minSelection, settings.maxSelection, settings.sellingPlanGroupId],
  )
  return rows[0]!.id
}

export type BoxPatch = Partial<{
  name: string
  minSelection: number
  maxSelection: number
  sellingPlanGroupId: string
}>

/** Saves the given fields only (the others keep what is stored). */
export async function updateBox(db: DbClient, shopId: string, id: string, patch: BoxPatch): Promise<void> {
  const sets: string[] = []
  const values: unknown[] = [shopId, id]
  const set = (column: string, value: unknown) => {
    values.push(value)
    sets.push(`${column} = $${values.length}`)
  }
  if (patch.name !== undefined) set('name', patch.name)
  if (patch.minSelection !== undefined) set('min_selection', patch.minSelection)
  if (patch.maxSelection !== undefined) set('max_selection', patch.maxSelection)
  if (patch.sellingPlanGroupId !== undefined) set('selling_plan_group_id', patch.sellingPlanGroupId)
  if (sets.length === 0) return
  await db.query(
    `update boxes set ${sets.join(', ')}, updated_at = now() where shop_id = $1 and id = $2`,
    values,
  )
}

/** True when a box was deleted. */
export async function deleteBox(db: DbClient, shopId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('delete from boxes where shop_id = $1 and id = $2', [shopId, id])
  return (rowCount ?? 0) > 0
}

/** The products count of one of the shop's mirrored groups, or null when the mirror lacks it. */
export async function groupProductsCount(db: DbClient, shopId: string, groupId: string) {
  const sql = 'select products_count from selling_plan_groups where shop_id = $1 and id = $2'
  return (await queryRow<{ products_count: number }>(db, sql, [shopId, groupId]))?.products_count ?? null
}

/** Every box of the shop (for the storefront's copy), oldest first. */
export async function allBoxes(db: DbClient, shopId: string): Promise<BoxRow[]> {
  const { rows } = await db.query<BoxRow>(`${SELECT} where b.shop_id = $1 order by b.created_at, b.id`, [
    shopId,
  ])
  return rows
}

/** The mirrored selling plans of a group (their numeric ids, the cart's `selling_plan`). */
export async function groupPlanIds(db: DbClient, shopId: string, groupId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    'select id::text from selling_plans where shop_id = $1 and group_id = $2 order by id',
    [shopId, groupId],
  )
  return rows.map((r) => r.id)
}
