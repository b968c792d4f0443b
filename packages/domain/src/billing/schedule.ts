import {
  anchorKeptFrom,
  assertAnchor,
  isInsideCutoff,
  occurrenceOnOrAfter,
  snapToAnchors,
} from './anchors.ts'
import {
  addDays,
  type CalendarDate,
  compareDates,
  formatCalendarDate,
  monthDate,
  parseCalendarDate,
} from './calendar.ts'
import { instantOfWall, wallClockOf } from './wall-clock.ts'

/**
 * Billing and delivery dates of a subscription contract (issue 5). The platform does not move
 * `nextBillingDate`: the app computes it after each billing, with these functions. Every open
 * question the platform leaves (short months, cutoff day, interval counts with anchors, zone,
 * DST) is decided in docs/decisions/0009-billing-dates-and-prices.md.
 */

export type BillingInterval = 'DAY' | 'WEEK' | 'MONTH' | 'YEAR'

/** SellingPlanAnchor: WEEKDAY day 1-7 (ISO, 1 = Monday); MONTHDAY day 1-31; YEARDAY month + day. */
export type BillingAnchor = {
  type: 'WEEKDAY' | 'MONTHDAY' | 'YEARDAY'
  day: number
  month?: number | null
  cutoffDay?: number | null
}

export type BillingSchedulePolicy = {
  interval: BillingInterval
  intervalCount: number
  anchors: readonly BillingAnchor[]
  /**
   * The delivery policy's `cutoff`, in days before an anchor; the platform sets it only when the
   * anchors have no `cutoffDay`. Only read by `firstBillingDateAfterOrder`. Absent: no cutoff.
   */
  cutoff?: number | null
  /** The delivery policy's pre-anchor behaviour. Only read by `firstBillingDateAfterOrder`. Absent: ASAP. */
  preAnchorBehavior?: 'ASAP' | 'NEXT' | null
}

const INTERVALS: readonly string[] = ['DAY', 'WEEK', 'MONTH', 'YEAR']

function assertPolicy(policy: BillingSchedulePolicy): void {
  if (!INTERVALS.includes(policy.interval))
    throw new RangeError(`Unknown interval: ${String(policy.interval)}`)
  if (!Number.isSafeInteger(policy.intervalCount) || policy.intervalCount < 1) {
    throw new RangeError(`intervalCount must be a whole number of at least 1: ${policy.intervalCount}`)
  }
  for (const anchor of policy.anchors) assertAnchor(anchor)
  if (policy.cutoff != null && (!Number.isSafeInteger(policy.cutoff) || policy.cutoff < 0)) {
    throw new RangeError(`cutoff must be a whole number of days, at least 0: ${policy.cutoff}`)
  }
}

/**
 * Advance by intervalCount intervals. Months and years keep the contract's intended day, clamped
 * to the target month: a MONTHDAY (YEARDAY) anchor's day when the plan has one, else the hint,
 * else the billed day.
 */
function advance(
  date: CalendarDate,
  policy: BillingSchedulePolicy,
  intendedDay: number | undefined,
): CalendarDate {
  const count = policy.intervalCount
  switch (policy.interval) {
    case 'DAY':
      return addDays(date, count)
    case 'WEEK':
      return addDays(date, 7 * count)
    case 'MONTH': {
      const monthdays = policy.anchors.filter((a) => a.type === 'MONTHDAY')
      const day = monthdays.length > 0 ? anchorKeptFrom(date, monthdays).day : (intendedDay ?? date.day)
      return monthDate(date.year, date.month, count, day)
    }
    case 'YEAR': {
      const yeardays = policy.anchors.filter((a) => a.type === 'YEARDAY')
      if (yeardays.length === 0) return monthDate(date.year + count, date.month, 0, intendedDay ?? date.day)
      const kept = anchorKeptFrom(date, yeardays)
      return monthDate(date.year + count, kept.month as number, 0, kept.day)
    }
  }
}

/** The calendar day of the cycle after one billed on `date`: advance, then the anchor on or after. */
function nextBillingDay(
  date: CalendarDate,
  policy: BillingSchedulePolicy,
  intendedDay?: number,
): CalendarDate {
  return snapToAnchors(advance(date, policy, intendedDay), policy.anchors)
}

