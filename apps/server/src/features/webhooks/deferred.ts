import type { Db, DbClient } from '../../db/pool.ts'
import { withTransaction } from '../../db/pool.ts'
import type { AdminClient } from '../../platform/admin-client.ts'
import { toGid } from '../../platform/gid.ts'
import { fetchOrder } from '../../platform/operations/order.ts'
import { upsertOrder } from '../../sync/mirror-repo.ts'
import { orderRecord } from '../../sync/records.ts'
import { refreshContract } from './contract-topics.ts'
import { heldRevision, holdsOrder } from './repo.ts'

// A contract or order webhook about a state the mirror does not hold yet is, most of the
// time, the echo of one of the app's own writes whose answer is being mirrored that very
// moment (a billing settlement, a contract edit): the delivery arrives within milliseconds of
// the mutation, before the writer's transaction commits. Reading the platform at once would
// pay for that state a second time. With a job queue the read is deferred a few seconds and
// made only if the mirror is still behind then; without one it is made at once.

/** What a deferred read is about: a contract at `revision` (at least), or an order. */
export type DeferredRefresh =
  | { shopId: string; kind: 'contract'; id: string; revision: string | null }
  | { shopId: string; kind: 'order'; id: string }

/** Queues a deferred read inside the delivery's transaction (jobs/webhook-jobs.ts). */
export type DeferRefresh = (tx: DbClient, item: DeferredRefresh) => Promise<void>

/**
 * Runs a deferred read: nothing when the mirror caught up meanwhile, else the platform's
 * current state written as a webhook would have. Answers whether it read the platform.
 */
export async function applyDeferredRefresh(
  db: Db,
  client: AdminClient,
  item: DeferredRefresh,
): Promise<boolean> {
  if (item.kind === 'contract') {
    if (
      item.revision !== null &&
      (await heldRevision(db, item.shopId, item.id, item.revision)) === 'current'
    ) {
      return false
    }
    const write = await refreshContract(db, client, item.shopId, toGid('SubscriptionContract', item.id))
    await withTransaction(db, (tx) => write(tx, item.shopId))
    return true
  }
  if (await holdsOrder(db, item.shopId, item.id)) return false
  const order = await fetchOrder(client, toGid('Order', item.id))
  if (order) await withTransaction(db, (tx) => upsertOrder(tx, item.shopId, orderRecord(order, null)))
  return true
}
