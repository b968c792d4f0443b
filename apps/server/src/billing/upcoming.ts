import type { UpcomingChargesResponse } from '@teiki/contract'
import { addCalendarDays, cycleTotal, toZonedDate, zonedDayStart } from '@teiki/domain'
import type { DbClient } from '../db/pool.ts'
import type { ShopRow } from '../platform/shops-repo.ts'
import { ORDER_COUNT_SQL } from '../sync/order-count.ts'

/**
 * The charges of the next `days` shop-local days (today included): ACTIVE contracts whose next
 * billing date falls in the range, cycles in dunning whose retry comes before the range ends
 * (an overdue retry too: the next run charges it), and every cycle waiting for the customer's
 * 3-D Secure (at its due date, with its deadline: it is charged when the customer
 * authenticates). A contract in dunning or awaiting authentication appears once, as that
 * cycle. Each amount is the cycle's total as the platform will charge it: the lines'
 * current prices (the mirror's) × quantities, plus delivery. The platform charges currentPrice
 * and never moves it; the billing engine sets each line to its pricing policy's price for the
 * next cycle after every charge, so after the app's first charge of a contract these are the
 * coming cycle's prices. Before it, a contract still at its checkout price is shown at that
 * price and repriced just before the charge (engine.priceCharge).
 */
const UPCOMING_SQL = `
  with upcoming as (
    select c.id, c.customer_id, c.customer_display_name, c.next_billing_date as at, c.currency_code,
      c.delivery_price, false as is_retry, null::timestamptz as deadline
    from subscription_contracts c
    where c.shop_id = $1 and c.status = 'ACTIVE' and c.next_billing_date >= $2 and c.next_billing_date < $3
      and not exists (select 1 from billing_cycles b where b.shop_id = c.shop_id and b.contract_id = c.id
                      and b.status in ('retry_scheduled', 'challenged'))
    union all
    select c.id, c.customer_id, c.customer_display_name, b.next_retry_at, c.currency_code, c.delivery_price, true,
      null
    from billing_cycles b
    join subscription_contracts c on c.shop_id = b.shop_id and c.id = b.contract_id
    where b.shop_id = $1 and b.status = 'retry_scheduled' and b.next_retry_at < $3
    union all
    select c.id, c.customer_id, c.customer_display_name, b.due_at, c.currency_code, c.delivery_price,
      b.attempt_no > 0, b.challenge_expires_at
    from billing_cycles b
    join subscription_contracts c on c.shop_id = b.shop_id and c.id = b.contract_id
    where b.shop_id = $1 and b.status = 'challenged'
  )`

type Row = {
  id: string
  customer_id: string
  customer_display_name: string
  at: Date
  currency_code: string
  delivery_price: string | null
  is_retry: boolean
  deadline: Date | null
  orders: number
}

export async function upcomingCharges(
  db: DbClient,
  shop: ShopRow,
  query: { days: number; offset: number; limit: number },
  now: Date,
): Promise<UpcomingChargesResponse> {
  const tz = shop.iana_timezone
  const from = toZonedDate(now, tz)
  const to = addCalendarDays(from, query.days - 1)
  const start = zonedDayStart(from, tz)
  const end = zonedDayStart(addCalendarDays(to, 1), tz)
  const params = [shop.id, start, end]

  const page = await db.query<Row>(
    `${UPCOMING_SQL}
     select u.id::text, u.customer_id::text, u.customer_display_name, u.at, u.currency_code,
       u.delivery_price::text, u.is_retry, u.deadline,
       (select ${ORDER_COUNT_SQL} from subscription_contracts c where c.shop_id = $1 and c.id = u.id) as orders
     from upcoming u order by u.at, u.id limit $4 offset $5`,
    [...params, query.limit, query.offset],
  )
  const ids = page.rows.map((r) => r.id)
  const lines = await db.query<{ contract_id: string; current_price: string | null; quantity: number }>(
    `select contract_id::text, current_price::text, quantity from subscription_lines
     where shop_id = $1 and contract_id = any($2::bigint[]) order by contract_id, position`,
    [shop.id, ids],
  )
  const linesOf = new Map<string, Array<{ unitPrice: string; quantity: number }>>()
  for (const l of lines.rows) {
    const list = linesOf.get(l.contract_id) ?? []
    list.push({ unitPrice: l.current_price ?? '0', quantity: l.quantity })
    linesOf.set(l.contract_id, list)
  }

  // Totals over the whole range, not the page: summed in SQL, rounded once per currency.
  const totals = await db.query<{ currency_code: string; amount: string; count: number }>(
    `${UPCOMING_SQL}
     select u.currency_code, (sum(coalesce(u.delivery_price, 0) + coalesce((
         select sum(coalesce(l.current_price, 0) * l.quantity) from subscription_lines l
         where l.shop_id = $1 and l.contract_id = u.id), 0)))::text as amount,
       count(*)::int as count
     from upcoming u group by u.currency_code order by u.currency_code`,
    params,
  )

  return {
    from,
    to,
    totals: totals.rows.map((t) => ({
      currencyCode: t.currency_code,
      amount: cycleTotal([{ unitPrice: t.amount, quantity: 1 }], null, t.currency_code),
      count: t.count,
    })),
    charges: page.rows.map((r) => ({
      contractId: r.id,
      customerId: r.customer_id,
      displayName: r.customer_display_name,
      nextBillingDate: r.at.toISOString(),
      amount: {
        amount: cycleTotal(linesOf.get(r.id) ?? [], r.delivery_price, r.currency_code),
        currencyCode: r.currency_code,
      },
      cycle: r.orders + 1,
      isRetry: r.is_retry,
      authenticationDeadline: r.deadline?.toISOString() ?? null,
    })),
    total: totals.rows.reduce((sum, t) => sum + t.count, 0),
  }
}
