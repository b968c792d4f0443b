import { exportRows } from '../features/exports/repo.ts'
import { ExportBusy, type ExportDeps, runExport } from '../features/exports/run.ts'
import type { EnqueueExport } from '../features/exports/service.ts'
import { sweepOrphans } from '../runs/tracked-run.ts'
import { executor, type Jobs, retries, startSweep, workOnShop } from './boss.ts'

/**
 * CSV exports run on pg-boss like billing (issue 12 item 13), so a crash or a second process
 * never loses or doubles one:
 * - `export-run`: one export. Sent in the transaction that records the job (a job never exists
 *   without its run); `stately` with the export id as singleton key keeps one queued and one
 *   active per export; the job row's claim (a tracked run, runs/tracked-run.ts) lets one
 *   worker run it. A worker that dies leaves its queue job active until it expires; the retry
 *   finds the row's owner gone (or its heartbeat old) and runs the export again from the start.
 * - `export-sweep` (cron, every minute): puts exports back on the queue that need a worker:
 *   queued and not taken for a minute (their queue job was lost or ran out of retries), or
 *   running under a worker that died.
 */
export const EXPORT_QUEUES = { run: 'export-run', sweep: 'export-sweep' } as const

export type ExportJobData = { shopId: string; exportId: string }

/** Exports one process runs at once (each holds a connection or two and a file). */
const WORKERS = 2

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
    policy: 'stately',
    ...retries(10, 30),
    // Well above an export's length (100k contracts take ~2 s); a dead worker's job is retried after it.
    expireInSeconds: 600,
  })
  const pollingIntervalSeconds = opts.pollingIntervalSeconds ?? 2
  const workers = { pollingIntervalSeconds, workers: WORKERS }
  await workOnShop<ExportJobData>(opts.jobs, db, EXPORT_QUEUES.run, workers, async (shop, { exportId }) => {
    try {
      await runExport(opts.deps, shop, exportId)
    } catch (error) {
      // Busy: another worker runs it now; the retry finds it ended (or its worker dead).
      if (!(error instanceof ExportBusy)) log?.error({ err: error, exportId }, 'export job failed')
      throw error
    }
  })
  const sweep = { pollingIntervalSeconds, cron: opts.cron, atStart: false }
  await startSweep(opts.jobs, EXPORT_QUEUES.sweep, sweep, () =>
    sweepOrphans(db, exportRows, false, (e) =>
      boss.send(EXPORT_QUEUES.run, { shopId: e.shop_id, exportId: e.id } satisfies ExportJobData, {
        singletonKey: e.id,
      }),
    ),
  )
}
