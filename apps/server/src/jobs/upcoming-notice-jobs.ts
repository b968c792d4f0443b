import type { Db } from '../db/pool.ts'
import { type QuoteNextCycle, sendUpcomingNotices } from '../features/mail-templates/upcoming-notice.ts'
import type { Mailer } from '../mail/mailer.ts'
import type { ShopRow } from '../platform/shops-repo.ts'
import type { Jobs } from './boss.ts'

/**
 * `upcoming-notice` (cron, hourly at :05): each installed shop's 次回請求のお知らせ for the
 * contracts billed in 3 shop-local days, from 9:00 shop time; a mail is decided once per
 * contract and day, so the hourly runs only pick up what is new (a contract moved onto that day).
 */
export const UPCOMING_NOTICE_QUEUE = 'upcoming-notice'

export async function startUpcomingNoticeJobs(opts: {
  jobs: Jobs
  db: Db
  mailer: Mailer
  /** The billing engine's quote of a contract's next cycle (the mail's amount and lines). */
  quote: QuoteNextCycle
  log?: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void }
  now?: () => Date
  cron?: boolean
}): Promise<void> {
  const { boss } = opts.jobs
  await opts.jobs.createQueue(UPCOMING_NOTICE_QUEUE, {
    name: UPCOMING_NOTICE_QUEUE,
    policy: 'singleton',
    retryLimit: 0,
    expireInSeconds: 1800,
  })
  await boss.work(UPCOMING_NOTICE_QUEUE, { pollingIntervalSeconds: 30 }, async () => {
    const { rows } = await opts.db.query<ShopRow>(
      `select id, domain, name, secret_hash, access_token, scopes, currency_code, iana_timezone,
         primary_domain_url, shopify_plan, app_plan, synced_at
       from shops where uninstalled_at is null order by id`,
    )
    for (const shop of rows) {
      const deps = {
        db: opts.db,
        mailer: opts.mailer,
        quote: opts.quote,
        ...(opts.log ? { log: opts.log } : {}),
      }
      await sendUpcomingNotices(deps, shop, (opts.now ?? (() => new Date()))()).catch((error: unknown) =>
        opts.log?.error({ err: error, shop: shop.domain }, 'upcoming notices failed'),
      )
    }
  })
  if (opts.cron ?? true) await boss.schedule(UPCOMING_NOTICE_QUEUE, '5 * * * *')
}
