import { deliveryDateOf, upcomingNoticeWindow } from '@teiki/domain'
import { type Db, withTransaction } from '../../db/pool.ts'
import type { Mailer } from '../../mail/mailer.ts'
import type { ShopRow } from '../shops/repo.ts'
import { contractsDueForNotice } from './repo.ts'
import { composeMail } from './service.ts'

const BATCH = 200

/**
 * 次回請求のお知らせ: from the notice hour, each ACTIVE contract billed in 3 shop-local days gets
 * the `upcoming_billing` mail once (dedupe key `upcoming:<contract>:<day>`, so the hourly job,
 * several processes and a restart never send it twice). Batches of 200, each decided in one
 * transaction and sent after it. Answers how many mails were decided.
 */
export async function sendUpcomingNotices(db: Db, mailer: Mailer, shop: ShopRow, now: Date): Promise<number> {
  const window = upcomingNoticeWindow(now, shop.iana_timezone)
  if (!window) return 0
  let decided = 0
  for (;;) {
    const due = await contractsDueForNotice(db, shop.id, window, BATCH)
    if (due.length === 0) return decided
    const ids = await withTransaction(db, async (tx) => {
      const made: string[] = []
      for (const c of due) {
        const mail = await composeMail(tx, shop, {
          type: 'upcoming_billing',
          to: c.email,
          dedupeKey: `upcoming:${c.id}:${window.day}`,
          values: {
            customerName: {
              firstName: c.first_name,
              lastName: c.last_name,
              displayName: c.display_name || 'お客様',
            },
            contractId: c.id,
            nextBillingDate: c.next_billing_date,
            // The contract's お届け予定日, as 契約詳細 shows it: none set, none in the mail (a
            // date counted from the billing date promised a delivery day nobody had set).
            deliveryDate: deliveryDateOf(c.custom_attributes),
            ...(c.amount ? { amount: { amount: c.amount, currencyCode: c.currency_code } } : {}),
          },
        })
        const id = await mailer.enqueue(tx, mail)
        if (id) made.push(id)
      }
      return made
    })
    decided += ids.length
    await mailer.deliver(ids)
    // Every row of the batch is now in the outbox (or was already): the next query moves on.
    if (due.length < BATCH) return decided
  }
}
