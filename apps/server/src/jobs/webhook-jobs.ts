import type { Db } from '../db/pool.ts'
import {
  applyDeferredRefresh,
  type DeferRefresh,
  type DeferredRefresh,
} from '../features/webhooks/deferred.ts'
import type { ShopClients } from '../platform/shop-clients.ts'
import { findShopById } from '../platform/shops-repo.ts'
import { executor, type Jobs, retries } from './boss.ts'

/**
 * `webhook-refresh`: the reads a contract or order webhook defers (features/webhooks/deferred.ts).
 * Sent in the transaction that records the delivery, so an acknowledged delivery never loses
 * its read; retried on failure; any process's worker runs it.
 */
export const WEBHOOK_REFRESH_QUEUE = 'webhook-refresh'

/** Long enough for the app's own write to commit its answer (milliseconds, or a merchant's 8 s edit). */
export const DEFER_SECONDS = 10

export function webhookDeferrer(jobs: Jobs, deferSeconds = DEFER_SECONDS): DeferRefresh {
  return async (tx, item) => {
    await jobs.boss.send(WEBHOOK_REFRESH_QUEUE, item, { startAfter: deferSeconds, db: executor(tx) })
  }
}

export async function startWebhookJobs(opts: {
  jobs: Jobs
  db: Db
  clients: ShopClients
  log: { warn(obj: object, msg: string): void }
  pollingIntervalSeconds?: number
}): Promise<void> {
  const { boss } = opts.jobs
  // Through Jobs.createQueue (one process at a time): pg-boss's own deadlocked when two processes
  // started together created their queues at once (two-processes.test.ts).
  await opts.jobs.createQueue(WEBHOOK_REFRESH_QUEUE, {
    ...retries(10, 30),
    expireInSeconds: 300,
  })
  const work = { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2, batchSize: 10 }
  await boss.work<DeferredRefresh>(WEBHOOK_REFRESH_QUEUE, work, async (batch) => {
    for (const job of batch) {
      const shop = await findShopById(opts.db, job.data.shopId)
      // Uninstalled since (no token): the next sync after a reinstall reads everything anyway.
      if (!shop?.access_token) continue
      await applyDeferredRefresh(opts.db, opts.clients.clientFor(shop), job.data)
    }
  })
}
