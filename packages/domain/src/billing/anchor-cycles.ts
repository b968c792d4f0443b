import { ANCHOR_RULES, type AnchorRules } from './anchor-rules.ts'
import { isInsideCutoff } from './anchors.ts'
import { addDays, type CalendarDate, dayNumber, fromDayNumber, monthDate } from './calendar.ts'
import type { BillingAnchor, BillingSchedulePolicy } from './schedule.ts'

/**
 * Billing days of an anchored policy (ADR 0009, "Anchors"). The interval cuts the calendar into
 * periods (ISO weeks from Monday, calendar months, calendar years); each anchor names one day of
 * every period, a day 29-31 landing on the last day of a shorter month. Counting from the period
 * of the cycle just billed, every `intervalCount`-th period bills on each of its anchor days: a
 * monthly plan anchored on the 10th and the 20th bills on both, and "every 2 weeks on Monday and
 * Thursday" bills on both days of every other week. The policy must have passed `assertPolicy`
 * (anchors of the interval's type only).
 */

type AnchoredInterval = 'WEEK' | 'MONTH' | 'YEAR'
type Occurrence = { at: CalendarDate; day: number; anchor: BillingAnchor }

// Day number 0 (1970-01-01) is a Thursday, so ISO week 0 starts on Monday 1969-12-29, day -3.
const WEEK_ZERO_MONDAY = -3

function anchoredInterval(policy: BillingSchedulePolicy): AnchoredInterval {
  if (policy.interval === 'DAY') throw new RangeError('A DAY interval takes no anchors')
  return policy.interval
}

/** The anchors that bill under the rules: all of them, or the first listed only. */
function billingAnchors(anchors: readonly BillingAnchor[], rules: AnchorRules): readonly BillingAnchor[] {
  return rules.severalAnchors === 'FIRST_ANCHOR' ? anchors.slice(0, 1) : anchors
}

/** The index of the period holding `date`: ISO week, month (year·12 + month − 1) or year. */
function periodOf(interval: AnchoredInterval, date: CalendarDate): number {
  if (interval === 'WEEK') return Math.floor((dayNumber(date) - WEEK_ZERO_MONDAY) / 7)
  return interval === 'MONTH' ? date.year * 12 + date.month - 1 : date.year
}

/** Each anchor's day in period `period`, earliest first (two anchors may share a day). */
function occurrencesIn(
  interval: AnchoredInterval,
  period: number,
  anchors: readonly BillingAnchor[],
): Occurrence[] {
  const placed = anchors.map((anchor) => {
    let at: CalendarDate
    if (interval === 'WEEK') at = fromDayNumber(WEEK_ZERO_MONDAY + period * 7 + anchor.day - 1)
    else if (interval === 'MONTH') at = monthDate(Math.floor(period / 12), (period % 12) + 1, 0, anchor.day)
    else at = monthDate(period, anchor.month as number, 0, anchor.day)
    const day = dayNumber(at)
    // Only an anchor that skipped assertPolicy lands on no day: refuse it rather than loop.
    if (!Number.isInteger(day)) throw new RangeError(`Not a ${interval} anchor: ${JSON.stringify(anchor)}`)
    return { at, day, anchor }
  })
  return placed.sort((a, b) => a.day - b.day || a.anchor.day - b.anchor.day)
}

/** Every occurrence on or after `from`, period after period, earliest first. */
function* occurrencesFrom(
  interval: AnchoredInterval,
  anchors: readonly BillingAnchor[],
  from: CalendarDate,
): Generator<Occurrence> {
  const first = dayNumber(from)
  for (let period = periodOf(interval, from); ; period++) {
    for (const occurrence of occurrencesIn(interval, period, anchors)) {
      if (occurrence.day >= first) yield occurrence
    }
  }
}

