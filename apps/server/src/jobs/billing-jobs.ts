import { DEFAULT_BILLING_SETTINGS } from '@teiki/contract'
import { toZonedDate, zonedDayStart } from '@teiki/domain'
import type { BillingEngine } from '../billing/engine.ts'
import type { BillingLog } from '../billing/engine-context.ts'
import { runBilling } from '../billing/run.ts'
import { recoverAbortedRuns } from '../billing/run-recovery.ts'
import { type AbortedRun, claimRunDay, openAttempts, shopsToTick } from '../billing/runs-repo.ts'
import { type Db, type DbClient, withTransaction } from '../db/pool.ts'
import type { PlatformBillingAttempt } from '../platform/operations/contract-fragments.ts'
import type { ShopClients } from '../platform/shop-clients.ts'
import { findShopById } from '../platform/shops-repo.ts'
import { eachLimited } from '../runs/each-limited.ts'
import { executor, type Jobs, retries } from './boss.ts'

/**
 * The billing engine's jobs:
 * - `billing-tick` (cron, every minute): marks aborted the runs whose process died and queues
 *   their resume (billing/run-recovery.ts; also once at start), then starts each installed
 *   shop's daily run once its shop-local billing hour has come. The day is claimed in
 *   billing_schedule and the run job sent in the same transaction, so several workers start
 *   one run per shop and day.
 * - `billing-run`: one billing run (runBilling), or the resume of an aborted one; outcomes come
 *   by webhook and by poll jobs.
 * - `billing-retry`: a dunning retry at its next_retry_at (the daily run also picks it up;
 *   the cycle row's conditional update makes it happen once either way).
 * - `billing-poll`: the fallback for a missed outcome webhook: reads the attempt and applies it
 *   when ready, else fails so pg-boss retries it later (backing off).
 * - `billing-outcome`: an outcome a webhook delivery read and handed over (sent in the
 *   delivery's transaction): applied here, in batches, so the delivery answers
 *   at once instead of waiting behind the run for its follow-ups' mutations (the platform
 *   gives a delivery 5 s, then redelivers and the attempt is read again).
 */
export const BILLING_QUEUES = {
  tick: 'billing-tick',
  run: 'billing-run',
  retry: 'billing-retry',
  poll: 'billing-poll',
  outcome: 'billing-outcome',
} as const

/**
 * Outcomes applied at once per process: workers that each fetch a batch and apply it whole. A
 * worker waits out its polling interval after a batch that took less, and a batch waits for its
 * slowest settlement, so one worker of 24 applied 12 at a time settled a Plus shop's 5,000
 * outcomes slower than its creates came back (1,914 waiting at once, ratio 0.76 of the bound):
 * several workers keep fetching while another finishes its batch.
 */
const OUTCOME_WORKERS = 4
/** Outcome jobs each worker fetches, and applies at once. */
const OUTCOME_BATCH = 6

/** A `billing-outcome` job: the attempt as the delivery read it. */
export type OutcomeJob = { shopId: string; attempt: PlatformBillingAttempt }

/** A `billing-run` job: a shop's daily run, or (`resumeOf`) the resume of an aborted run. */
export type RunJob = { shopId: string; date: string; now: string; resumeOf?: string }
export type CycleJob = { shopId: string; cycleId: string; attemptNo: number }

export type BillingJobsOptions = {
  jobs: Jobs
  db: Db
  clients: ShopClients
  engine: BillingEngine
  log?: BillingLog
  /** Schedule the per-minute tick (off in tests, which tick by hand). Default true. */
  cron?: boolean
  /**
   * Sweep the runs of dead processes once at start (default: as `cron`; tests sharing one
   * database sweep their own shops by ticking).
   */
  recoverOnStart?: boolean
  /** Seconds before the first poll of an attempt (default 60: the webhook usually wins). */
  pollAfterSeconds?: number
  /** Seconds before polling again an attempt that was not ready (default 30, backing off). */
  pollRetryDelaySeconds?: number
  pollingIntervalSeconds?: number
}

export class AttemptNotReady extends Error {
  constructor(cycleId: string) {
    super(`billing attempt of cycle ${cycleId} is not ready yet`)
    this.name = 'AttemptNotReady'
  }
}

