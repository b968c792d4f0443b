import fc from 'fast-check'
import type { BillingAnchor, BillingInterval, BillingSchedulePolicy } from '../src/index.ts'

// ---------------------------------------------------------------------------------------------
// Oracle for the billing schedule tests: a deliberately naive calendar. Dates are [year, month,
// day] counted with plain integer loops (whole years, whole months, then one day at a time),
// Tokyo is a fixed +9 h (it has had no DST since 1951), and every schedule rule walks forward or
// back one day at a time until the day fits. No Date, no Intl, nothing from src/ but its types.
// ---------------------------------------------------------------------------------------------

export type Ymd = [number, number, number]
export type Rules = {
  severalAnchors: 'EVERY_ANCHOR' | 'FIRST_ANCHOR'
  firstCycleWithCount: 'COUNT_FROM_NEXT_ANCHOR' | 'NEXT_ANCHOR'
}
export const APP_RULES: Rules = {
  severalAnchors: 'EVERY_ANCHOR',
  firstCycleWithCount: 'COUNT_FROM_NEXT_ANCHOR',
}

export const JST_MS = 9 * 3_600_000
export const DAY_MS = 86_400_000

export const oLeap = (y: number): boolean => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)
export const oMonthDays = (y: number, m: number): number =>
  m === 2 ? (oLeap(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31
const oTomorrow = ([y, m, d]: Ymd): Ymd =>
  d < oMonthDays(y, m) ? [y, m, d + 1] : m < 12 ? [y, m + 1, 1] : [y + 1, 1, 1]
const oYesterday = ([y, m, d]: Ymd): Ymd =>
  d > 1 ? [y, m, d - 1] : m > 1 ? [y, m - 1, oMonthDays(y, m - 1)] : [y - 1, 12, 31]
const oBefore = (a: Ymd, b: Ymd): boolean =>
  a[0] !== b[0] ? a[0] < b[0] : a[1] !== b[1] ? a[1] < b[1] : a[2] < b[2]

/** Days from 1970-01-01 (years >= 1970 only), by counting. */
export function oDays([y, m, d]: Ymd): number {
  let n = 0
  for (let year = 1970; year < y; year++) n += oLeap(year) ? 366 : 365
  for (let month = 1; month < m; month++) n += oMonthDays(y, month)
  return n + d - 1
}

export function oDate(days: number): Ymd {
  let rest = days
  let y = 1970
  while (rest >= (oLeap(y) ? 366 : 365)) rest -= oLeap(y++) ? 366 : 365
  let m = 1
  while (rest >= oMonthDays(y, m)) rest -= oMonthDays(y, m++)
  return [y, m, rest + 1]
}

const MONDAY_2000 = oDays([2000, 1, 3]) // a known Monday
export const oWeekday = (date: Ymd): number => ((((oDays(date) - MONDAY_2000) % 7) + 7) % 7) + 1

/** A day being walked over: its date and its day count, kept in step so no walk re-counts. */
type Day = { ymd: Ymd; n: number }
const dayOf = (ymd: Ymd): Day => ({ ymd, n: oDays(ymd) })
const next = (d: Day): Day => ({ ymd: oTomorrow(d.ymd), n: d.n + 1 })
const prev = (d: Day): Day => ({ ymd: oYesterday(d.ymd), n: d.n - 1 })
const weekdayOfDay = (d: Day): number => ((((d.n - MONDAY_2000) % 7) + 7) % 7) + 1

function walkUntil(from: Day, fits: (d: Day) => boolean): Day {
  let at = from
  for (let i = 0; i < 8000; i++, at = next(at)) if (fits(at)) return at
  throw new Error('oracle walked too far')
}

function isOccurrence(a: BillingAnchor, d: Day): boolean {
  const [y, m, day] = d.ymd
  if (a.type === 'WEEKDAY') return weekdayOfDay(d) === a.day
  if (a.type === 'MONTHDAY') return day === Math.min(a.day, oMonthDays(y, m))
  return m === a.month && day === Math.min(a.day, oMonthDays(y, m))
}

/** Weeks counted from a Monday, months as year·12 + month, years. */
function period(interval: BillingInterval, d: Day): number {
  if (interval === 'WEEK') return Math.floor((d.n - MONDAY_2000) / 7)
  return interval === 'MONTH' ? d.ymd[0] * 12 + d.ymd[1] : d.ymd[0]
}

const billingAnchors = (policy: BillingSchedulePolicy, rules: Rules): readonly BillingAnchor[] =>
  rules.severalAnchors === 'FIRST_ANCHOR' ? policy.anchors.slice(0, 1) : policy.anchors

/** Walk `count` intervals on from `from`, a day 29-31 landing on the month's last day. */
function walkIntervals(from: Day, interval: BillingInterval, count: number, day: number): Day {
  const [y, m] = from.ymd
  if (interval === 'DAY' || interval === 'WEEK') {
    let at = from
    for (let i = 0; i < (interval === 'DAY' ? 1 : 7) * count; i++) at = next(at)
    return at
  }
  const months = interval === 'MONTH' ? count : 12 * count
  return walkUntil(
    from,
    ({ ymd: [yy, mm, dd] }) =>
      yy * 12 + mm === y * 12 + m + months && dd === Math.min(day, oMonthDays(yy, mm)),
  )
}

function nextDay(date: Day, policy: BillingSchedulePolicy, hint: number | undefined, rules: Rules): Day {
  if (policy.anchors.length === 0)
    return walkIntervals(date, policy.interval, policy.intervalCount, hint ?? date.ymd[2])
  const anchors = billingAnchors(policy, rules)
  const isAnchorDay = (d: Day) => anchors.some((a) => isOccurrence(a, d))
  const here = period(policy.interval, date)
  // The cycle of the billed day: the last anchor day on or before it in its period, else the first.
  let cycle: Day | null = null
  for (let d = date; period(policy.interval, d) === here; d = prev(d)) {
    if (isAnchorDay(d)) {
      cycle = d
      break
    }
  }
  cycle ??= walkUntil(date, isAnchorDay)
  return walkUntil(next(cycle), (d) => {
    const p = period(policy.interval, d)
    return isAnchorDay(d) && (p === here || p === here + policy.intervalCount)
  })
}

export function oNextDay(date: Ymd, policy: BillingSchedulePolicy, hint?: number, rules = APP_RULES): Ymd {
  return nextDay(dayOf(date), policy, hint, rules).ymd
}

function insideCutoff(order: Day, at: Day, a: BillingAnchor, cutoff: number | null | undefined): boolean {
  if (order.n >= at.n) return false
  if (a.cutoffDay != null) {
    // Walk back from the anchor day to the nearest day carrying the cutoff day.
    const carries = (d: Day): boolean =>
      a.type === 'WEEKDAY'
        ? weekdayOfDay(d) === a.cutoffDay
        : d.ymd[2] === Math.min(a.cutoffDay as number, oMonthDays(d.ymd[0], d.ymd[1]))
    let c = at
    while (!carries(c)) c = prev(c)
    return order.n > c.n
  }
  return cutoff != null && at.n - order.n < cutoff
}

/** The first delivery and billing days after an order on `order`, by the pre-anchor rule. */
export function oFirstDays(
  order: Ymd,
  policy: BillingSchedulePolicy,
  rules = APP_RULES,
): { delivery: Ymd; billing: Ymd } {
  const day = dayOf(order)
  if (policy.anchors.length === 0)
    return { delivery: order, billing: nextDay(day, policy, undefined, rules).ymd }
  const anchors = billingAnchors(policy, rules)
  const isAnchorDay = (d: Day) => anchors.some((a) => isOccurrence(a, d))
  const eligible = (d: Day) =>
    anchors.some((a) => isOccurrence(a, d) && !insideCutoff(day, d, a, policy.cutoff))
  if (policy.preAnchorBehavior === 'NEXT') {
    const delivery = walkUntil(day, eligible)
    return { delivery: delivery.ymd, billing: nextDay(delivery, policy, undefined, rules).ymd }
  }
  const first = walkUntil(next(day), eligible)
  const skipped = walkUntil(next(day), isAnchorDay)
  const delivery = skipped.n < first.n ? skipped.ymd : order
  const count = rules.firstCycleWithCount === 'NEXT_ANCHOR' ? 0 : policy.intervalCount - 1
  if (count === 0) return { delivery, billing: first.ymd }
  const moved = walkIntervals(first, policy.interval, count, first.ymd[2])
  return { delivery, billing: walkUntil(moved, isAnchorDay).ymd }
}

/**
 * The rule before several anchors billed (one anchor only): advance N intervals keeping the
 * anchor's day, then the first anchor day on or after. Kept to show the new rule agrees with it.
 */
export function oLegacyNextDay(date: Ymd, policy: BillingSchedulePolicy): Ymd {
  const anchor = policy.anchors[0] as BillingAnchor
  const from = dayOf(date)
  let advanced: Day
  if (policy.interval === 'YEAR') {
    const [y] = date
    advanced = walkUntil(
      from,
      ({ ymd: [yy, mm, dd] }) =>
        yy === y + policy.intervalCount &&
        mm === anchor.month &&
        dd === Math.min(anchor.day, oMonthDays(yy, mm)),
    )
  } else advanced = walkIntervals(from, policy.interval, policy.intervalCount, anchor.day)
  return walkUntil(advanced, (d) => isOccurrence(anchor, d)).ymd
}

export const oText = ([y, m, d]: Ymd): string =>
  `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`

export const oIsAnchorDay = (anchors: readonly BillingAnchor[], date: Ymd): boolean =>
  anchors.some((a) => isOccurrence(a, dayOf(date)))
export const oBeforeDay = oBefore

/** Every anchor day of the period (week from Monday, month, year) holding `date`. */
export function oAnchorDaysOfPeriod(
  date: Ymd,
  interval: BillingInterval,
  anchors: readonly BillingAnchor[],
): string[] {
  let start = dayOf(date)
  const p = period(interval, start)
  while (period(interval, prev(start)) === p) start = prev(start)
  const days: string[] = []
  for (let d = start; period(interval, d) === p; d = next(d)) {
    if (anchors.some((a) => isOccurrence(a, d))) days.push(oText(d.ymd))
  }
  return days
}

/** Instant -> Tokyo [date, ms of day] and back, with the fixed +9 h. */
export function oLocal(ms: number): [Ymd, number] {
  const local = ms + JST_MS
  const days = Math.floor(local / DAY_MS)
  return [oDate(days), local - days * DAY_MS]
}
export const oInstant = (date: Ymd, timeOfDay: number): number => oDays(date) * DAY_MS + timeOfDay - JST_MS

export const oracleNext = (ms: number, policy: BillingSchedulePolicy, hint?: number): number => {
  const [date, time] = oLocal(ms)
  return oInstant(oNextDay(date, policy, hint), time)
}

// ---- generators --------------------------------------------------------------------------------

const FROM = Date.UTC(2000, 0, 1)
const TO = Date.UTC(2150, 0, 1)
/** Any instant, or one on a month's last days (where clamping happens), any time of day. */
export const instantArb = fc.oneof(
  fc.integer({ min: FROM, max: TO }),
  fc
    .record({
      y: fc.integer({ min: 2000, max: 2149 }),
      m: fc.integer({ min: 1, max: 12 }),
      d: fc.integer({ min: 27, max: 31 }),
      time: fc.integer({ min: 0, max: DAY_MS - 1 }),
    })
    .map(({ y, m, d, time }) => oInstant([y, m, Math.min(d, oMonthDays(y, m))], time)),
)
export const dayOfMonthArb = fc.oneof(fc.integer({ min: 1, max: 31 }), fc.integer({ min: 28, max: 31 }))
const cutoffDayArb = (max: number) => fc.option(fc.integer({ min: 1, max }), { nil: null })

/** An anchor of the type the interval takes (WEEKDAY for WEEK, ...), with a cutoff day or not. */
export function anchorArb(interval: BillingInterval, withCutoffDay = false): fc.Arbitrary<BillingAnchor> {
  if (interval === 'WEEK') {
    return fc
      .record({
        day: fc.integer({ min: 1, max: 7 }),
        cutoffDay: withCutoffDay ? cutoffDayArb(7) : fc.constant(null),
      })
      .map(({ day, cutoffDay }) => ({ type: 'WEEKDAY' as const, day, cutoffDay }))
  }
  if (interval === 'MONTH') {
    return fc
      .record({ day: dayOfMonthArb, cutoffDay: withCutoffDay ? cutoffDayArb(31) : fc.constant(null) })
      .map(({ day, cutoffDay }) => ({ type: 'MONTHDAY' as const, day, cutoffDay }))
  }
  return fc.record({ month: fc.integer({ min: 1, max: 12 }), day: dayOfMonthArb }).map(({ month, day }) => ({
    type: 'YEARDAY' as const,
    month,
    day: Math.min(day, oMonthDays(2000, month)),
  }))
}

const intervalArb = fc.constantFrom<BillingInterval>('DAY', 'WEEK', 'MONTH', 'YEAR')
const countFor = (interval: BillingInterval, count: number): number =>
  interval === 'YEAR' ? Math.ceil(count / 6) : interval === 'DAY' ? count * 3 : count

/** A policy whose anchors (0 to `maxAnchors`, duplicates possible) fit its interval. */
export function policyArb(
  opts: { minAnchors?: number; maxAnchors?: number; withCutoffDay?: boolean } = {},
): fc.Arbitrary<BillingSchedulePolicy> {
  const { minAnchors = 0, maxAnchors = 3, withCutoffDay = false } = opts
  return fc
    .tuple(
      intervalArb.filter((i) => minAnchors === 0 || i !== 'DAY'),
      fc.integer({ min: 1, max: 24 }),
    )
    .chain(([interval, count]) =>
      (interval === 'DAY'
        ? fc.constant([] as BillingAnchor[])
        : fc.array(anchorArb(interval, withCutoffDay), { minLength: minAnchors, maxLength: maxAnchors })
      ).map((anchors) => ({ interval, intervalCount: countFor(interval, count), anchors })),
    )
}
export const hintArb = fc.option(dayOfMonthArb, { nil: undefined })
