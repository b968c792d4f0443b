import { type DbClient, queryRow } from '../../db/pool.ts'

/** 「商品名 - バリエーション名」 of a variant in this shop's mirror, or null when it has none. */
export async function findVariantName(db: DbClient, shopId: string, variantId: string) {
  const row = await queryRow<{ name: string }>(
    db,
    `select case when v.title is null or v.title = '' or v.title = 'Default Title' then coalesce(p.title, '')
       else coalesce(p.title || ' - ', '') || v.title end as name
     from product_variants v left join products p on p.shop_id = v.shop_id and p.id = v.product_id
     where v.shop_id = $1 and v.id = $2`,
    [shopId, variantId],
  )
  return row?.name ?? null
}

/** The selling plans of these groups, as the mirror holds them (numeric ids). */
export async function plansOfGroups(db: DbClient, shopId: string, groupIds: string[]): Promise<string[]> {
  if (groupIds.length === 0) return []
  const { rows } = await db.query<{ id: string }>(
    'select id::text from selling_plans where shop_id = $1 and group_id = any($2::bigint[])',
    [shopId, groupIds],
  )
  return rows.map((r) => r.id)
}
