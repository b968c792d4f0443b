import { type Db, type DbClient, withTransaction } from '../db/pool.ts'
import { goneOwners, STALE_SECONDS } from '../runs/heartbeat.ts'
import { type AbortedRun, abortRuns, unfinishedRunOwners } from './runs-repo.ts'

/** What 最近の請求実行 says of a run whose process stopped mid-way (its error line). */
export const ABORTED_RUN_MESSAGE =
  '請求実行のプロセスが途中で停止したため中断しました。残りの請求は再開した実行が行います。'

/**
 * Marks aborted every unfinished run whose process is gone (an owner on this host that no
 * longer runs, or a heartbeat older than `staleSeconds` wherever it ran) and, in the same
 * transaction, has `queueResume` queue its resume: a run with the aborted one's clock, which
 * charges what it left (due contracts not claimed, creates cut off before their attempt id was
 * stored) and has its open attempts polled. Each aborted run is claimed by one sweeper (the
 * conditional update) and, the queue keyed by the run, resumed once. `atStart`: this process
 * has made no run yet, so runs under its own pid are a predecessor's.
 */
export async function recoverAbortedRuns(opts: {
  db: Db
  queueResume: (tx: DbClient, run: AbortedRun) => Promise<void>
  atStart: boolean
  shopIds?: string[]
  staleSeconds?: number
}): Promise<AbortedRun[]> {
  const { db } = opts
  const dead = await goneOwners(unfinishedRunOwners(db, opts.shopIds), opts.atStart)
  return withTransaction(db, async (tx) => {
    const aborted = await abortRuns(tx, {
      staleSeconds: opts.staleSeconds ?? STALE_SECONDS,
      deadOwners: dead,
      message: ABORTED_RUN_MESSAGE,
      ...(opts.shopIds ? { shopIds: opts.shopIds } : {}),
    })
    for (const run of aborted) await opts.queueResume(tx, run)
    return aborted
  })
}
