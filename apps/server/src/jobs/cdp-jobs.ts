import type { Db } from '../db/pool.ts'
import { cdpJobDeps } from '../features/cdp/deps.ts'
import { segmentExportRows } from '../features/cdp/export-jobs-repo.ts'
import {
  type EnqueueSegmentExport,
  runSegmentExport,
  sweepExportFiles,
} from '../features/cdp/segment-export.ts'
import type { EnqueueTagJob } from '../features/cdp/tag-batch.ts'
import { runTagJob } from '../features/cdp/tag-run.ts'
import { tagJobRows } from '../features/cdp/tag-run-repo.ts'
import type { AppInstance } from '../http/app-instance.ts'
import type { Mailer } from '../mail/mailer.ts'
import { sweepOrphans } from '../runs/tracked-run.ts'
import { executor, type Jobs, retries, startSweep, workOnShop } from './boss.ts'

/**
 * The customer data platform's jobs (issue 15), on the batch updates' design (batch-jobs.ts):
 * - `cdp-tag-run`: one segment tag batch (features/cdp/tag-run.ts). Sent in the transaction that
 *   records it; the row's claim lets one worker run it, a job that finds it taken or ended does
 *   nothing. Standard queue: a killed worker's active job must not hold back the resume.
 * - `cdp-export-run`: one segment export (features/cdp/segment-export.ts): the CSV, its mail
 *   through the outbox, the file removed once the mail no longer needs it.
 * - `cdp-sweep` (cron every minute, and once at start): sends runs for tag batches and exports
 *   that need a worker (queued and never picked up, or running under a process that is gone or
 *   silent for 2 minutes), and removes export files the outbox is done with or older than a day.
 */
export const CDP_QUEUES = { tag: 'cdp-tag-run', export: 'cdp-export-run', sweep: 'cdp-sweep' } as const

export type TagJobData = { shopId: string; jobId: string }
export type SegmentExportJobData = { shopId: string; exportId: string }

export function tagJobEnqueuer(jobs: Jobs): EnqueueTagJob {
  return async (tx, data) => {
    await jobs.boss.send(CDP_QUEUES.tag, data satisfies TagJobData, { db: executor(tx) })
  }
}

export function segmentExportEnqueuer(jobs: Jobs): EnqueueSegmentExport {
  return async (tx, data) => {
    await jobs.boss.send(CDP_QUEUES.export, data satisfies SegmentExportJobData, { db: executor(tx) })
  }
}

/** Sends a run for every tag batch and export that needs a worker; `atStart`: this pid's runs are a predecessor's. */
export async function sweepCdpJobs(
  jobs: Jobs,
  deps: { db: Db; dataDir: string },
  atStart: boolean,
): Promise<{ tags: number; exports: number; files: number }> {
  const { db } = deps
  const tags = await sweepOrphans(db, tagJobRows, atStart, (t) =>
    jobs.boss.send(CDP_QUEUES.tag, { shopId: t.shop_id, jobId: t.id } satisfies TagJobData),
  )
  const exports = await sweepOrphans(db, segmentExportRows, atStart, (e) =>
    jobs.boss.send(CDP_QUEUES.export, { shopId: e.shop_id, exportId: e.id } satisfies SegmentExportJobData),
  )
  const files = await sweepExportFiles(db, deps.dataDir)
  return { tags, exports, files }
}

export async function startCdpJobs(opts: {
  jobs: Jobs
  app: AppInstance
  mailer: Mailer
  dataDir: string
  cron?: boolean
  pollingIntervalSeconds?: number
  concurrency?: number
}): Promise<void> {
  const deps = cdpJobDeps(opts.app, opts)
  const { db } = deps.tags
  const log = opts.app.log
  const retried = { policy: 'standard', ...retries(10, 30) } as const
  // 100k customers at the platform's pace take hours; the sweep resumes a dead worker long before.
  await opts.jobs.createQueue(CDP_QUEUES.tag, { ...retried, expireInSeconds: 6 * 3600 })
  await opts.jobs.createQueue(CDP_QUEUES.export, {
    ...retried,
    expireInSeconds: 600,
  })
  const pollingIntervalSeconds = opts.pollingIntervalSeconds ?? 2
  const onError = (what: object) => (error: unknown) => {
    log.error({ err: error, ...what }, 'cdp job failed (it is retried)')
    throw error
  }
  // Two batches at once per process (each paces its calls through the shop's one client).
  await workOnShop<TagJobData>(
    opts.jobs,
    db,
    CDP_QUEUES.tag,
    { pollingIntervalSeconds, workers: 2 },
    (shop, d) => runTagJob(deps.tags, shop, d.jobId).catch(onError({ tagJob: d.jobId })),
  )
  const oneWorker = { pollingIntervalSeconds, workers: 1 }
  await workOnShop<SegmentExportJobData>(opts.jobs, db, CDP_QUEUES.export, oneWorker, (shop, d) =>
    runSegmentExport(deps.exports, shop, d.exportId).catch(onError({ segmentExport: d.exportId })),
  )
  await startSweep(opts.jobs, CDP_QUEUES.sweep, { pollingIntervalSeconds, cron: opts.cron }, (atStart) =>
    sweepCdpJobs(opts.jobs, { db, dataDir: opts.dataDir }, atStart),
  )
}
