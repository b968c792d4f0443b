import type { Db } from '../db/pool.ts'
import { attributeAll } from '../features/traffic/attribution.ts'
import { type Jobs, startCron } from './boss.ts'

/**
 * `traffic-attribution` (cron, every minute): the contracts of the tracked checkouts whose
 * contract has reached the mirror are attributed (features/traffic/attribution.ts). One job a
 * minute for all the processes on the database, one at a time (`singleton`); a run that fails
 * is logged and left to the next minute (the report also attributes when it is read).
 */
export const TRAFFIC_QUEUE = 'traffic-attribution'

export async function startTrafficJobs(opts: {
  jobs: Jobs
  db: Db
  log?: { warn(obj: object, msg: string): void }
  /** false: only the jobs sent by hand (tests). */
  cron?: boolean
  pollingIntervalSeconds?: number
}): Promise<void> {
  const everyMinute = {
    cron: (opts.cron ?? true) && '* * * * *',
    policy: 'singleton',
    expireInSeconds: 600,
    pollingIntervalSeconds: opts.pollingIntervalSeconds,
  } as const
  await startCron(opts.jobs, TRAFFIC_QUEUE, everyMinute, async () => {
    try {
      return await attributeAll(opts.db)
    } catch (error) {
      opts.log?.warn({ err: error }, 'attribution sweep failed')
      throw error
    }
  })
}
