import { type DbClient, queryRows } from '../../db/pool.ts'

// The my-page target variants (spec §7 /my-page-target-product-variants). The thank-you page
// settings are features/thank-you's; note attributes and SKU conversions are billing's
// (billing/order-content.ts), as the preparation days are.

export type TargetVariantRow = {
  variant_id: string
  customer_group: number
  product_title: string | null
  variant_title: string | null
  sku: string | null
  created_at: Date
}

export function listTargetVariants(db: DbClient, shopId: string) {
  return queryRows<TargetVariantRow>(
    db,
    `select t.variant_id::text, t.customer_group, p.title as product_title, v.title as variant_title, v.sku, t.created_at
     from my_page_target_variants t
     left join product_variants v on v.shop_id = t.shop_id and v.id = t.variant_id
     left join products p on p.shop_id = v.shop_id and p.id = v.product_id
     where t.shop_id = $1 order by t.customer_group, t.created_at, t.variant_id`,
    [shopId],
  )
}

/** Of these variant ids, the ones the shop's mirror does not hold. */
export async function unknownVariants(db: DbClient, shopId: string, ids: string[]): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `select x.id::text from unnest($2::bigint[]) as x(id)
     where not exists (select 1 from product_variants v where v.shop_id = $1 and v.id = x.id)`,
    [shopId, ids],
  )
  return rows.map((r) => r.id)
}

export async function addTargetVariants(
  db: DbClient,
  shopId: string,
  group: number,
  ids: string[],
): Promise<void> {
  await db.query(
    `insert into my_page_target_variants (shop_id, customer_group, variant_id)
     select $1, $2, x from unnest($3::bigint[]) as x on conflict do nothing`,
    [shopId, group, ids],
  )
}

export async function removeTargetVariant(
  db: DbClient,
  shopId: string,
  group: number,
  id: string,
): Promise<boolean> {
  const { rowCount } = await db.query(
    'delete from my_page_target_variants where shop_id = $1 and customer_group = $2 and variant_id = $3',
    [shopId, group, id],
  )
  return rowCount === 1
}