/** Queues the resume of an aborted run as a `billing-run` job (keyed by the run: once). */
function queueResume(jobs: Jobs) {
  return async (tx: DbClient, aborted: AbortedRun) => {
    const job: RunJob = {
      shopId: aborted.shop_id,
      date: aborted.run_date,
      now: aborted.run_at.toISOString(),
      resumeOf: aborted.id,
    }
    await jobs.boss.send(BILLING_QUEUES.run, job, { singletonKey: `resume:${aborted.id}`, db: executor(tx) })
  }
}

/** The jobs' work, callable without pg-boss (tests inject `now`). */
export function billingJobHandlers(
  opts: Omit<
    BillingJobsOptions,
    'cron' | 'recoverOnStart' | 'pollingIntervalSeconds' | 'pollAfterSeconds' | 'pollRetryDelaySeconds'
  >,
) {
  const { jobs, engine, db } = opts

  /**
   * Marks aborted the runs whose process died (billing/run-recovery.ts) and queues their
   * resumes. `atStart`: this process has made no run yet (runs under its pid are a predecessor's).
   */
  function recover(opts: { atStart?: boolean; shopIds?: string[]; staleSeconds?: number } = {}) {
    return recoverAbortedRuns({ db, queueResume: queueResume(jobs), atStart: false, ...opts })
  }

  /**
   * Resumes the runs of dead processes, then starts today's run of every shop whose billing
   * hour has come and that has not run today (shop-local). `shopIds` limits the shops (tests
   * share one database). Answers the daily runs started.
   */
  async function tick(now: Date, shopIds?: string[]): Promise<RunJob[]> {
    // A failed sweep does not hold up the daily runs; the next tick sweeps again.
    await recover(shopIds ? { shopIds } : {}).catch((err: unknown) =>
      opts.log?.error({ err }, 'runs not recovered'),
    )
    const started: RunJob[] = []
    for (const shop of await shopsToTick(db, DEFAULT_BILLING_SETTINGS.billingHour, shopIds)) {
      const date = toZonedDate(now, shop.iana_timezone)
      const hourStart = zonedDayStart(date, shop.iana_timezone).getTime() + shop.billing_hour * 3_600_000
      if (now.getTime() < hourStart) continue
      if (shop.last_run_date !== null && shop.last_run_date >= date) continue
      const job: RunJob = { shopId: shop.id, date, now: now.toISOString() }
      const claimed = await withTransaction(db, async (tx) => {
        if (!(await claimRunDay(tx, shop.id, date))) return false
        await jobs.boss.send(BILLING_QUEUES.run, job, {
          singletonKey: `${shop.id}:${date}`,
          db: executor(tx),
        })
        return true
      })
      if (claimed) started.push(job)
    }
    return started
  }

  async function run(job: RunJob) {
    const shop = await findShopById(db, job.shopId)
    if (!shop) return null
    const summary = await runBilling({
      db: opts.db,
      clients: opts.clients,
      shop,
      now: new Date(job.now),
      engine,
      trigger: job.resumeOf ? 'resume' : 'schedule',
      ...(job.resumeOf ? { resumedFrom: job.resumeOf } : {}),
      wait: false,
    })
    // The attempts the dead process made and could not follow (it was waiting for them, or
    // died before queuing their poll): polled like this run's own.
    if (job.resumeOf) for (const row of await openAttempts(db, shop.id)) await engine.watch(shop.id, row)
    return summary
  }

  async function retry(job: CycleJob, now: Date = new Date()) {
    const shop = await findShopById(db, job.shopId)
    if (!shop) return null
    // A minute of slack: pg-boss starts the job at next_retry_at by the database's clock.
    return engine.retryCycle(shop, job.cycleId, job.attemptNo, { dueBy: new Date(now.getTime() + 60_000) })
  }

  async function poll(job: CycleJob, now: Date = new Date()) {
    const shop = await findShopById(db, job.shopId)
    if (!shop) return 'ignored' as const
    const outcome = await engine.pollCycle(shop, job.cycleId, { now })
    if (outcome === 'pending') throw new AttemptNotReady(job.cycleId)
    return outcome
  }

  return { recover, tick, run, retry, poll }
}

export type BillingJobHandlers = ReturnType<typeof billingJobHandlers>

