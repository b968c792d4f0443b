import { cycleTotal, deliveryDateOf, upcomingNoticeWindow } from '@teiki/domain'
import type { CycleQuote } from '../../billing/cycle-prices.ts'
import { type Db, withTransaction } from '../../db/pool.ts'
import type { Mailer } from '../../mail/mailer.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { contractLines, contractsDueForNotice, type UpcomingContract } from './repo.ts'
import { composeMail } from './service.ts'

const BATCH = 200

/** The next cycle's line prices as the billing engine will charge them (engine.quoteNextCycle). */
export type QuoteNextCycle = (shop: ShopRow, contractId: string) => Promise<CycleQuote | null>

export type UpcomingNoticeDeps = {
  db: Db
  mailer: Mailer
  quote: QuoteNextCycle
  log?: { warn(obj: object, msg: string): void }
}

/**
 * 次回請求のお知らせ: from the notice hour, each ACTIVE contract billed in 3 shop-local days gets
 * the `upcoming_billing` mail once (dedupe key `upcoming:<contract>:<day>`, so the hourly job,
 * several processes and a restart never send it twice). Its amount and lines are the next
 * cycle's as the charge will carry them (`quote`: linePriceForCycle, issue 22), plus delivery;
 * a contract whose prices cannot be read now is left for the next hour's run. Batches of 200,
 * each decided in one transaction and sent after it. Answers how many mails were decided.
 */
export async function sendUpcomingNotices(
  deps: UpcomingNoticeDeps,
  shop: ShopRow,
  now: Date,
): Promise<number> {
  const { db, mailer } = deps
  const window = upcomingNoticeWindow(now, shop.iana_timezone)
  if (!window) return 0
  let decided = 0
  let after: UpcomingContract | null = null
  for (;;) {
    const due = await contractsDueForNotice(db, shop.id, window, BATCH, after)
    if (due.length === 0) return decided
    after = due.at(-1)!
    const quoted = await quoteAll(deps, shop, due)
    const ids = await withTransaction(db, async (tx) => {
      const made: string[] = []
      for (const { c, quote } of quoted) {
        const prices = new Map(quote.lines.map((l) => [l.id, l.unitPrice]))
        const amount = noticeAmount(quote, c.delivery_price)
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
            amount: { amount, currencyCode: quote.currencyCode },
            lines: await contractLines(tx, shop.id, c.id, prices),
          },
        })
        const id = await mailer.enqueue(tx, mail)
        if (id) made.push(id)
      }
      return made
    })
    decided += ids.length
    await mailer.deliver(ids)
    if (due.length < BATCH) return decided
  }
}

/** The amount the notice quotes: the quoted lines × quantities, plus delivery (what the charge will be). */
export function noticeAmount(quote: CycleQuote, deliveryPrice: string | null): string {
  return cycleTotal(
    quote.lines.map((l) => ({ unitPrice: l.unitPrice, quantity: l.quantity })),
    deliveryPrice,
    quote.currencyCode,
  )
}

/** Each contract's quote; one that cannot be priced now is logged and left for the next run. */
async function quoteAll(deps: UpcomingNoticeDeps, shop: ShopRow, due: UpcomingContract[]) {
  const out: Array<{ c: UpcomingContract; quote: CycleQuote }> = []
  for (const c of due) {
    try {
      const quote = await deps.quote(shop, c.id)
      if (quote) out.push({ c, quote })
    } catch (error) {
      deps.log?.warn({ err: error, contract: c.id }, 'upcoming notice left for the next run: prices not read')
    }
  }
  return out
}
