import { firstAnchoredDays, nextAnchoredDay } from './anchor-cycles.ts'
import { assertAnchor, assertAnchorsFit } from './anchors.ts'
import { addDays, type CalendarDate, formatCalendarDate, monthDate, parseCalendarDate } from './calendar.ts'
import { instantOfWall, wallClockOf } from './wall-clock.ts'

/**
 * Billing and delivery dates of a subscription contract (issue 5). The platform does not move
 * `nextBillingDate`: the app computes it after each billing, with these functions. Every open
 * question the platform leaves (short months, cutoff day, several anchors, interval counts with
 * anchors, zone, DST) is decided in docs/decisions/0009-billing-dates-and-prices.md.
 */

export type BillingInterval = 'DAY' | 'WEEK' | 'MONTH' | 'YEAR'

/**
 * SellingPlanAnchor: WEEKDAY day 1-7 (ISO, 1 = Monday); MONTHDAY day 1-31; YEARDAY month + a day
 * that month has (29 February allowed). A policy may list several; duplicates bill once.
 */
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
   * anchors have no `cutoffDay`. Only read for the first cycle (`first…AfterOrder`). Absent: none.
   */
  cutoff?: number | null
  /** The delivery policy's pre-anchor behaviour. Only read for the first cycle. Absent: ASAP. */
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
  assertAnchorsFit(policy.interval, policy.anchors)
  if (policy.cutoff != null && (!Number.isSafeInteger(policy.cutoff) || policy.cutoff < 0)) {
    throw new RangeError(`cutoff must be a whole number of days, at least 0: ${policy.cutoff}`)
  }
}

/**
 * Advance a schedule without anchors by intervalCount intervals. Months and years keep the
 * contract's intended day, clamped to the target month: the hint, else the billed day.
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
    case 'MONTH':
      return monthDate(date.year, date.month, count, intendedDay ?? date.day)
    case 'YEAR':
      return monthDate(date.year + count, date.month, 0, intendedDay ?? date.day)
  }
}

/** The calendar day of the cycle after one billed on `date`: on the anchors, else one interval on. */
function nextBillingDay(
  date: CalendarDate,
  policy: BillingSchedulePolicy,
  intendedDay?: number,
): CalendarDate {
  return policy.anchors.length > 0 ? nextAnchoredDay(date, policy) : advance(date, policy, intendedDay)
}

/**
 * The billing instant of the cycle after the one billed at `billedAt`, in the shop's zone, at the
 * same local time of day. Without anchors: `intervalCount` intervals later, a day 29-31 clamped
 * to the month's last day while the intended day is kept (31 Jan -> 28/29 Feb -> 31 Mar when the
 * caller passes `intendedDay: 31`). With anchors: the next anchor day of the cycle, every anchor
 * billing (MONTHDAY 10 and 20 bill on both), every `intervalCount`-th week, month or year
 * (anchor-cycles.ts; WEEKDAY ISO 1 = Monday; MONTHDAY and YEARDAY clamped to short months; the
 * anchor wins over `intendedDay`). A local time that does not exist that day (DST gap) moves
 * forward by the gap; one that happens twice is the first. Throws `RangeError` for an invalid
 * policy (an impossible anchor, an anchor of another type than the interval's), zone or hint.
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
 * itself paid the first cycle), at the order's local time of day. Without anchors: one billing
 * interval (`intervalCount` intervals) after the order. With anchors, the platform's pre-anchor
 * rule (`firstAnchoredDays`): ASAP bills on the first anchor after the order day whose cutoff the
 * order is outside (an order on the anchor day bills one cycle later), and N − 1 intervals after
 * it for an interval count N; NEXT bills one cycle after the first delivery.
 */
export function firstBillingDateAfterOrder(
  startedAt: Date,
  policy: BillingSchedulePolicy,
  timeZone: string,
): Date {
  assertPolicy(policy)
  if (policy.anchors.length === 0) return nextBillingDate(startedAt, policy, timeZone)
  const { date, timeOfDayMs } = wallClockOf(startedAt, timeZone)
  return instantOfWall(firstAnchoredDays(date, policy).billing, timeOfDayMs, timeZone)
}

/**
 * The first delivery date (YYYY-MM-DD, the shop's calendar) of a contract whose order was
 * placed at `startedAt`: the order day, unless the plan's anchors and pre-anchor rule move it
 * (ASAP inside a cutoff: that anchor; NEXT: the first anchor on or after the order day whose
 * cutoff the order is outside).
 */
export function firstDeliveryDateAfterOrder(
  startedAt: Date,
  policy: BillingSchedulePolicy,
  timeZone: string,
): string {
  assertPolicy(policy)
  const { date } = wallClockOf(startedAt, timeZone)
  return formatCalendarDate(policy.anchors.length === 0 ? date : firstAnchoredDays(date, policy).delivery)
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
