import type { Interval } from '../records.ts'

export const DAY = 86_400_000
const JST = 9 * 3_600_000
/** Billing runs at 10:00 shop time (Asia/Tokyo), as Shopify's own subscription app does. */
const BILLING_HOUR_UTC = 1

export type Cadence = { interval: Interval; intervalCount: number; anchorDay: number | null }

/** Midnight of the JST calendar day of `ms`, expressed as a UTC timestamp of that date. */
const jstDay = (ms: number) => Math.floor((ms + JST) / DAY) * DAY

/** Adds months keeping the day of month, clamped to the month's last day (the 31st -> 28/29/30). */
function addMonths(dayMs: number, months: number, day: number): number {
  const d = new Date(dayMs)
  const y = d.getUTCFullYear()
  const m = d.getUTCMonth() + months
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate()
  return Date.UTC(y, m, Math.min(day, last))
}

/** The k-th billing day after the first one, at the billing hour. */
function cycleDate(firstDay: number, c: Cadence, k: number, day: number): number {
  let d: number
  switch (c.interval) {
    case 'DAY':
      d = firstDay + k * c.intervalCount * DAY
      break
    case 'WEEK':
      d = firstDay + k * c.intervalCount * 7 * DAY
      break
    case 'YEAR':
      d = addMonths(firstDay, 12 * k * c.intervalCount, day)
      break
    default:
      d = addMonths(firstDay, k * c.intervalCount, day)
  }
  return d + BILLING_HOUR_UTC * 3_600_000
}

/**
 * Billing dates of a contract created at `createdAt`: the checkout itself (cycle 1) and every
 * later cycle up to `until`, plus the first date after `until`. Anchored monthly plans bill on
 * the anchor day (ASAP: an order before the anchor is billed on that month's anchor).
 */
export function billingDates(createdAt: number, c: Cadence, until: number): { past: number[]; next: number } {
  const past = [createdAt]
  const createdDay = jstDay(createdAt)
  let firstDay: number
  let day: number
  if (c.anchorDay !== null) {
    const d = new Date(createdDay)
    const thisMonth = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), c.anchorDay)
    firstDay = thisMonth > createdDay ? thisMonth : addMonths(thisMonth, 1, c.anchorDay)
    day = c.anchorDay
    // The first anchored date is cycle 2; cycleDate(…, 0) lands on it.
    for (let k = 0; ; k++) {
      const t = cycleDate(firstDay, c, k, day)
      if (t > until) return { past, next: t }
      past.push(t)
    }
  }
  firstDay = createdDay
  day = new Date(createdDay).getUTCDate()
  for (let k = 1; ; k++) {
    const t = cycleDate(firstDay, c, k, day)
    if (t > until) return { past, next: t }
    past.push(t)
  }
}
