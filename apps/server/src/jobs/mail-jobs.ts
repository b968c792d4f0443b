import type { Mailer } from '../mail/mailer.ts'
import { type Jobs, startCron } from './boss.ts'

/**
 * `mail-drain` (cron, every minute, and once at start): sends what the outbox holds that is due
 * — mails decided by a process that died before sending them, sends cut off mid-way, and
 * failed tries whose retry time has come. The path that decides a mail also sends it at once;
 * this is the part that makes "decided" mean "sent" whatever happens in between.
 */
export const MAIL_QUEUE = 'mail-drain'

export async function startMailJobs(opts: {
  jobs: Jobs
  mailer: Mailer
  log?: { error(obj: object, msg: string): void }
  cron?: boolean
  pollingIntervalSeconds?: number
}): Promise<void> {
  const cron = (opts.cron ?? true) && '* * * * *'
  const drain = {
    cron,
    // Not `singleton`: a drain that was active in a process killed mid-way stayed active until
    // it expired (10 minutes), and a singleton queue starts no other drain meanwhile, in any
    // process, so every mail waited. Drains may overlap: each claims its rows (skip locked).
    policy: 'standard',
    expireInSeconds: 300,
    pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2,
  } as const
  await startCron(opts.jobs, MAIL_QUEUE, drain, () =>
    opts.mailer.drain().catch((error: unknown) => {
      opts.log?.error({ err: error }, 'mail drain failed')
      throw error
    }),
  )
  if (cron) await opts.jobs.boss.send(MAIL_QUEUE, {})
}
