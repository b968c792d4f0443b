import type { MyPageTargetVariantList } from '@teiki/contract'
import { type Db, withTransaction } from '../../db/pool.ts'
import { AppError, notFound } from '../../http/app-error.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { forgetShopContext } from '../my-page/context-cache.ts'
import { isFlagOn } from '../shop-flags/service.ts'
import { addTargetVariants, listTargetVariants, removeTargetVariant, unknownVariants } from './repo.ts'

const TWO_GROUPS_OFF =
  'このストアでは顧客グループ2は利用できません（2つの顧客グループは運営側で有効にする機能です）'

/** The variants customers may switch to on their my page, per customer group (spec §6: two groups on flagged shops). */
export async function listMyPageTargets(db: Db, shop: ShopRow): Promise<MyPageTargetVariantList> {
  const rows = await listTargetVariants(db, shop.id)
  return {
    variants: rows.map((r) => ({
      variantId: r.variant_id,
      group: r.customer_group,
      productTitle: r.product_title,
      variantTitle: r.variant_title,
      sku: r.sku,
      createdAt: r.created_at.toISOString(),
    })),
    twoCustomerGroups: await isFlagOn(db, shop.id, 'two_customer_groups'),
  }
}

async function checkGroup(db: Db, shop: ShopRow, group: number) {
  if (group === 2 && !(await isFlagOn(db, shop.id, 'two_customer_groups')))
    throw new AppError('FORBIDDEN', TWO_GROUPS_OFF)
}

/** Adds variants of this shop's catalogue (404 naming the first it does not have; nothing added then). */
export async function addMyPageTargets(db: Db, shop: ShopRow, group: number, ids: string[]) {
  await checkGroup(db, shop, group)
  await withTransaction(db, async (tx) => {
    const unknown = await unknownVariants(tx, shop.id, [...new Set(ids)])
    if (unknown.length > 0) throw notFound(`バリエーション ${unknown[0]} はこのストアの商品にありません`)
    await addTargetVariants(tx, shop.id, group, [...new Set(ids)])
  })
  forgetShopContext(shop.id)
  return listMyPageTargets(db, shop)
}

export async function removeMyPageTarget(db: Db, shop: ShopRow, group: number, id: string) {
  await checkGroup(db, shop, group)
  if (!(await removeTargetVariant(db, shop.id, group, id))) {
    throw notFound(`バリエーション ${id} はマイページの対象に登録されていません`)
  }
  forgetShopContext(shop.id)
  return listMyPageTargets(db, shop)
}
