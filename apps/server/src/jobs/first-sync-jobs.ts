import type { Db } from '../db/pool.ts'
import type { ShopClients } from '../platform/shop-clients.ts'
import { findInstalledShop, type ShopRow } from '../platform/shops-repo.ts'
import { fullSync } from '../sync/full-sync.ts'
import { orderHistoryLine } from '../sync/sync-message.ts'
import { type Jobs, retries, workOnShop } from './boss.ts'

/**
 * `first-sync`: the mirror of a shop just installed through token exchange, filled by the full
 * sync (bulk exports), on the job queue instead of in the installing request's process: the
 * request answers at once, a sync cut off by a crash or a platform outage is retried (3 more
 * tries, 30 s then doubling), and any process may run it. `stately` with the shop as singleton
 * key: one sync of a shop queued and one running at a time, so two processes installing it
 * together (both exchanging the token) leave one sync, never two at once. The process that runs
 * it prints the line the merchant's operator reads.
 */
export const FIRST_SYNC_QUEUE = 'first-sync'

export type FirstSyncData = { shopId: string }

/** Queues the first sync of a shop just installed (the installer's `onInstalled`). */
export type QueueFirstSync = (shop: ShopRow) => Promise<void>

export type FirstSyncOptions = {
  jobs: Jobs
  db: Db
  clients: ShopClients
  /** Where the line of a finished sync goes (main.ts: the console). */
  print: (line: string) => void
  log?: { error(obj: object, msg: string): void }
  pollingIntervalSeconds?: number
  /** The first retry's delay (seconds, then doubling; default 30). */
  retryDelaySeconds?: number
}

/** Syncs one process runs at once (each paces its calls through the shop's own client). */
const WORKERS = 2

/** Starts the workers; answers the hook that queues a shop's first sync. */
export async function startFirstSyncJobs(opts: FirstSyncOptions): Promise<QueueFirstSync> {
  const { jobs, db } = opts
  await jobs.createQueue(FIRST_SYNC_QUEUE, {
    policy: 'stately',
    ...retries(3, opts.retryDelaySeconds ?? 30),
    // A large shop's bulk exports take a while; a killed worker's job is retried after this.
    expireInSeconds: 3600,
  })
  const workers = { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2, workers: WORKERS }
  await workOnShop<FirstSyncData>(jobs, db, FIRST_SYNC_QUEUE, workers, async (shop) => {
    if (!shop.access_token) return
    try {
      const summary = await fullSync(db, opts.clients.clientFor(shop), shop)
      const synced = (await findInstalledShop(db, shop.domain)) ?? shop
      const history = orderHistoryLine(summary, synced.iana_timezone)
      opts.print(
        `[teiki] ${shop.domain} をインストールし同期しました: 契約 ${summary.contracts} 件${history ? `。${history}` : ''}`,
      )
    } catch (error) {
      opts.log?.error({ err: error, shop: shop.domain }, 'first sync failed (it is retried)')
      throw error
    }
  })
  return async (shop) => {
    if (!shop.access_token) return
    await jobs.boss.send(FIRST_SYNC_QUEUE, { shopId: shop.id } satisfies FirstSyncData, {
      singletonKey: shop.id,
    })
  }
}