/**
 * The billing instant of the cycle after the one billed at `billedAt`, in the shop's zone:
 * advance by `intervalCount` intervals keeping the local time of day, clamp day 29-31 to the
 * month's last day while keeping the intended day (31 Jan -> 28/29 Feb -> 31 Mar when the
 * caller passes `intendedDay: 31` or the plan has a MONTHDAY 31 anchor), then move to the
 * earliest anchor on or after that day (WEEKDAY ISO 1 = Monday; MONTHDAY and YEARDAY clamped).
 * A local time that does not exist that day (DST gap) moves forward by the gap; one that
 * happens twice is the first. Throws `RangeError` for an invalid policy, zone or hint.
 */
export function nextBillingDate(
  billedAt: Date,
  policy: BillingSchedulePolicy,
  timeZone: string,
  opts?: { intendedDay?: number },
): Date {
  assertPolicy(policy)
  const intendedDay = opts?.intendedDay
  if (intendedDay !== undefined && (!Number.isInteger(intendedDay) || intendedDay < 1 || intendedDay > 31)) {
    throw new RangeError(`intendedDay must be 1-31: ${intendedDay}`)
  }
  const { date, timeOfDayMs } = wallClockOf(billedAt, timeZone)
  return instantOfWall(nextBillingDay(date, policy, intendedDay), timeOfDayMs, timeZone)
}

/**
 * The first billing instant of a contract whose order was placed at `startedAt` (the order
 * itself paid the first cycle). Without anchors: `startedAt` + one billing interval
 * (`intervalCount` intervals). With anchors, the platform's pre-anchor rule: ASAP bills at the
 * first anchor after the order day, skipping any anchor whose cutoff the order is inside; NEXT
 * delivers on that anchor and bills one billing interval after it. Local time of day is kept.
 */
export function firstBillingDateAfterOrder(
  startedAt: Date,
  policy: BillingSchedulePolicy,
  timeZone: string,
): Date {
  assertPolicy(policy)
  if (policy.anchors.length === 0) return nextBillingDate(startedAt, policy, timeZone)
  const { date: orderDate, timeOfDayMs } = wallClockOf(startedAt, timeZone)
  let first: CalendarDate | null = null
  for (const anchor of policy.anchors) {
    // An order on the anchor day is that day's cycle, so the first billing is a later anchor.
    let at = occurrenceOnOrAfter(anchor, addDays(orderDate, 1))
    while (isInsideCutoff(orderDate, at, anchor, policy.cutoff))
      at = occurrenceOnOrAfter(anchor, addDays(at, 1))
    if (first === null || compareDates(at, first) < 0) first = at
  }
  const day = first as CalendarDate
  const billing = policy.preAnchorBehavior === 'NEXT' ? nextBillingDay(day, policy) : day
  return instantOfWall(billing, timeOfDayMs, timeZone)
}

/** Calendar date (YYYY-MM-DD) + n days (n may be negative), pure calendar arithmetic. */
export function addCalendarDays(date: string, days: number): string {
  if (!Number.isSafeInteger(days)) throw new RangeError(`days must be a whole number: ${days}`)
  return formatCalendarDate(addDays(parseCalendarDate(date), days))
}

/** The delivery date (YYYY-MM-DD) for a billing instant: its calendar date in the zone + prepDays. */
export function deliveryDateFor(billedAt: Date, prepDays: number, timeZone: string): string {
  if (!Number.isSafeInteger(prepDays) || prepDays < 0) {
    throw new RangeError(`prepDays must be a whole number, at least 0: ${prepDays}`)
  }
  return formatCalendarDate(addDays(wallClockOf(billedAt, timeZone).date, prepDays))
}

/**
 * The 1-based cycle index of the charge about to be made: cycles billed so far + 1, as the
 * platform's `subscriptionBillingCycles` count (from 1, never reset by a contract edit).
 */
export function nextCycleIndex(cyclesBilled: number): number {
  if (!Number.isSafeInteger(cyclesBilled) || cyclesBilled < 0) {
    throw new RangeError(`cyclesBilled must be a whole number, at least 0: ${cyclesBilled}`)
  }
  return cyclesBilled + 1
}
