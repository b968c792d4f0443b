import PgBoss from 'pg-boss'
import type { Db, DbClient } from '../db/pool.ts'

/**
 * Background jobs on pg-boss 10, in the app's own database (schema `pgboss`): persisted,
 * scheduled (`startAfter`, cron), retried, and fetched with `FOR UPDATE SKIP LOCKED`, so any
 * number of worker processes can run against one database without doing a job twice.
 *
 * pg-boss runs its SQL through the app's pg pool (`db.executeSql`) instead of opening a pool of
 * its own: the embedded PGlite serves every connection from one backend, so a second pool would
 * only queue behind the first; on PostgreSQL it keeps the process within DATABASE_POOL_SIZE.
 */
export type Jobs = {
  readonly boss: PgBoss
  /** Stops the workers (waiting for jobs in progress, up to `timeoutMs`) and the timers; the pool stays open. */
  stop(timeoutMs?: number): Promise<void>
}

export type JobsOptions = {
  db: Db
  /** Default `pgboss`; tests use their own schema so their workers never take another file's jobs. */
  schema?: string
  log?: { error: (obj: object, msg: string) => void }
  /** How often workers look for jobs (seconds, default 2). */
  pollingIntervalSeconds?: number
}

/** pg-boss's connection interface over a pool or a client inside a transaction. */
export function executor(db: DbClient): PgBoss.Db {
  return { executeSql: (text, values) => db.query(text, values) }
}

export async function startJobs(opts: JobsOptions): Promise<Jobs> {
  const boss = new PgBoss({
    db: executor(opts.db),
    schema: opts.schema ?? 'pgboss',
    // Completed jobs are kept a week for inspection, then archived and dropped.
    deleteAfterDays: 7,
  })
  boss.on('error', (error) => {
    if (opts.log) opts.log.error({ err: error }, 'job queue error')
    else console.error('[jobs]', error)
  })
  await boss.start()
  let stopped = false
  return {
    boss,
    async stop(timeoutMs = 10_000) {
      if (stopped) return
      stopped = true
      await boss.stop({ graceful: true, wait: true, close: false, timeout: timeoutMs })
    },
  }
}
