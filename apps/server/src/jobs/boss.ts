import PgBoss from 'pg-boss'
import type { Db, DbClient } from '../db/pool.ts'
import { findShopById, type ShopRow } from '../platform/shops-repo.ts'

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
  /**
   * Creates a queue, or brings an existing one's settings to `options` (a policy changed in the
   * code reaches databases made before), one process at a time: pg-boss's queue creation (a
   * partition table per queue) deadlocks when two processes starting together create the same
   * queues at once.
   */
  createQueue(name: string, options: Omit<PgBoss.Queue, 'name'>): Promise<void>
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

// Any fixed number, next to migrate.ts's 727_001.
const START_LOCK = 727_002

/**
 * Runs `fn` while no other process runs it (a session advisory lock on a connection of its
 * own). pg-boss creates its schema at start in a transaction under a transaction-level lock,
 * but two processes starting together still collided: the second's transaction had begun
 * before the first committed, and CREATE SCHEMA IF NOT EXISTS reads the schema's existence from
 * a catalog cache that waiting on an advisory lock does not refresh (`duplicate key value
 * violates unique constraint "pg_namespace_nspname_index"`, the second process exits). Taken
 * before pg-boss opens its transaction, the lock makes the second start see the first's schema.
 */
async function oneAtATime<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  const client = await db.connect()
  try {
    await client.query('select pg_advisory_lock($1)', [START_LOCK])
    return await fn()
  } finally {
    await client.query('select pg_advisory_unlock($1)', [START_LOCK]).catch(() => {})
    client.release()
  }
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
  await oneAtATime(opts.db, () => boss.start())
  let stopped = false
  let state: QueueState = 'running'
  holdJobsFetchedAfterStop(boss, () => state)
  return {
    boss,
    createQueue: (name, options) =>
      oneAtATime(opts.db, async () => {
        if (await boss.getQueue(name)) await boss.updateQueue(name, { name, ...options })
        else await boss.createQueue(name, { name, ...options })
      }),
    async stop(timeoutMs = 10_000) {
      if (stopped) return
      stopped = true
      state = 'stopping'
      await boss.stop({ graceful: true, wait: true, close: false, timeout: timeoutMs })
      state = 'stopped'
    },
  }
}

type QueueState = 'running' | 'stopping' | 'stopped'

/**
 * A worker's fetch that is under way when `stop` begins still hands its jobs to the handler
 * when it returns. While the stop waits for work in progress, such a job is refused (pg-boss
 * records the failure and retries it later, in this or another process) instead of started.
 * Once the stop has returned (it saw no work in progress), nothing of this queue may touch the
 * database any more (a test drops the queue's schema next): the job is held, neither run nor
 * recorded; it stays active and is retried after its expiry, as if this process had died
 * holding it.
 */
function holdJobsFetchedAfterStop(boss: PgBoss, stateOf: () => QueueState): void {
  const work = boss.work.bind(boss) as (...args: unknown[]) => Promise<string>
  const held = new Promise<never>(() => {})
  ;(boss as unknown as { work: (...args: unknown[]) => Promise<string> }).work = (...args) => {
    const handler = args.at(-1) as (jobs: unknown) => Promise<unknown>
    return work(...args.slice(0, -1), (jobs: unknown) => {
      const state = stateOf()
      if (state === 'stopped') return held
      if (state === 'stopping') return Promise.reject(new Error('job queue stopping: retried later'))
      return handler(jobs)
    })
  }
}

/** A queue's retries: up to `limit` more tries, the first `delaySeconds` later, then doubling. */
export const retries = (limit: number, delaySeconds: number) =>
  ({ retryLimit: limit, retryDelay: delaySeconds, retryBackoff: true }) as const

/**
 * Starts `workers` workers on `queue`, each job run on the shop its data names (a shop gone
 * since is skipped); what `run` throws fails the job (the queue's retries take it from there).
 */
export async function workOnShop<D extends { shopId: string }>(
  jobs: Jobs,
  db: DbClient,
  queue: string,
  options: { pollingIntervalSeconds: number; workers: number },
  run: (shop: ShopRow, data: D) => Promise<unknown>,
): Promise<void> {
  const { workers, ...work } = options
  for (let i = 0; i < workers; i++) {
    await jobs.boss.work<D>(queue, work, async ([job]) => {
      const shop = job && (await findShopById(db, job.data.shopId))
      if (shop) await run(shop, job.data)
    })
  }
}

/**
 * A queue of the clock's jobs (`cron`; false: only the jobs sent by hand, as tests do), never
 * retried: the next run does the work. Each job runs `run`.
 */
export async function startCron(
  jobs: Jobs,
  queue: string,
  options: Omit<PgBoss.Queue, 'name'> & { cron: string | false; pollingIntervalSeconds?: number },
  run: () => Promise<unknown>,
): Promise<void> {
  const { cron, pollingIntervalSeconds, ...settings } = options
  await jobs.createQueue(queue, { retryLimit: 0, ...settings })
  const work = pollingIntervalSeconds === undefined ? {} : { pollingIntervalSeconds }
  await jobs.boss.work(queue, work, async () => {
    await run()
  })
  if (cron) await jobs.boss.schedule(queue, cron)
}

/**
 * A sweep: a cron queue every minute (unless `cron` is false) whose jobs run `sweep`; run once
 * now too unless `atStart` is false (what a predecessor left).
 */
export async function startSweep(
  jobs: Jobs,
  queue: string,
  options: { pollingIntervalSeconds: number; cron?: boolean | undefined; atStart?: boolean },
  sweep: (atStart: boolean) => Promise<unknown>,
): Promise<void> {
  const cron = (options.cron ?? true) && '* * * * *'
  const { pollingIntervalSeconds } = options
  await startCron(jobs, queue, { cron, expireInSeconds: 120, pollingIntervalSeconds }, () => sweep(false))
  if (options.atStart ?? true) await sweep(true)
}
