import type { DbClient } from '../db/pool.ts'

// The demo seeds' own SQL (migration 0016 `demo_seeds`) and the mirror look-ups they need.

/** Records the seed once; false when it was already made (then nothing is seeded again). */
export async function claimSeed(db: DbClient, shopId: string, name: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'insert into demo_seeds (shop_id, name) values ($1, $2) on conflict do nothing',
    [shopId, name],
  )
  return (rowCount ?? 0) > 0
}

export async function forgetSeed(db: DbClient, shopId: string, name: string): Promise<void> {
  await db.query('delete from demo_seeds where shop_id = $1 and name = $2', [shopId, name])
}

/** The mirrored group with this merchant code and its first plan, or null. */
export async function groupByCode(
  db: DbClient,
  shopId: string,
  merchantCode: string,
): Promise<{ groupId: string; planId: string | null } | null> {
  const { rows } = await db.query<{ group_id: string; plan_id: string | null }>(
    `select g.id::text as group_id,
       (select min(p.id)::text from selling_plans p where p.shop_id = g.shop_id and p.group_id = g.id) as plan_id
     from selling_plan_groups g where g.shop_id = $1 and g.merchant_code = $2 order by g.id limit 1`,
    [shopId, merchantCode],
  )
  return rows[0] ? { groupId: rows[0].group_id, planId: rows[0].plan_id } : null
}

/**
 * The mirror's cancelled contracts with no recorded cancellation (a churn through the app
 * records its own), and when each was cancelled: its latest move to CANCELLED in the history,
 * else its last update.
 */
export async function cancelledContracts(
  db: DbClient,
  shopId: string,
): Promise<Array<{ contractId: string; cancelledAt: Date }>> {
  const { rows } = await db.query<{ contract_id: string; cancelled_at: Date }>(
    `select c.id::text as contract_id,
       coalesce((select max(e.occurred_at) from contract_events e
                 where e.shop_id = c.shop_id and e.contract_id = c.id and e.type = 'status_changed'
                   and e.payload->>'to' = 'CANCELLED'), c.updated_at) as cancelled_at
     from subscription_contracts c where c.shop_id = $1 and c.status = 'CANCELLED'
       and not exists (select 1 from contract_cancellations cc where cc.shop_id = c.shop_id and cc.contract_id = c.id)
     order by c.id`,
    [shopId],
  )
  return rows.map((r) => ({ contractId: r.contract_id, cancelledAt: r.cancelled_at }))
}
