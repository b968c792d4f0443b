import type { DbClient } from '../../db/pool.ts'

/** The flags of spec section 6, as stored (migration 0014). */
export const SHOP_FLAGS = [
  'test_shop',
  'two_customer_groups',
  'parent_products',
  'template_test',
  'delivery_prep_days',
] as const

export type ShopFlag = (typeof SHOP_FLAGS)[number]

/** The shop's flags that have a row, with their value. */
export async function readShopFlags(db: DbClient, shopId: string): Promise<Map<ShopFlag, boolean>> {
  const { rows } = await db.query<{ flag: ShopFlag; enabled: boolean }>(
    'select flag, enabled from shop_flags where shop_id = $1',
    [shopId],
  )
  return new Map(rows.map((r) => [r.flag, r.enabled]))
}

/** Sets one flag (the row stays, so an operator's "off" is kept as a decision). */
export async function writeShopFlag(db: DbClient, shopId: string, flag: ShopFlag, enabled: boolean) {
  await db.query(
    `insert into shop_flags (shop_id, flag, enabled) values ($1, $2, $3)
     on conflict (shop_id, flag) do update set enabled = excluded.enabled, updated_at = now()`,
    [shopId, flag, enabled],
  )
}
