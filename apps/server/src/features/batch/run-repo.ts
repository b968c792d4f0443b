import type { DbClient } from '../../db/pool.ts'
import type { BatchRow } from './repo.ts'

// The runner's SQL: claiming a batch, walking its rows, recording each decision with the
// batch's counts, and finding batches whose worker died.

/** A running batch whose worker has written nothing for this long counts as abandoned. */
export const BATCH_STALE_SECONDS = 120

const COLUMNS = `shop_id::text, id::text, kind, params, notify_email, status, total, changed, skipped,
  failed, error, owner, cancel_requested_at, created_at, updated_at, executed_at, finished_at`

/**
 * Takes the batch for `owner`: a queued one, or a running one whose worker is gone (its owner
 * among `deadOwners`, or silent for BATCH_STALE_SECONDS). Null when it is not there to take.
 */
export async function claimBatch(
  db: DbClient,
  shopId: string,
  id: string,
  owner: string,
  deadOwners: string[],
): Promise<BatchRow | null> {
  const { rows } = await db.query<BatchRow>(
    `update batch_updates set status = 'running', owner = $3, heartbeat_at = now(), updated_at = now(),
       executed_at = coalesce(executed_at, now())
     where shop_id = $1 and id = $2::uuid
       and (status = 'queued' or (status = 'running'
         and (owner = any($4::text[]) or heartbeat_at < now() - make_interval(secs => $5))))
     returning ${COLUMNS}`,
    [shopId, id, owner, deadOwners, BATCH_STALE_SECONDS],
  )
  return rows[0] ?? null
}

/** Owners of running batches (to tell which of them are dead processes). */
export async function runningOwners(db: DbClient): Promise<string[]> {
  const { rows } = await db.query<{ owner: string }>(
    `select distinct owner from batch_updates where status = 'running' and owner is not null`,
  )
  return rows.map((r) => r.owner)
}

/** Batches that need a worker: queued ones not started for a while, and running ones whose worker is gone. */
export async function orphanBatches(
  db: DbClient,
  deadOwners: string[],
): Promise<Array<{ shop_id: string; id: string }>> {
  const { rows } = await db.query<{ shop_id: string; id: string }>(
    `select shop_id::text, id::text from batch_updates
     where (status = 'queued' and updated_at < now() - interval '1 minute')
        or (status = 'running' and (owner = any($1::text[])
          or heartbeat_at < now() - make_interval(secs => $2)))
     order by created_at limit 100`,
    [deadOwners, BATCH_STALE_SECONDS],
  )
  return rows
}

export type PendingItem = { contract_id: string; attempted: boolean }

/** The next undecided rows after `afterId` ('applying' ones were asked for by a worker that died). */
export async function pendingItems(
  db: DbClient,
  shopId: string,
  batchId: string,
  afterId: string,
  limit: number,
): Promise<PendingItem[]> {
  const { rows } = await db.query<PendingItem>(
    `select contract_id::text, status = 'applying' as attempted from batch_update_items
     where shop_id = $1 and batch_id = $2::uuid and status in ('pending', 'applying') and contract_id > $3
     order by contract_id limit $4`,
    [shopId, batchId, afterId, limit],
  )
  return rows
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

/** Says the worker is alive; answers whether the merchant asked to cancel. */
export async function touchBatch(db: DbClient, shopId: string, id: string): Promise<{ cancel: boolean }> {
  const { rows } = await db.query<{ cancel: boolean }>(
    `update batch_updates set heartbeat_at = now() where shop_id = $1 and id = $2::uuid
     returning cancel_requested_at is not null as cancel`,
    [shopId, id],
  )
  return { cancel: rows[0]?.cancel ?? false }
}

/** Ends the batch (only once: a batch already ended is left as it is); null when it had ended. */
export async function finishBatch(
  db: DbClient,
  shopId: string,
  id: string,
  status: 'done' | 'cancelled' | 'failed',
  error: string | null,
): Promise<BatchRow | null> {
  const { rows } = await db.query<BatchRow>(
    `update batch_updates set status = $3, error = $4, finished_at = now(), updated_at = now(), owner = null
     where shop_id = $1 and id = $2::uuid and status in ('queued', 'running')
     returning ${COLUMNS}`,
    [shopId, id, status, error],
  )
  return rows[0] ?? null
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

/** Hands a batch back to the queue (its worker hit trouble): the next claim takes it at once. */
export async function releaseBatch(db: DbClient, shopId: string, id: string): Promise<void> {
  await db.query(
    `update batch_updates set status = 'queued', owner = null
     where shop_id = $1 and id = $2::uuid and status = 'running'`,
    [shopId, id],
  )
}
