import type { DbClient } from '../db/pool.ts'
import type { PlatformSellingPlanGroup } from '../platform/operations/selling-plan-fragments.ts'
import { upsertSellingPlanGroups } from './mirror-repo.ts'
import { sellingPlanGroupRecord, sellingPlanRecords } from './records.ts'

// The mirror writes of one selling plan group that the webhooks and the app's own group
// edits (features/selling-plans) share, so both leave identical rows.

/**
 * Writes the group as the platform has it: its row, its plans, and no plan it no longer has
 * (their custom cycle discounts go with them: migration 0015). Call inside a transaction.
 */
export async function mirrorSellingPlanGroup(
  db: DbClient,
  shopId: string,
  group: PlatformSellingPlanGroup,
): Promise<void> {
  const record = sellingPlanGroupRecord(group)
  const plans = sellingPlanRecords(group)
  await upsertSellingPlanGroups(db, shopId, [record], plans)
  await db.query(
    'delete from selling_plans where shop_id = $1 and group_id = $2 and not (id = any($3::bigint[]))',
    [shopId, record.id, plans.map((p) => p.id)],
  )
}

export async function hasSellingPlanGroup(db: DbClient, shopId: string, groupId: string): Promise<boolean> {
  const { rowCount } = await db.query('select 1 from selling_plan_groups where shop_id = $1 and id = $2', [
    shopId,
    groupId,
  ])
  return (rowCount ?? 0) > 0
}

/** Removes the group from the mirror; its plans (and what the app keeps about them) cascade. */
export async function removeSellingPlanGroup(db: DbClient, shopId: string, groupId: string): Promise<void> {
  await db.query('delete from selling_plan_groups where shop_id = $1 and id = $2', [shopId, groupId])
}
