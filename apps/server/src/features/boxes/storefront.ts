import type { Db } from '../../db/pool.ts'
import type { AdminClient } from '../../platform/admin-client.ts'
import { toGid } from '../../platform/gid.ts'
import { fetchAppInstallationId } from '../../platform/operations/current-app-installation.ts'
import { setMetafields } from '../../platform/operations/metafields-set.ts'
import { fetchSellingPlanGroupProducts } from '../../platform/operations/selling-plan-group-products.ts'
import { allBoxes, type BoxRow, groupPlanIds } from './repo.ts'

// The boxes the storefront's box block shows (ADR 0014): the app-data metafield
// `teiki.boxes` (JSON) on the app's installation, rewritten whole after every box change.

/** One box as the block reads it (extensions/teiki-subscriptions/blocks/subscription-box.liquid). */
export type StorefrontBox = {
  id: string
  name: string
  minSelection: number
  maxSelection: number
  /** The group's plans (numeric ids: the cart's `selling_plan`). */
  sellingPlanIds: string[]
  /** The group's first 30 products (the block shows 20). */
  productHandles: string[]
}

const complete = (row: BoxRow) =>
  row.name !== null &&
  row.min_selection !== null &&
  row.max_selection !== null &&
  row.selling_plan_group_id !== null &&
  row.group_name !== null

/** The shop's complete boxes, with their group's plans (mirror) and products (platform). */
export async function storefrontBoxes(db: Db, client: AdminClient, shopId: string): Promise<StorefrontBox[]> {
  const boxes: StorefrontBox[] = []
  for (const row of (await allBoxes(db, shopId)).filter(complete)) {
    const groupId = row.selling_plan_group_id!
    const products = await fetchSellingPlanGroupProducts(client, toGid('SellingPlanGroup', groupId))
    if (!products) continue
    boxes.push({
      id: row.id,
      name: row.name!,
      minSelection: row.min_selection!,
      maxSelection: row.max_selection!,
      sellingPlanIds: await groupPlanIds(db, shopId, groupId),
      productHandles: products.map((p) => p.handle),
    })
  }
  return boxes
}

/** Rewrites `teiki.boxes` with the shop's complete boxes; returns what it wrote. */
export async function publishBoxes(db: Db, client: AdminClient, shopId: string): Promise<StorefrontBox[]> {
  const boxes = await storefrontBoxes(db, client, shopId)
  const ownerId = await fetchAppInstallationId(client)
  await setMetafields(client, [
    { ownerId, namespace: 'teiki', key: 'boxes', type: 'json', value: JSON.stringify(boxes) },
  ])
  return boxes
}
