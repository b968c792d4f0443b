import type { DbClient } from '../../db/pool.ts'
import { readShopFlags, SHOP_FLAGS, type ShopFlag, writeShopFlag } from './repo.ts'

// The one feature-flag service keyed by the shop (spec section 6). Every behaviour that varies
// by shop asks here; nothing else reads shop_flags.

/** Every flag of a shop, off unless set. */
export type ShopFlags = Readonly<Record<ShopFlag, boolean>>

export async function shopFlags(db: DbClient, shopId: string): Promise<ShopFlags> {
  const stored = await readShopFlags(db, shopId)
  return Object.fromEntries(SHOP_FLAGS.map((flag) => [flag, stored.get(flag) ?? false])) as ShopFlags
}

export async function isFlagOn(db: DbClient, shopId: string, flag: ShopFlag): Promise<boolean> {
  return (await readShopFlags(db, shopId)).get(flag) ?? false
}

export function isShopFlag(name: string): name is ShopFlag {
  return (SHOP_FLAGS as readonly string[]).includes(name)
}

export async function setShopFlag(
  db: DbClient,
  shopId: string,
  flag: ShopFlag,
  enabled: boolean,
): Promise<void> {
  await writeShopFlag(db, shopId, flag, enabled)
}

export { SHOP_FLAGS, type ShopFlag }