/** Creates the queues, plugs them into the engine as its scheduler and starts the workers. */
export async function startBillingJobs(opts: BillingJobsOptions): Promise<BillingJobHandlers> {
  const { boss } = opts.jobs
  const handlers = billingJobHandlers(opts)
  const log = opts.log
  // `stately`: at most one queued and one active job per singletonKey (a shop's day, a cycle's
  // attempt). A job active in a process that was killed holds its key until it expires, so the
  // quick ones expire soon (a retry is one create, a poll one read).
  await opts.jobs.createQueue(BILLING_QUEUES.tick, {
    retryLimit: 0,
    expireInSeconds: 300,
  })
  await opts.jobs.createQueue(BILLING_QUEUES.run, {
    policy: 'stately',
    ...retries(3, 60),
    expireInSeconds: 3 * 3600,
  })
  await opts.jobs.createQueue(BILLING_QUEUES.retry, {
    policy: 'stately',
    ...retries(5, 60),
    expireInSeconds: 300,
  })
  await opts.jobs.createQueue(BILLING_QUEUES.outcome, {
    policy: 'stately',
    ...retries(10, 30),
    expireInSeconds: 300,
  })
  await opts.jobs.createQueue(BILLING_QUEUES.poll, {
    policy: 'stately',
    ...retries(40, 30),
    expireInSeconds: 120,
  })

  const pollAfter = opts.pollAfterSeconds ?? 60
  opts.engine.setScheduler({
    async pollLater(shopId, cycleId, attemptNo) {
      await boss.send(BILLING_QUEUES.poll, { shopId, cycleId, attemptNo } satisfies CycleJob, {
        singletonKey: `${shopId}:${cycleId}:${attemptNo}`,
        startAfter: pollAfter,
      })
    },
    async retryAt(shopId, cycleId, attemptNo, at) {
      await boss.send(BILLING_QUEUES.retry, { shopId, cycleId, attemptNo } satisfies CycleJob, {
        singletonKey: `${shopId}:${cycleId}:${attemptNo}`,
        startAfter: at,
      })
    },
    async settleLater(tx, shopId, attempt) {
      await boss.send(BILLING_QUEUES.outcome, { shopId, attempt } satisfies OutcomeJob, {
        singletonKey: `${shopId}:${attempt.id}`,
        db: executor(tx),
      })
    },
  })

  const work = { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2 }
  const onError = (queue: string) => (error: unknown) => {
    if (!(error instanceof AttemptNotReady)) log?.error({ err: error, queue }, 'billing job failed')
    throw error
  }
  await boss.work<Record<string, never>>(BILLING_QUEUES.tick, work, async () => {
    await handlers.tick(new Date()).catch(onError(BILLING_QUEUES.tick))
  })
  await boss.work<RunJob>(BILLING_QUEUES.run, work, async ([job]) => {
    if (job) await handlers.run(job.data).catch(onError(BILLING_QUEUES.run))
  })
  await boss.work<CycleJob>(BILLING_QUEUES.retry, work, async ([job]) => {
    if (job) await handlers.retry(job.data).catch(onError(BILLING_QUEUES.retry))
  })
  await boss.work<CycleJob>(BILLING_QUEUES.poll, work, async ([job]) => {
    if (job) await handlers.poll(job.data).catch(onError(BILLING_QUEUES.poll))
  })
  // Outcomes are taken OUTCOME_BATCH at a time by each of OUTCOME_WORKERS workers, so a run's
  // thousands of webhook outcomes are not paced by the interval. One that fails is logged and
  // left to its attempt's poll job (every engine attempt has one), which reads and applies it again.
  for (let i = 0; i < OUTCOME_WORKERS; i++) {
    await boss.work<OutcomeJob>(
      BILLING_QUEUES.outcome,
      { pollingIntervalSeconds: Math.min(work.pollingIntervalSeconds, 0.5), batchSize: OUTCOME_BATCH },
      async (batch) => {
        await eachLimited(batch, OUTCOME_BATCH, async (job) => {
          await opts.engine.onAttemptOutcome(job.data.shopId, job.data.attempt).catch((error: unknown) => {
            log?.warn({ err: error, queue: BILLING_QUEUES.outcome }, 'outcome left to the poll job')
          })
        })
      },
    )
  }
  if (opts.recoverOnStart ?? opts.cron ?? true) {
    await handlers.recover({ atStart: true }).catch((error: unknown) => {
      log?.error({ err: error }, 'aborted billing runs not recovered at start')
    })
  }
  if (opts.cron ?? true) await boss.schedule(BILLING_QUEUES.tick, '* * * * *')
  return handlers
}
