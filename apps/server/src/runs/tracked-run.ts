import type pg from 'pg'
import type { Db } from '../db/pool.ts'
import { PROCESS_OWNER } from '../process/owner.ts'
import { goneOwners, HEARTBEAT_SECONDS, type Heartbeat, startHeartbeat } from './heartbeat.ts'
import type { JobKey, JobRows } from './job-rows.ts'

// The tracked run (issue 24 item 1, ADR 0036): the one way a job row of the app (batch_updates,
// cdp_tag_jobs, cdp_segment_exports, contract_exports) is claimed, kept alive, stopped and
// resumed. The rows' SQL is runs/job-rows.ts; the queue jobs that call these are in jobs/.

/** Why a tracked run's signal fired: its run was cancelled, or another worker took its row over. */
export class RunStopped extends Error {
  constructor(readonly why: 'cancelled' | 'lost') {
    super(why === 'cancelled' ? 'run cancelled' : 'run taken over by another worker')
    this.name = 'RunStopped'
  }
}

export type TrackedRun<Row> = {
  /** The row as the claim answered it. */
  row: Row
  /** Fires (reason: RunStopped) when the run is cancelled or its claim is lost. */
  signal: AbortSignal
  /**
   * Reads the row's cancel and claim now, unless it was read within the last `checkMs` (a
   * runner asks before each item; the beats read it every 10 s); answers whether the signal fired.
   */
  check(): Promise<boolean>
  /** Throws the signal's reason if the claim was lost (what was done is the new owner's to go on from). */
  throwIfLost(): void
}

export type TrackedRunSpec<Row extends pg.QueryResultRow> = {
  db: Db
  rows: JobRows<Row>
  shopId: string
  id: string
  /** Between two beats (ms; default HEARTBEAT_SECONDS). */
  beatMs?: number
  /** Least time between two reads by `check()` (ms; default 300). */
  checkMs?: number
}

const isLost = (signal: AbortSignal) =>
  signal.aborted && signal.reason instanceof RunStopped && signal.reason.why === 'lost'

/**
 * Runs `work` on a job row once this process has claimed it: a queued row, or a running one
 * whose worker died (its owner on this host gone, or silent for the table's stale time). While
 * `work` runs the row beats (`heartbeat_at`, owner-checked), and the signal fires when the run
 * is cancelled or the row is no longer this process's. What `work` throws hands the row back to
 * the queue (queued, for the queue job's retry or the sweep) and is thrown again; once the
 * claim was lost nothing is handed back nor thrown: the new owner goes on. A runner that stops
 * for its signal throws (`throwIfLost`, `signal.throwIfAborted()`) or ends the run as cancelled.
 * Answers `{ value }`, or null when the row was not there to take (ended, or running under a
 * live worker) or was lost.
 */
export async function runTracked<Row extends pg.QueryResultRow, T>(
  spec: TrackedRunSpec<Row>,
  work: (run: TrackedRun<Row>) => Promise<T>,
): Promise<{ value: T } | null> {
  const { db, rows, id } = spec
  const dead = await goneOwners(rows.runningOwners(db), false)
  const row = await rows.claim(db, spec.shopId, id, PROCESS_OWNER, dead)
  if (!row) return null
  const controller = new AbortController()
  const { signal } = controller
  let readAt = 0
  const beat = async () => {
    readAt = Date.now()
    const found = await rows.touch(db, id, PROCESS_OWNER)
    if (signal.aborted) return
    if (!found.held) controller.abort(new RunStopped('lost'))
    else if (found.cancelled) controller.abort(new RunStopped('cancelled'))
  }
  const run: TrackedRun<Row> = {
    row,
    signal,
    check: async () => {
      if (!signal.aborted && Date.now() - readAt >= (spec.checkMs ?? 300)) await beat()
      return signal.aborted
    },
    throwIfLost: () => {
      if (isLost(signal)) throw signal.reason
    },
  }
  let heartbeat: Heartbeat | undefined
  try {
    // A cancel asked before this claim (a dead worker's run resumed) is seen before any work.
    await beat()
    heartbeat = startHeartbeat(beat, spec.beatMs ?? HEARTBEAT_SECONDS * 1000)
    return { value: await work(run) }
  } catch (error) {
    await heartbeat?.stop()
    if (isLost(signal)) return null
    await rows.release(db, id, PROCESS_OWNER).catch(() => {})
    throw error
  } finally {
    // Ended or not, the row is no longer this run's to beat (an ended row's beat finds it lost).
    await heartbeat?.stop()
  }
}

/**
 * Hands every row of `rows` that needs a worker to `resume` (which sends its queue job):
 * queued and not taken for a minute (its queue job lost, or out of retries), or running under
 * a dead worker. `atStart`: this process has claimed nothing yet, so rows under its own pid are
 * a predecessor's. Answers how many.
 */
export async function sweepOrphans<Row extends pg.QueryResultRow>(
  db: Db,
  rows: JobRows<Row>,
  atStart: boolean,
  resume: (key: JobKey) => Promise<unknown>,
): Promise<number> {
  const orphans = await rows.orphans(db, await goneOwners(rows.runningOwners(db), atStart))
  for (const orphan of orphans) await resume(orphan)
  return orphans.length
}