/**
 * The billing day of the cycle after the one billed on `date`. A day off every anchor (a billing
 * moved by hand) counts as the cycle of the last anchor day on or before it in its period, or of
 * the period's first anchor day when none is: a monthly 15th plan moved to the 20th, or to the
 * 10th, still bills next on the 15th of the next month. The next billing is that cycle's next
 * anchor day in the same period, else the first anchor day `intervalCount` periods later.
 */
export function nextAnchoredDay(
  date: CalendarDate,
  policy: BillingSchedulePolicy,
  rules: AnchorRules = ANCHOR_RULES,
): CalendarDate {
  const interval = anchoredInterval(policy)
  const anchors = billingAnchors(policy.anchors, rules)
  const period = periodOf(interval, date)
  const here = occurrencesIn(interval, period, anchors)
  const today = dayNumber(date)
  const onOrBefore = here.filter((o) => o.day <= today)
  const cycle = onOrBefore[onOrBefore.length - 1] ?? here[0]
  if (!cycle) throw new RangeError('An anchored policy needs at least one anchor')
  const later = here.find((o) => o.day > cycle.day)
  return (later ?? (occurrencesIn(interval, period + policy.intervalCount, anchors)[0] as Occurrence)).at
}

/** The first occurrence on or after `from` that an order placed on `order` is not inside the cutoff of. */
function firstEligible(
  policy: BillingSchedulePolicy,
  anchors: readonly BillingAnchor[],
  order: CalendarDate,
  from: CalendarDate,
): Occurrence {
  for (const occurrence of occurrencesFrom(anchoredInterval(policy), anchors, from)) {
    if (!isInsideCutoff(order, occurrence.at, occurrence.anchor, policy.cutoff)) return occurrence
  }
  throw new RangeError('No anchor occurrence') // unreachable: the generator runs until it throws
}

/** `at` moved by `count` intervals on the calendar (a day 29-31 clamped), then to the anchor on or after. */
function countedFrom(
  at: CalendarDate,
  policy: BillingSchedulePolicy,
  anchors: readonly BillingAnchor[],
  count: number,
): CalendarDate {
  const interval = anchoredInterval(policy)
  const moved =
    interval === 'WEEK'
      ? addDays(at, 7 * count)
      : interval === 'MONTH'
        ? monthDate(at.year, at.month, count, at.day)
        : monthDate(at.year + count, at.month, 0, at.day)
  const next = occurrencesFrom(interval, anchors, moved).next()
  return (next.value as Occurrence).at
}

/**
 * The first delivery and the first recurring billing day of a contract ordered on `order` (the
 * order paid its first cycle), by the platform's pre-anchor rule. ASAP (the default): delivered
 * now, or on the next anchor when the order is inside that anchor's cutoff; billed on the first
 * anchor after the order day whose cutoff the order is outside, and with an interval count
 * N > 1 N − 1 intervals after that (`firstCycleWithCount`). NEXT: delivered on the first anchor
 * on or after the order day whose cutoff the order is outside (an order on the anchor day is
 * delivered that day), billed one cycle after that delivery, as `nextAnchoredDay` bills.
 */
export function firstAnchoredDays(
  order: CalendarDate,
  policy: BillingSchedulePolicy,
  rules: AnchorRules = ANCHOR_RULES,
): { delivery: CalendarDate; billing: CalendarDate } {
  const anchors = billingAnchors(policy.anchors, rules)
  if (policy.preAnchorBehavior === 'NEXT') {
    const delivery = firstEligible(policy, anchors, order, order).at
    return { delivery, billing: nextAnchoredDay(delivery, policy, rules) }
  }
  const tomorrow = addDays(order, 1)
  const next = firstEligible(policy, anchors, order, tomorrow)
  const skipped = occurrencesFrom(anchoredInterval(policy), anchors, tomorrow).next().value as Occurrence
  const delivery = skipped.day < next.day ? skipped.at : order
  const count = rules.firstCycleWithCount === 'COUNT_FROM_NEXT_ANCHOR' ? policy.intervalCount - 1 : 0
  return { delivery, billing: count > 0 ? countedFrom(next.at, policy, anchors, count) : next.at }
}
