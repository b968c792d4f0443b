import type { ParentVariant } from '@teiki/contract'
import type { DbClient } from '../../db/pool.ts'
import { AppError, notFound } from '../../http/app-error.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { variantSummary } from '../products/service.ts'
import { isFlagOn } from '../shop-flags/service.ts'
import { findParent, hasVariant, writeParent } from './repo.ts'
import { GROUP_NOT_FOUND, requireGroup } from './service.ts'

// Parent products (spec §6 "supporting parent products"): for shops whose flag allows it, the
// variant shown as the parent of one of a group's variants, or of the whole group (variant 0).

export const PARENT_PRODUCTS_OFF =
  'このストアでは親商品の設定は利用できません。利用を希望される場合はサポートまでお問い合わせください。'

async function requireAllowed(db: DbClient, shop: ShopRow, groupId: string, variantId: string) {
  if (!(await isFlagOn(db, shop.id, 'parent_products'))) throw new AppError('FORBIDDEN', PARENT_PRODUCTS_OFF)
  await requireGroup(db, shop, groupId)
  if (variantId !== '0' && !(await hasVariant(db, shop.id, variantId)))
    throw notFound('商品バリエーションが見つかりません')
}

async function view(db: DbClient, shop: ShopRow, groupId: string, variantId: string): Promise<ParentVariant> {
  const parentVariantId = await findParent(db, shop.id, groupId, variantId)
  return {
    sellingPlanGroupId: groupId,
    variantId,
    parentVariantId,
    parent: parentVariantId ? ((await variantSummary(db, shop.id, parentVariantId)) ?? null) : null,
  }
}

export async function getParent(db: DbClient, shop: ShopRow, groupId: string, variantId: string) {
  await requireAllowed(db, shop, groupId, variantId)
  return view(db, shop, groupId, variantId)
}

/** Sets the parent (a variant of the shop's mirror, not the variant itself), or clears it with null. */
export async function putParent(
  db: DbClient,
  shop: ShopRow,
  groupId: string,
  variantId: string,
  parentVariantId: string | null,
): Promise<ParentVariant> {
  await requireAllowed(db, shop, groupId, variantId)
  if (parentVariantId !== null) {
    if (parentVariantId === variantId)
      throw new AppError('INVALID_INPUT', '親商品には別のバリエーションを指定してください')
    if (!(await hasVariant(db, shop.id, parentVariantId)))
      throw notFound('親商品のバリエーションが見つかりません')
  }
  await writeParent(db, shop.id, groupId, variantId, parentVariantId)
  return view(db, shop, groupId, variantId)
}

export { GROUP_NOT_FOUND }
