import type { Db } from '../db/pool.ts'
import { resumeDuePauses } from '../features/my-page/resume-sweep.ts'
import type { ContractActions } from '../features/subscriptions/actions-service.ts'
import { type Jobs, startCron } from './boss.ts'

/**
 * `my-page-resume` (cron, every 10 minutes): resumes the contracts whose subscriber paused them
 * for N cycles, a day before the billing they paused until (features/my-page/resume-sweep.ts).
 */
export const MY_PAGE_RESUME_QUEUE = 'my-page-resume'

export async function startMyPageJobs(opts: {
  jobs: Jobs
  db: Db
  actions: ContractActions
  log?: { warn(obj: object, msg: string): void }
  now?: () => Date
  cron?: boolean
}): Promise<void> {
  const every10 = {
    cron: (opts.cron ?? true) && '*/10 * * * *',
    policy: 'singleton',
    expireInSeconds: 900,
    pollingIntervalSeconds: 30,
  } as const
  await startCron(opts.jobs, MY_PAGE_RESUME_QUEUE, every10, () =>
    resumeDuePauses(
      { db: opts.db, actions: opts.actions, ...(opts.log ? { log: opts.log } : {}) },
      (opts.now ?? (() => new Date()))(),
    ),
  )
}
