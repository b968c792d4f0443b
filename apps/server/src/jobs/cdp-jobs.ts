import type { Db } from '../db/pool.ts'
import { cdpJobDeps } from '../features/cdp/deps.ts'
import { orphanSegmentExports, runningExportOwners } from '../features/cdp/export-jobs-repo.ts'
import {
  type EnqueueSegmentExport,
  runSegmentExport,
  sweepExportFiles,
} from '../features/cdp/segment-export.ts'
import type { EnqueueTagJob } from '../features/cdp/tag-batch.ts'
import { runTagJob } from '../features/cdp/tag-run.ts'
import { orphanTagJobs, runningTagOwners } from '../features/cdp/tag-run-repo.ts'
import type { AppInstance } from '../http/app-instance.ts'
import type { Mailer } from '../mail/mailer.ts'
import { findShopById } from '../platform/shops-repo.ts'
import { deadOwners } from '../process/owner.ts'
import { executor, type Jobs } from './boss.ts'

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
  const tags = await orphanTagJobs(db, deadOwners(await runningTagOwners(db), { atStart }))
  for (const t of tags)
    await jobs.boss.send(CDP_QUEUES.tag, { shopId: t.shop_id, jobId: t.id } satisfies TagJobData)
  const exports = await orphanSegmentExports(db, deadOwners(await runningExportOwners(db), { atStart }))
  for (const e of exports) {
    await jobs.boss.send(CDP_QUEUES.export, {
      shopId: e.shop_id,
      exportId: e.id,
    } satisfies SegmentExportJobData)
  }
  const files = await sweepExportFiles(db, deps.dataDir)
  return { tags: tags.length, exports: exports.length, files }
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
  const { boss } = opts.jobs
  const deps = cdpJobDeps(opts.app, opts)
  const { db } = deps.tags
  const log = opts.app.log
  const retried = { policy: 'standard', retryLimit: 10, retryDelay: 30, retryBackoff: true } as const
  // 100k customers at the platform's pace take hours; the sweep resumes a dead worker long before.
  await opts.jobs.createQueue(CDP_QUEUES.tag, { name: CDP_QUEUES.tag, ...retried, expireInSeconds: 6 * 3600 })
  await opts.jobs.createQueue(CDP_QUEUES.export, {
    name: CDP_QUEUES.export,
    ...retried,
    expireInSeconds: 600,
  })
  await opts.jobs.createQueue(CDP_QUEUES.sweep, {
    name: CDP_QUEUES.sweep,
    retryLimit: 0,
    expireInSeconds: 120,
  })
  const work = { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2 }
  const onError = (what: object) => (error: unknown) => {
    log.error({ err: error, ...what }, 'cdp job failed (it is retried)')
    throw error
  }
  // Two batches at once per process (each paces its calls through the shop's one client).
  for (let i = 0; i < 2; i++) {
    await boss.work<TagJobData>(CDP_QUEUES.tag, work, async ([job]) => {
      const shop = job && (await findShopById(db, job.data.shopId))
      if (shop) await runTagJob(deps.tags, shop, job.data.jobId).catch(onError({ tagJob: job.data.jobId }))
    })
  }
  await boss.work<SegmentExportJobData>(CDP_QUEUES.export, work, async ([job]) => {
    const shop = job && (await findShopById(db, job.data.shopId))
    if (shop) {
      await runSegmentExport(deps.exports, shop, job.data.exportId).catch(
        onError({ segmentExport: job.data.exportId }),
      )
    }
  })
  await boss.work(CDP_QUEUES.sweep, work, async () => {
    await sweepCdpJobs(opts.jobs, { db, dataDir: opts.dataDir }, false)
  })
  await sweepCdpJobs(opts.jobs, { db, dataDir: opts.dataDir }, true)
  if (opts.cron ?? true) await boss.schedule(CDP_QUEUES.sweep, '* * * * *')
}
