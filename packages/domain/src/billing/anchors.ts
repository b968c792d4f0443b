import { addDays, type CalendarDate, compareDates, dayNumber, isoWeekday, monthDate } from './calendar.ts'
import type { BillingAnchor } from './schedule.ts'

/**
 * Anchor occurrences on the calendar (ADR 0009). An anchor's day 29-31 lands on the last day of
 * a shorter month (MONTHDAY 31 is 30 April, YEARDAY 29 February is 28 February in 2027).
 */

// A type-only import: erased at runtime, so no import cycle with schedule.ts.
type Anchor = BillingAnchor

function isIntIn(value: unknown, min: number, max: number): boolean {
  return Number.isInteger(value) && (value as number) >= min && (value as number) <= max
}

/** Throws `RangeError` for an anchor the platform would refuse (SellingPlanAnchorInput rules). */
export function assertAnchor(anchor: Anchor): void {
  if (!['WEEKDAY', 'MONTHDAY', 'YEARDAY'].includes(anchor.type)) {
    throw new RangeError(`Unknown anchor type: ${String(anchor.type)}`)
  }
  const what = `${anchor.type} anchor`
  const maxDay = anchor.type === 'WEEKDAY' ? 7 : 31
  if (!isIntIn(anchor.day, 1, maxDay)) throw new RangeError(`${what}: day must be 1-${maxDay}`)
  if (anchor.type === 'YEARDAY') {
    if (!isIntIn(anchor.month, 1, 12)) throw new RangeError(`${what}: month must be 1-12`)
    if (anchor.cutoffDay != null) throw new RangeError(`${what}: cutoffDay must be null`)
  } else {
    if (anchor.month != null) throw new RangeError(`${what}: month must be null`)
    if (anchor.cutoffDay != null && !isIntIn(anchor.cutoffDay, 1, maxDay)) {
      throw new RangeError(`${what}: cutoffDay must be 1-${maxDay}`)
    }
  }
}

/** The anchor's occurrence in the month of `year`/`month` (MONTHDAY) or in `year` (YEARDAY). */
function occurrenceIn(anchor: Anchor, year: number, month: number): CalendarDate {
  if (anchor.type === 'YEARDAY') return monthDate(year, anchor.month as number, 0, anchor.day)
  return monthDate(year, month, 0, anchor.day)
}

/** The first day on or after `date` that is an occurrence of the anchor. */
export function occurrenceOnOrAfter(anchor: Anchor, date: CalendarDate): CalendarDate {
  if (anchor.type === 'WEEKDAY') return addDays(date, (anchor.day - isoWeekday(date) + 7) % 7)
  const here = occurrenceIn(anchor, date.year, date.month)
  if (compareDates(here, date) >= 0) return here
  return anchor.type === 'YEARDAY'
    ? occurrenceIn(anchor, date.year + 1, date.month)
    : monthDate(date.year, date.month, 1, anchor.day)
}

/** The earliest occurrence of any of the anchors on or after `date` (`date` itself if none). */
export function snapToAnchors(date: CalendarDate, anchors: readonly Anchor[]): CalendarDate {
  let best: CalendarDate | null = null
  for (const anchor of anchors) {
    const candidate = occurrenceOnOrAfter(anchor, date)
    if (best === null || compareDates(candidate, best) < 0) best = candidate
  }
  return best ?? date
}

/**
 * The anchor whose day a monthly (MONTHDAY) or yearly (YEARDAY) contract keeps, seen from a
 * billing on `date`: the latest of the anchors' occurrences in `date`'s month (year) that is on
 * or before `date`, else the earliest. With one anchor it is that anchor; with several this
 * keeps the result non-decreasing in `date`.
 */
export function anchorKeptFrom(date: CalendarDate, anchors: readonly Anchor[]): Anchor {
  const placed = anchors
    .map((anchor) => ({ anchor, at: dayNumber(occurrenceIn(anchor, date.year, date.month)) }))
    .sort((a, b) => a.at - b.at || a.anchor.day - b.anchor.day)
  const today = dayNumber(date)
  const onOrBefore = placed.filter((p) => p.at <= today)
  const kept = onOrBefore.length > 0 ? onOrBefore[onOrBefore.length - 1] : placed[0]
  if (!kept) throw new RangeError('No anchor to keep')
  return kept.anchor
}

/**
 * Whether an order placed on `orderDate` is inside the cutoff of the anchor occurrence `at`, so
 * it skips that occurrence. With a fixed `cutoffDay` the cutoff is the latest day on or before
 * `at` carrying that weekday (day of month, clamped): an order after it and before `at` is
 * inside, an order on the cutoff day itself is not. With a cutoff of N days (the delivery
 * policy's `cutoff`), an order fewer than N days before `at` is inside, N days before is not.
 */
export function isInsideCutoff(
  orderDate: CalendarDate,
  at: CalendarDate,
  anchor: Anchor,
  cutoffDays: number | null | undefined,
): boolean {
  const order = dayNumber(orderDate)
  const anchorDay = dayNumber(at)
  if (order >= anchorDay) return false
  if (anchor.cutoffDay != null) {
    let cutoff: CalendarDate
    if (anchor.type === 'WEEKDAY') {
      cutoff = addDays(at, -((isoWeekday(at) - anchor.cutoffDay + 7) % 7))
    } else {
      cutoff = monthDate(at.year, at.month, 0, anchor.cutoffDay)
      if (compareDates(cutoff, at) > 0) cutoff = monthDate(at.year, at.month, -1, anchor.cutoffDay)
    }
    return order > dayNumber(cutoff)
  }
  return cutoffDays != null && anchorDay - order < cutoffDays
}
