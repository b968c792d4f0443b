import type { Mailer } from '../mail/mailer.ts'
import type { Jobs } from './boss.ts'

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
  const { boss } = opts.jobs
  await opts.jobs.createQueue(MAIL_QUEUE, {
    name: MAIL_QUEUE,
    // Not `singleton`: a drain that was active in a process killed mid-way stayed active until
    // it expired (10 minutes), and a singleton queue starts no other drain meanwhile, in any
    // process, so every mail waited. Drains may overlap: each claims its rows (skip locked).
    policy: 'standard',
    retryLimit: 0,
    expireInSeconds: 300,
  })
  await boss.work(MAIL_QUEUE, { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2 }, async () => {
    await opts.mailer.drain().catch((error: unknown) => {
      opts.log?.error({ err: error }, 'mail drain failed')
      throw error
    })
  })
  if (opts.cron ?? true) {
    await boss.schedule(MAIL_QUEUE, '* * * * *')
    await boss.send(MAIL_QUEUE, {})
  }
}
