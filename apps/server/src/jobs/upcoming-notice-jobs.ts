import type { Db } from '../db/pool.ts'
import { type QuoteNextCycle, sendUpcomingNotices } from '../features/mail-templates/upcoming-notice.ts'
import type { Mailer } from '../mail/mailer.ts'
import type { ShopRow } from '../platform/shops-repo.ts'
import { type Jobs, startCron } from './boss.ts'

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
  const hourly = {
    cron: (opts.cron ?? true) && '5 * * * *',
    policy: 'singleton',
    expireInSeconds: 1800,
    pollingIntervalSeconds: 30,
  } as const
  await startCron(opts.jobs, UPCOMING_NOTICE_QUEUE, hourly, async () => {
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
}
