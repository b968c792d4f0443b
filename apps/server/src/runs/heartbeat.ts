import { deadOwners } from '../process/owner.ts'

// The one heartbeat of every run the app tracks in a row (billing runs, batch updates, tag
// batches, segment and contract exports): the run names its process (`owner`, process/owner.ts)
// and touches `heartbeat_at` every HEARTBEAT_SECONDS; a run is taken for dead when its owner on
// this host is gone, or when it has been silent for STALE_SECONDS wherever it ran.

/** How often a running run says it is alive. */
export const HEARTBEAT_SECONDS = 10

/**
 * A run whose heartbeat is older than this is taken for dead wherever its process ran (twelve
 * missed beats: a busy event loop is slow, not this slow). On the run's own host a dead owner
 * is seen at once (`goneOwners`).
 */
export const STALE_SECONDS = 120

export type Heartbeat = {
  /** Stops the beats and waits for one under way. */
  stop(): Promise<void>
}

/**
 * Calls `beat` every `everyMs` until stopped, one beat at a time (the next is timed from the
 * end of the last). A failed beat is skipped: the next one comes, and only a long outage makes
 * the run look dead (its resume then does nothing twice: every run works through its rows).
 * The timer never keeps a process alive (the CLI exits when its run is done).
 */
export function startHeartbeat(beat: () => Promise<unknown>, everyMs = HEARTBEAT_SECONDS * 1000): Heartbeat {
  let stopped = false
  let beating: Promise<void> = Promise.resolve()
  let timer: NodeJS.Timeout | undefined
  const next = () => {
    timer = setTimeout(() => {
      beating = beat()
        .then(
          () => {},
          () => {},
        )
        .then(() => {
          if (!stopped) next()
        })
    }, everyMs)
    timer.unref()
  }
  next()
  return {
    async stop() {
      stopped = true
      clearTimeout(timer)
      await beating
    },
  }
}

/**
 * Of the owners of unfinished runs, the ones whose process is gone (a pid of this host that no
 * longer runs). `atStart`: this process has claimed nothing yet, so its own pid is a
 * predecessor's (a restarted container often gets the pid its killed predecessor had).
 */
export async function goneOwners(owners: Promise<readonly string[]>, atStart: boolean): Promise<string[]> {
  return deadOwners(await owners, { atStart })
}

/**
 * The SQL condition of a run left by a dead worker: its owner among the text[] parameter
 * `deadParam` (goneOwners), or its heartbeat older than the seconds parameter `staleParam`.
 * `alias` qualifies the columns (`r.`).
 */
export function abandonedSql(deadParam: string, staleParam: string, alias = ''): string {
  return `(${alias}owner = any(${deadParam}::text[]) or ${alias}heartbeat_at < now() - make_interval(secs => ${staleParam}))`
}
