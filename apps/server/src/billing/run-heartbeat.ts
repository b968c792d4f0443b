import type { Db, DbClient } from '../db/pool.ts'

/** How often a running billing run says it is alive. */
export const RUN_HEARTBEAT_SECONDS = 10
/**
 * A run whose heartbeat is older than this is taken for dead wherever its process ran (twelve
 * missed beats: a busy event loop is slow, not this slow). On the run's own host a dead owner
 * is seen at once (run-recovery.ts).
 */
export const RUN_STALE_SECONDS = 120

/** The running run is alive. */
async function touchRun(db: DbClient, shopId: string, runId: string): Promise<void> {
  await db.query(
    'update billing_runs set heartbeat_at = now() where shop_id = $1 and id = $2 and finished_at is null',
    [shopId, runId],
  )
}

/**
 * Touches the run's heartbeat every `everyMs` until stopped. A failed touch is skipped (the
 * next one comes; only a long outage makes the run look dead, and then its resume charges
 * nothing twice: every charge goes through its cycle row).
 */
export function startRunHeartbeat(
  db: Db,
  shopId: string,
  runId: string,
  everyMs = RUN_HEARTBEAT_SECONDS * 1000,
): { stop(): Promise<void> } {
  let stopped = false
  let touching: Promise<void> = Promise.resolve()
  let timer: NodeJS.Timeout | undefined
  const beat = () => {
    timer = setTimeout(() => {
      touching = touchRun(db, shopId, runId)
        .catch(() => {})
        .then(() => {
          if (!stopped) beat()
        })
    }, everyMs)
    // A heartbeat never keeps a process alive (the CLI exits when its run is done).
    timer.unref()
  }
  beat()
  return {
    async stop() {
      stopped = true
      clearTimeout(timer)
      await touching
    },
  }
}
