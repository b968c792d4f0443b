import { addDays, type CalendarDate, dayNumber, isoWeekday, monthDate, monthLength } from './calendar.ts'
import type { BillingAnchor, BillingInterval } from './schedule.ts'

/**
 * What makes an anchor valid, and the cutoff before an anchor occurrence (ADR 0009). Where the
 * anchors fall on the calendar and which of them bill is anchor-cycles.ts.
 */

// A type-only import: erased at runtime, so no import cycle with schedule.ts.
type Anchor = BillingAnchor

/** The anchor type that divides each interval into billing days; a DAY interval takes none. */
const ANCHOR_TYPE_OF: Readonly<Record<BillingInterval, Anchor['type'] | null>> = {
  DAY: null,
  WEEK: 'WEEKDAY',
  MONTH: 'MONTHDAY',
  YEAR: 'YEARDAY',
}

// 29 February is a real YEARDAY anchor (it lands on 28 February in common years, ADR 0009), so a
// YEARDAY's month is measured in a leap year: only a day no year has (30 February) is refused.
const A_LEAP_YEAR = 2000

function isIntIn(value: unknown, min: number, max: number): boolean {
  return Number.isInteger(value) && (value as number) >= min && (value as number) <= max
}

/**
 * Throws `RangeError` for an anchor the platform refuses (SellingPlanAnchorInput rules): WEEKDAY
 * day 1-7, MONTHDAY day 1-31, YEARDAY a month 1-12 and a day that month can have (not 30 or 31
 * February, not 31 April, June, September or November); `month` only on YEARDAY, `cutoffDay`
 * never on YEARDAY.
 */
export function assertAnchor(anchor: Anchor): void {
  if (!['WEEKDAY', 'MONTHDAY', 'YEARDAY'].includes(anchor.type)) {
    throw new RangeError(`Unknown anchor type: ${String(anchor.type)}`)
  }
  const what = `${anchor.type} anchor`
  const maxDay = anchor.type === 'WEEKDAY' ? 7 : 31
  if (!isIntIn(anchor.day, 1, maxDay)) throw new RangeError(`${what}: day must be 1-${maxDay}`)
  if (anchor.type === 'YEARDAY') {
    if (!isIntIn(anchor.month, 1, 12)) throw new RangeError(`${what}: month must be 1-12`)
    const longest = monthLength(A_LEAP_YEAR, anchor.month as number)
    if (anchor.day > longest) {
      throw new RangeError(`${what}: month ${anchor.month} has no day ${anchor.day}`)
    }
    if (anchor.cutoffDay != null) throw new RangeError(`${what}: cutoffDay must be null`)
  } else {
    if (anchor.month != null) throw new RangeError(`${what}: month must be null`)
    if (anchor.cutoffDay != null && !isIntIn(anchor.cutoffDay, 1, maxDay)) {
      throw new RangeError(`${what}: cutoffDay must be 1-${maxDay}`)
    }
  }
}

/**
 * Throws `RangeError` unless every anchor is of the type that divides the interval: WEEKDAY for
 * WEEK, MONTHDAY for MONTH, YEARDAY for YEAR, and none for DAY (the contract's interval edit
 * refuses the same with a 400).
 */
export function assertAnchorsFit(interval: BillingInterval, anchors: readonly Anchor[]): void {
  const fits = ANCHOR_TYPE_OF[interval]
  for (const anchor of anchors) {
    if (anchor.type !== fits) {
      throw new RangeError(`A ${interval} interval takes ${fits ?? 'no'} anchors, not ${anchor.type}`)
    }
  }
}

/**
 * Whether an order placed on `orderDate` is inside the cutoff of the anchor occurrence `at`, so
 * it skips that occurrence. With a fixed `cutoffDay` the cutoff is the latest day on or before
 * `at` carrying that weekday (day of month, clamped): an order after it and before `at` is
 * inside, an order on the cutoff day itself is not. With a cutoff of N days (the delivery
 * policy's `cutoff`), an order fewer than N days before `at` is inside, N days before is not.
 * An order on the anchor day itself is never inside.
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
      if (dayNumber(cutoff) > anchorDay) cutoff = monthDate(at.year, at.month, -1, anchor.cutoffDay)
    }
    return order > dayNumber(cutoff)
  }
  return cutoffDays != null && anchorDay - order < cutoffDays
}
