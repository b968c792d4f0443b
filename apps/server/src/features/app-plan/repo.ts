import { type DbClient, queryRows } from '../../db/pool.ts'

export async function insertPlanChange(db: DbClient, shopId: string, subscriptionId: string, plan: string) {
  await db.query(
    `insert into app_plan_changes (shop_id, subscription_id, plan) values ($1, $2, $3)
     on conflict (shop_id, subscription_id) do nothing`,
    [shopId, subscriptionId, plan],
  )
}

/** Subscriptions created by PUT /plan that the merchant has not approved yet (newest first). */
export function pendingPlanChanges(db: DbClient, shopId: string) {
  return queryRows<{ subscription_id: string }>(
    db,
    `select subscription_id::text from app_plan_changes where shop_id = $1 and status = 'pending'
     order by created_at desc`,
    [shopId],
  )
}

/** The approved one becomes active; the other pending ones are abandoned (a newer plan replaced them). */
export async function settlePlanChanges(db: DbClient, shopId: string, activeId: string) {
  await db.query(
    `update app_plan_changes set status = case when subscription_id = $2 then 'active' else 'abandoned' end
     where shop_id = $1 and status = 'pending'
       and (subscription_id = $2 or created_at < (select created_at from app_plan_changes where shop_id = $1 and subscription_id = $2))`,
    [shopId, activeId],
  )
}

/** A pending change the merchant declined, or let expire, ends so (others are left as they are). */
export async function endPlanChange(
  db: DbClient,
  shopId: string,
  subscriptionId: string,
  status: 'declined' | 'expired',
) {
  await db.query(
    `update app_plan_changes set status = $3 where shop_id = $1 and subscription_id = $2 and status = 'pending'`,
    [shopId, subscriptionId, status],
  )
}
