import { isCountedOrder, netAmount } from '../analytics/measures.ts'
import { zonedDayRange } from '../format/dates.ts'
import { roundMinor } from '../format/money.ts'

/**
 * Lifetime value (LTV): per customer, the sum of their successful subscription orders in a date
 * range, per currency. An order counts when it belongs to a contract, is not a test and is not
 * cancelled; refunds of those orders are taken off, also when made after the range (analytics
 * `netAmount`, the same amount the daily subtotal counts). Amounts in different currencies are never added together:
 * a customer who paid in two currencies has one total per currency and an entry in `errors`.
 */
export type LtvOrder = {
  customerId: string
  contractId: string | null
  amount: number
  /** Refunded so far (major units, the platform's totalRefundedSet), whenever refunded; 0 when none. */
  refunded?: number
  currencyCode: string
  test: boolean
  cancelledAt: Date | null
  createdAt: Date
}

export type LtvTotal = { customerId: string; currencyCode: string; amount: number; orderCount: number }
export type LtvError = { customerId: string; currencyCodes: string[]; message: string }

// Whether an order counts (a successful subscription order, not a test, not cancelled) is the
// analytics measure's definition, one for the reports and LTV: analytics/measures.ts.
export { isCountedOrder } from '../analytics/measures.ts'

/** The message of a customer with orders in several currencies (spec §8: LTV results carry errors). */
export const multiCurrencyMessage = (codes: readonly string[]) =>
  `複数の通貨（${codes.join('・')}）で購入があるため、通貨ごとに集計しています`

/**
 * Totals per (customer, currency) of the orders made between `from` and `to` (calendar days in
 * `timeZone`, inclusive; an open bound takes everything on that side), highest first (ties by
 * customer id), with `errors` for customers with more than one currency.
 */
export function lifetimeValues(
  orders: readonly LtvOrder[],
  range: { from?: string; to?: string },
  timeZone: string,
): { totals: LtvTotal[]; errors: LtvError[] } {
  const { start, endExclusive } = zonedDayRange(range.from, range.to, timeZone)
  const byKey = new Map<string, LtvTotal>()
  for (const o of orders) {
    if (!isCountedOrder(o)) continue
    if ((start && o.createdAt < start) || (endExclusive && o.createdAt >= endExclusive)) continue
    const key = `${o.customerId}|${o.currencyCode}`
    const total = byKey.get(key) ?? {
      customerId: o.customerId,
      currencyCode: o.currencyCode,
      amount: 0,
      orderCount: 0,
    }
    total.amount = roundMinor(total.amount + netAmount(o), o.currencyCode)
    total.orderCount += 1
    byKey.set(key, total)
  }
  const totals = [...byKey.values()].sort(
    (a, b) => b.amount - a.amount || compareIds(a.customerId, b.customerId),
  )
  const currencies = new Map<string, Set<string>>()
  for (const t of totals)
    currencies.set(t.customerId, (currencies.get(t.customerId) ?? new Set()).add(t.currencyCode))
  const errors = [...currencies]
    .filter(([, codes]) => codes.size > 1)
    .map(([customerId, codes]) => {
      const currencyCodes = [...codes].sort()
      return { customerId, currencyCodes, message: multiCurrencyMessage(currencyCodes) }
    })
    .sort((a, b) => compareIds(a.customerId, b.customerId))
  return { totals, errors }
}

/** Platform ids as decimal text, compared as numbers. */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)
}

/** The bar scale of the LTV table: the highest total in `currency`, at least 1 so bars never divide by 0. */
export function maxLtv(totals: readonly LtvTotal[], currency: string): number {
  return totals.reduce((max, t) => (t.currencyCode === currency && t.amount > max ? t.amount : max), 0) || 1
}

/** A month as the LTV rollup numbers it: year × 12 + month − 1 (shop-local calendar). */
export function monthNumber(date: string): number {
  const [y, m] = date.split('-').map(Number) as [number, number]
  return y * 12 + m - 1
}

const dayText = (y: number, m: number, d: number) =>
  `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`
const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate()

/**
 * A range of days (both inclusive) as the whole calendar months it covers (read from the
 * per-month rollup, ltv_months) and the days at either edge outside them (read from the
 * orders). Together they are exactly the range: no day twice, none left out.
 */
export function ltvRangeParts(
  from: string,
  to: string,
): { months: { first: number; last: number } | null; edges: Array<{ from: string; to: string }> } {
  const [y1, m1, d1] = from.split('-').map(Number) as [number, number, number]
  const [y2, m2, d2] = to.split('-').map(Number) as [number, number, number]
  const first = monthNumber(from) + (d1 === 1 ? 0 : 1)
  const last = monthNumber(to) - (d2 === daysIn(y2, m2) ? 0 : 1)
  if (first > last) return { months: null, edges: [{ from: dayText(y1, m1, d1), to: dayText(y2, m2, d2) }] }
  const edges: Array<{ from: string; to: string }> = []
  if (d1 !== 1) edges.push({ from: dayText(y1, m1, d1), to: dayText(y1, m1, daysIn(y1, m1)) })
  if (d2 !== daysIn(y2, m2)) edges.push({ from: dayText(y2, m2, 1), to: dayText(y2, m2, d2) })
  return { months: { first, last }, edges }
}
