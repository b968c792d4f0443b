import { type DbClient, queryRow, queryRows } from '../../db/pool.ts'
import { BATCH_COLUMNS, type BatchRow } from './repo.ts'

// The runner's SQL: walking a batch's rows and recording each decision with the batch's counts
// (its claim, heartbeat and cancel: `batchRows`, runs/job-rows.ts).

export type PendingItem = { contract_id: string; attempted: boolean }

/** The next undecided rows after `afterId` ('applying' ones were asked for by a worker that died). */
export function pendingItems(db: DbClient, shopId: string, batchId: string, afterId: string, limit: number) {
  return queryRows<PendingItem>(
    db,
    `select contract_id::text, status = 'applying' as attempted from batch_update_items
     where shop_id = $1 and batch_id = $2::uuid and status in ('pending', 'applying') and contract_id > $3
     order by contract_id limit $4`,
    [shopId, batchId, afterId, limit],
  )
}

/** Marks the row before the platform is asked: after a crash it is judged, not re-applied blindly. */
export async function markApplying(db: DbClient, shopId: string, batchId: string, contractId: string) {
  await db.query(
    `update batch_update_items set status = 'applying', updated_at = now()
     where shop_id = $1 and batch_id = $2::uuid and contract_id = $3 and status = 'pending'`,
    [shopId, batchId, contractId],
  )
}

/**
 * Records the decision for one contract and counts it on the batch, in one statement: a row
 * already decided (by another worker) is neither changed nor counted again.
 */
export async function recordItem(
  db: DbClient,
  shopId: string,
  batchId: string,
  contractId: string,
  result: 'changed' | 'skipped' | 'failed',
  reason: string | null,
): Promise<void> {
  await db.query(
    `with decided as (
       update batch_update_items set status = $4, reason = $5, updated_at = now()
       where shop_id = $1 and batch_id = $2::uuid and contract_id = $3 and status in ('pending', 'applying')
       returning 1)
     update batch_updates set ${result} = ${result} + (select count(*)::int from decided),
       heartbeat_at = now(), updated_at = now()
     where shop_id = $1 and id = $2::uuid`,
    [shopId, batchId, contractId, result, reason],
  )
}

/** Ends the batch (only once: a batch already ended is left as it is); null when it had ended. */
export function finishBatch(
  db: DbClient,
  shopId: string,
  id: string,
  status: 'done' | 'cancelled' | 'failed',
  error: string | null,
) {
  return queryRow<BatchRow>(
    db,
    `update batch_updates set status = $3, error = $4, finished_at = now(), updated_at = now(), owner = null
     where shop_id = $1 and id = $2::uuid and status in ('queued', 'running')
     returning ${BATCH_COLUMNS}`,
    [shopId, id, status, error],
  )
}

/** Skipped and failed contracts with their reasons, for the mail. */
export async function unchangedForMail(
  db: DbClient,
  shopId: string,
  batchId: string,
  limit: number,
): Promise<Array<{ contract_id: string; name: string; status: string; reason: string | null }>> {
  const { rows } = await db.query<{
    contract_id: string
    name: string
    status: string
    reason: string | null
  }>(
    `select i.contract_id::text, coalesce(c.customer_display_name, '') as name, i.status, i.reason
     from batch_update_items i
     left join subscription_contracts c on c.shop_id = i.shop_id and c.id = i.contract_id
     where i.shop_id = $1 and i.batch_id = $2::uuid and i.status in ('skipped', 'failed')
     order by i.status, i.contract_id limit $3`,
    [shopId, batchId, limit],
  )
  return rows
}
