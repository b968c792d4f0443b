import { batchDeps } from '../features/batch/deps.ts'
import { batchRows } from '../features/batch/repo.ts'
import { type BatchDeps, runBatch } from '../features/batch/run.ts'
import type { EnqueueBatch } from '../features/batch/service.ts'
import type { AppInstance } from '../http/app-instance.ts'
import type { Mailer } from '../mail/mailer.ts'
import { sweepOrphans } from '../runs/tracked-run.ts'
import { executor, type Jobs, retries, startSweep, workOnShop } from './boss.ts'

/**
 * Batch updates run on pg-boss (issue 17), so a crash or a second process never loses or
 * doubles one:
 * - `batch-run`: one batch. Sent in the transaction that records it. The batch row's claim
 *   (a tracked run, runs/tracked-run.ts) lets one worker run it; a job that finds it taken or ended
 *   does nothing. A standard queue without singleton keys: a killed worker's job stays active
 *   until it expires, and its resume must not wait behind it.
 * - `batch-sweep` (cron every minute, and once at start): sends `batch-run` for batches that
 *   need a worker — running under a process that is gone (this host) or silent for 2 minutes,
 *   or queued and never picked up.
 */
export const BATCH_QUEUES = { run: 'batch-run', sweep: 'batch-sweep' } as const

export type BatchJobData = { shopId: string; batchId: string }

/** Batches one process runs at once. */
const WORKERS = 2

export function batchEnqueuer(jobs: Jobs): EnqueueBatch {
  return async (tx, data) => {
    await jobs.boss.send(BATCH_QUEUES.run, data satisfies BatchJobData, { db: executor(tx) })
  }
}

/** Sends a run for every batch that needs a worker; `atStart`: runs under this pid are a predecessor's. */
export async function sweepBatches(
  jobs: Jobs,
  deps: Pick<BatchDeps, 'db'>,
  atStart: boolean,
): Promise<number> {
  return sweepOrphans(deps.db, batchRows, atStart, (o) =>
    jobs.boss.send(BATCH_QUEUES.run, { shopId: o.shop_id, batchId: o.id } satisfies BatchJobData),
  )
}

export async function startBatchJobs(opts: {
  jobs: Jobs
  app: AppInstance
  mailer?: Mailer
  cron?: boolean
  pollingIntervalSeconds?: number
  concurrency?: number
}): Promise<void> {
  const deps = batchDeps(opts.app, opts.mailer, opts.concurrency)
  const { db, log } = deps
  await opts.jobs.createQueue(BATCH_QUEUES.run, {
    policy: 'standard',
    ...retries(10, 30),
    // 10,000 contracts on a Standard shop take about an hour; the sweep resumes a dead worker's
    // batch long before its job expires.
    expireInSeconds: 4 * 3600,
  })
  const pollingIntervalSeconds = opts.pollingIntervalSeconds ?? 2
  const workers = { pollingIntervalSeconds, workers: WORKERS }
  await workOnShop<BatchJobData>(opts.jobs, db, BATCH_QUEUES.run, workers, async (shop, { batchId }) => {
    try {
      await runBatch(deps, shop, batchId)
    } catch (error) {
      log?.error({ err: error, batchId }, 'batch job failed (it is retried)')
      throw error
    }
  })
  await startSweep(opts.jobs, BATCH_QUEUES.sweep, { pollingIntervalSeconds, cron: opts.cron }, (atStart) =>
    sweepBatches(opts.jobs, deps, atStart),
  )
}
