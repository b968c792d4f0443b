import type { Db } from '../db/pool.ts'
import { HEARTBEAT_SECONDS, type Heartbeat, startHeartbeat } from '../runs/heartbeat.ts'
import { touchRun } from './runs-repo.ts'

/**
 * A running billing run's heartbeat (runs/heartbeat.ts: every 10 s until stopped, a failed
 * touch skipped; its resume then charges nothing twice: every charge goes through its cycle
 * row). A run silent for 2 minutes, or whose process on this host is gone, is marked 中断 and
 * resumed (run-recovery.ts).
 */
export function startRunHeartbeat(
  db: Db,
  shopId: string,
  runId: string,
  everyMs = HEARTBEAT_SECONDS * 1000,
): Heartbeat {
  return startHeartbeat(() => touchRun(db, shopId, runId), everyMs)
}
