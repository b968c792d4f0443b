import { staleJobs } from '../features/exports/repo.ts'
import { ExportBusy, type ExportDeps, runExport } from '../features/exports/run.ts'
import type { EnqueueExport } from '../features/exports/service.ts'
import { findShopById } from '../platform/shops-repo.ts'
import { executor, type Jobs } from './boss.ts'

/**
 * CSV exports run on pg-boss like billing (issue 12 item 13), so a crash or a second process
 * never loses or doubles one:
 * - `export-run`: one export. Sent in the transaction that records the job (a job never exists
 *   without its run); `stately` with the export id as singleton key keeps one queued and one
 *   active per export; the job row's claim (features/exports/run.ts) lets one worker run it.
 *   A worker that dies leaves its queue job active until it expires; the retry finds the row's
 *   heartbeat old and runs the export again from the start.
 * - `export-sweep` (cron, every minute): puts exports back on the queue whose row has had no
 *   write for 10 minutes (their queue job was lost or ran out of retries).
 */
export const EXPORT_QUEUES = { run: 'export-run', sweep: 'export-sweep' } as const

export type ExportJobData = { shopId: string; exportId: string }

/** Exports one process runs at once (each holds a connection or two and a file). */
const WORKERS = 2
const SWEEP_STALE_SECONDS = 600

export function exportEnqueuer(jobs: Jobs): EnqueueExport {
  return async (tx, data) => {
    await jobs.boss.send(EXPORT_QUEUES.run, data satisfies ExportJobData, {
      singletonKey: data.exportId,
      db: executor(tx),
    })
  }
}

export async function startExportJobs(opts: {
  jobs: Jobs
  deps: ExportDeps
  cron?: boolean
  pollingIntervalSeconds?: number
}): Promise<void> {
  const { boss } = opts.jobs
  const { db, log } = opts.deps
  await opts.jobs.createQueue(EXPORT_QUEUES.run, {
    name: EXPORT_QUEUES.run,
    policy: 'stately',
    retryLimit: 10,
    retryDelay: 30,
    retryBackoff: true,
    // Well above an export's length (100k contracts take ~2 s); a dead worker's job is retried after it.
    expireInSeconds: 600,
  })
  await opts.jobs.createQueue(EXPORT_QUEUES.sweep, {
    name: EXPORT_QUEUES.sweep,
    retryLimit: 0,
    expireInSeconds: 120,
  })
  const work = { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2 }
  for (let i = 0; i < WORKERS; i++) {
    await boss.work<ExportJobData>(EXPORT_QUEUES.run, work, async ([job]) => {
      if (!job) return
      const shop = await findShopById(db, job.data.shopId)
      if (!shop) return
      try {
        await runExport(opts.deps, shop, job.data.exportId)
      } catch (error) {
        // Busy: another worker runs it now; the retry finds it ended (or its worker dead).
        if (!(error instanceof ExportBusy))
          log?.error({ err: error, exportId: job.data.exportId }, 'export job failed')
        throw error
      }
    })
  }
  await boss.work(EXPORT_QUEUES.sweep, work, async () => {
    for (const stale of await staleJobs(db, SWEEP_STALE_SECONDS)) {
      await boss.send(
        EXPORT_QUEUES.run,
        { shopId: stale.shop_id, exportId: stale.id } satisfies ExportJobData,
        {
          singletonKey: stale.id,
        },
      )
    }
  })
  if (opts.cron ?? true) await boss.schedule(EXPORT_QUEUES.sweep, '* * * * *')
}
