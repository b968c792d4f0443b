import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  addCalendarDays,
  type BillingAnchor,
  type BillingSchedulePolicy,
  deliveryDateFor,
  firstBillingDateAfterOrder,
  nextBillingDate,
  nextCycleIndex,
} from '../src/index.ts'

// The npm script pins TZ=UTC, so every Asia/Tokyo case below only passes if the code ignores the
// process zone. Instants are written as Tokyo wall time: jst('2026-01-31 10:00').
const TOKYO = 'Asia/Tokyo'
const NEW_YORK = 'America/New_York'
const JST_MS = 9 * 3_600_000
const DAY_MS = 86_400_000

const jst = (wall: string): Date => new Date(`${wall.replace(' ', 'T')}:00+09:00`)
const showJst = (d: Date): string =>
  new Date(d.getTime() + JST_MS).toISOString().slice(0, 16).replace('T', ' ')

const monthly = (count = 1, anchors: BillingAnchor[] = []): BillingSchedulePolicy => ({
  interval: 'MONTH',
  intervalCount: count,
  anchors,
})
const MONTHDAY = (day: number, cutoffDay?: number): BillingAnchor => ({ type: 'MONTHDAY', day, cutoffDay })
const WEEKDAY = (day: number, cutoffDay?: number): BillingAnchor => ({ type: 'WEEKDAY', day, cutoffDay })
const YEARDAY = (month: number, day: number): BillingAnchor => ({ type: 'YEARDAY', month, day })
const QUARTERS = [YEARDAY(1, 1), YEARDAY(4, 1), YEARDAY(7, 1), YEARDAY(10, 1)]

describe('nextBillingDate in Asia/Tokyo', () => {
  it.each<[string, string, BillingSchedulePolicy, number | undefined, string]>([
    // Month ends: clamp to the last day, keep the intended day (hint or the billed day).
    ['31 Jan + 1 month', '2026-01-31 10:00', monthly(), undefined, '2026-02-28 10:00'],
    ['28 Feb, intended 31', '2026-02-28 10:00', monthly(), 31, '2026-03-31 10:00'],
    ['28 Feb without a hint is the 28th', '2026-02-28 10:00', monthly(), undefined, '2026-03-28 10:00'],
    ['31 Mar -> 30 Apr', '2026-03-31 10:00', monthly(), undefined, '2026-04-30 10:00'],
    ['30 Apr, intended 31', '2026-04-30 10:00', monthly(), 31, '2026-05-31 10:00'],
    ['30 Jan -> 28 Feb', '2026-01-30 10:00', monthly(), undefined, '2026-02-28 10:00'],
    ['leap: 31 Jan 2028 -> 29 Feb', '2028-01-31 10:00', monthly(), undefined, '2028-02-29 10:00'],
    ['leap: 29 Feb 2028, intended 31', '2028-02-29 10:00', monthly(), 31, '2028-03-31 10:00'],
    ['31 Dec -> 31 Jan next year', '2026-12-31 10:00', monthly(), undefined, '2027-01-31 10:00'],
    ['12 months from 29 Feb 2024', '2024-02-29 10:00', monthly(12), undefined, '2025-02-28 10:00'],
    ['2 months from 31 Dec', '2026-12-31 10:00', monthly(2), undefined, '2027-02-28 10:00'],
    // Years: 29 Feb -> 28 Feb -> ... -> 29 Feb in the next leap year (with the hint).
    ['yearly from 29 Feb 2028', '2028-02-29 10:00', yearly(1), undefined, '2029-02-28 10:00'],
    ['yearly 2029, intended 29', '2029-02-28 10:00', yearly(1), 29, '2030-02-28 10:00'],
    ['yearly 2031, intended 29', '2031-02-28 10:00', yearly(1), 29, '2032-02-29 10:00'],
    ['every 4 years from 29 Feb 2028', '2028-02-29 10:00', yearly(4), undefined, '2032-02-29 10:00'],
    ['2100 is not a leap year', '2099-02-28 10:00', yearly(1), 29, '2100-02-28 10:00'],
    ['2400 is a leap year', '2399-02-28 10:00', yearly(1), 29, '2400-02-29 10:00'],
    [
      'YEARDAY 29 Feb keeps 29 by itself',
      '2029-02-28 10:00',
      yearly(1, [YEARDAY(2, 29)]),
      undefined,
      '2030-02-28 10:00',
    ],
    [
      'YEARDAY 29 Feb lands on 29 in 2032',
      '2031-02-28 10:00',
      yearly(1, [YEARDAY(2, 29)]),
      undefined,
      '2032-02-29 10:00',
    ],
    ['YEARDAY 1 Apr', '2026-04-01 10:00', yearly(1, [YEARDAY(4, 1)]), undefined, '2027-04-01 10:00'],
    [
      'YEARDAY off the anchor keeps the anchor',
      '2026-05-20 10:00',
      yearly(1, [YEARDAY(4, 1)]),
      undefined,
      '2027-04-01 10:00',
    ],
    // Weeks and WEEKDAY anchors (ISO: 1 = Monday .. 7 = Sunday).
    [
      'weekly from Mon, Monday anchor',
      '2026-11-30 10:00',
      weekly(1, [WEEKDAY(1)]),
      undefined,
      '2026-12-07 10:00',
    ],
    [
      'weekly from Wed, Friday anchor',
      '2026-12-02 10:00',
      weekly(1, [WEEKDAY(5)]),
      undefined,
      '2026-12-11 10:00',
    ],
    ['2-weekly, Sunday anchor', '2026-11-29 10:00', weekly(2, [WEEKDAY(7)]), undefined, '2026-12-13 10:00'],
    ['weekly across the year end', '2026-12-28 10:00', weekly(1), undefined, '2027-01-04 10:00'],
    // Interval counts with anchors: advance by N intervals, then the anchor on or after.
    ['2-monthly MONTHDAY 15', '2026-01-15 10:00', monthly(2, [MONTHDAY(15)]), undefined, '2026-03-15 10:00'],
    [
      '2-monthly MONTHDAY 15 over the year end',
      '2026-11-15 10:00',
      monthly(2, [MONTHDAY(15)]),
      undefined,
      '2027-01-15 10:00',
    ],
    [
      '2-monthly MONTHDAY 15, billed off the anchor',
      '2026-01-20 10:00',
      monthly(2, [MONTHDAY(15)]),
      undefined,
      '2026-03-15 10:00',
    ],
    [
      'MONTHDAY 31 in February',
      '2026-01-31 10:00',
      monthly(1, [MONTHDAY(31)]),
      undefined,
      '2026-02-28 10:00',
    ],
    [
      'MONTHDAY 31 back to 31 with no hint',
      '2026-02-28 10:00',
      monthly(1, [MONTHDAY(31)]),
      undefined,
      '2026-03-31 10:00',
    ],
    ['MONTHDAY 30 beats the hint', '2026-02-28 10:00', monthly(1, [MONTHDAY(30)]), 31, '2026-03-30 10:00'],
    [
      'quarterly YEARDAY anchors, every 3 months',
      '2026-01-01 10:00',
      monthly(3, QUARTERS),
      undefined,
      '2026-04-01 10:00',
    ],
    [
      'quarterly YEARDAY anchors, monthly',
      '2026-04-01 10:00',
      monthly(1, QUARTERS),
      undefined,
      '2026-07-01 10:00',
    ],
    // Days.
    ['DAY 10', '2026-02-25 10:00', daily(10), undefined, '2026-03-07 10:00'],
    ['DAY 10 in a leap year', '2028-02-25 10:00', daily(10), undefined, '2028-03-06 10:00'],
    ['DAY 1 at the year end', '2026-12-31 23:59', daily(1), undefined, '2027-01-01 23:59'],
    [
      'DAY 10 then the Monday on or after',
      '2026-12-01 10:00',
      daily(10, [WEEKDAY(1)]),
      undefined,
      '2026-12-14 10:00',
    ],
    // Tokyo midnight: the Tokyo date counts, not the UTC one.
    ['00:00 JST on the 1st (UTC: the 31st)', '2026-11-01 00:00', monthly(), undefined, '2026-12-01 00:00'],
    ['00:00 JST on 31 Jan (UTC: 30 Jan)', '2026-01-31 00:00', monthly(), undefined, '2026-02-28 00:00'],
    [
      '00:00 JST Monday (UTC: Sunday)',
      '2026-11-30 00:00',
      weekly(1, [WEEKDAY(1)]),
      undefined,
      '2026-12-07 00:00',
    ],
    ['23:59 JST on the 30th', '2026-11-30 23:59', monthly(), undefined, '2026-12-30 23:59'],
  ])('%s: %s -> %s', (_label, billedAt, policy, intendedDay, expected) => {
    const opts = intendedDay === undefined ? undefined : { intendedDay }
    expect(showJst(nextBillingDate(jst(billedAt), policy, TOKYO, opts))).toBe(expected)
  })

  it('2026-11-30T15:00Z is already 1 December in Tokyo', () => {
    const next = nextBillingDate(new Date('2026-10-31T15:00:00Z'), monthly(), TOKYO)
    expect(next.toISOString()).toBe('2026-11-30T15:00:00.000Z')
    expect(deliveryDateFor(next, 0, TOKYO)).toBe('2026-12-01')
    // The same instant read in UTC is 31 October, so the next cycle is a different instant.
    expect(nextBillingDate(new Date('2026-01-30T15:00:00Z'), monthly(), TOKYO).toISOString()).toBe(
      '2026-02-27T15:00:00.000Z',
    )
    expect(nextBillingDate(new Date('2026-01-30T15:00:00Z'), monthly(), 'UTC').toISOString()).toBe(
      '2026-02-28T15:00:00.000Z',
    )
  })

  it('walks 31 Jan -> 28 Feb -> 31 Mar -> 30 Apr -> 31 May with the hint, keeping seconds and ms', () => {
    const seen: string[] = []
    let at = new Date('2026-01-31T01:02:03.456Z')
    for (let i = 0; i < 4; i++) {
      at = nextBillingDate(at, monthly(), TOKYO, { intendedDay: 31 })
      seen.push(at.toISOString())
    }
    expect(seen).toEqual([
      '2026-02-28T01:02:03.456Z',
      '2026-03-31T01:02:03.456Z',
      '2026-04-30T01:02:03.456Z',
      '2026-05-31T01:02:03.456Z',
    ])
  })
})

describe('nextBillingDate keeps the local wall time across DST (America/New_York)', () => {
  it.each<[string, string, BillingSchedulePolicy, string]>([
    ['10:00 EST -> 10:00 EDT', '2026-02-10T15:00:00Z', monthly(), '2026-03-10T14:00:00.000Z'],
    ['10:00 EDT -> 10:00 EST', '2026-10-10T14:00:00Z', monthly(), '2026-11-10T15:00:00.000Z'],
    // 02:30 does not exist on 8 March 2026: it moves forward by the gap, to 03:30 EDT.
    ['02:30 in the spring gap', '2026-02-08T07:30:00Z', monthly(), '2026-03-08T07:30:00.000Z'],
    // 01:30 happens twice on 1 November 2026: the first (EDT, 05:30Z), not the second (06:30Z).
    ['01:30 in the autumn overlap', '2026-10-01T05:30:00Z', monthly(), '2026-11-01T05:30:00.000Z'],
    ['a 23-hour day', '2026-03-07T15:00:00Z', daily(1), '2026-03-08T14:00:00.000Z'],
    ['a 25-hour day', '2026-10-31T14:00:00Z', daily(1), '2026-11-01T15:00:00.000Z'],
  ])('%s', (_label, billedAt, policy, expected) => {
    expect(nextBillingDate(new Date(billedAt), policy, NEW_YORK).toISOString()).toBe(expected)
  })
})

describe('firstBillingDateAfterOrder (pre-anchor rule)', () => {
  const on15 = monthly(1, [MONTHDAY(15)])
  it.each<[string, string, BillingSchedulePolicy, string]>([
    // platform-facts' worked example, anchor = the 15th.
    ['order on the anchor day', '2023-01-15 10:00', on15, '2023-02-15 10:00'],
    ['order 12th, cutoff 0, ASAP', '2023-01-12 10:00', { ...on15, cutoff: 0 }, '2023-01-15 10:00'],
    ['order 12th, no cutoff, ASAP', '2023-01-12 10:00', on15, '2023-01-15 10:00'],
    ['order 12th, cutoff 5, ASAP', '2023-01-12 10:00', { ...on15, cutoff: 5 }, '2023-02-15 10:00'],
    [
      'order 12th, cutoff 5, NEXT',
      '2023-01-12 10:00',
      { ...on15, cutoff: 5, preAnchorBehavior: 'NEXT' },
      '2023-03-15 10:00',
    ],
    [
      'order 12th, NEXT, no cutoff',
      '2023-01-12 10:00',
      { ...on15, preAnchorBehavior: 'NEXT' },
      '2023-02-15 10:00',
    ],
    ['order 12th, fixed cutoffDay 5', '2023-01-12 10:00', monthly(1, [MONTHDAY(15, 5)]), '2023-02-15 10:00'],
    // The cutoff day itself is not inside the cutoff (an order on it still makes the anchor).
    ['exactly 5 days before, cutoff 5', '2023-01-10 10:00', { ...on15, cutoff: 5 }, '2023-01-15 10:00'],
    ['4 days before, cutoff 5', '2023-01-11 10:00', { ...on15, cutoff: 5 }, '2023-02-15 10:00'],
    ['on cutoffDay 10', '2023-01-10 10:00', monthly(1, [MONTHDAY(15, 10)]), '2023-01-15 10:00'],
    ['the day after cutoffDay 10', '2023-01-11 10:00', monthly(1, [MONTHDAY(15, 10)]), '2023-02-15 10:00'],
    [
      'cutoffDay 25 of the month before the 5th',
      '2023-01-25 10:00',
      monthly(1, [MONTHDAY(5, 25)]),
      '2023-02-05 10:00',
    ],
    [
      'after cutoffDay 25, before the 5th',
      '2023-01-26 10:00',
      monthly(1, [MONTHDAY(5, 25)]),
      '2023-03-05 10:00',
    ],
    [
      'cutoffDay equal to the anchor day: no cutoff',
      '2023-01-14 10:00',
      monthly(1, [MONTHDAY(15, 15)]),
      '2023-01-15 10:00',
    ],
    [
      'Monday anchor, order Friday = cutoffDay',
      '2026-12-04 10:00',
      weekly(1, [WEEKDAY(1, 5)]),
      '2026-12-07 10:00',
    ],
    ['Monday anchor, order Saturday', '2026-12-05 10:00', weekly(1, [WEEKDAY(1, 5)]), '2026-12-14 10:00'],
    [
      '2-weekly Monday: the first anchor still comes first',
      '2026-12-02 10:00',
      weekly(2, [WEEKDAY(1)]),
      '2026-12-07 10:00',
    ],
    [
      'YEARDAY 1 Dec, cutoff 7, 6 days before',
      '2026-11-25 10:00',
      yearly(1, [YEARDAY(12, 1)], 7),
      '2027-12-01 10:00',
    ],
    [
      'YEARDAY 1 Dec, cutoff 6, 6 days before',
      '2026-11-25 10:00',
      yearly(1, [YEARDAY(12, 1)], 6),
      '2026-12-01 10:00',
    ],
    ['MONTHDAY 31 from 2 Feb: 28 Feb', '2026-02-02 10:00', monthly(1, [MONTHDAY(31)]), '2026-02-28 10:00'],
    [
      'two anchors: the earlier eligible one',
      '2026-01-12 10:00',
      monthly(1, [MONTHDAY(20), MONTHDAY(14, 10)]),
      '2026-01-20 10:00',
    ],
    // Without anchors: one billing interval (intervalCount intervals) after the order.
    ['no anchors, monthly from 31 Jan', '2026-01-31 10:00', monthly(), '2026-02-28 10:00'],
    ['no anchors, every 2 months', '2026-01-31 10:00', monthly(2), '2026-03-31 10:00'],
    ['no anchors, every 2 weeks', '2026-12-25 10:00', weekly(2), '2027-01-08 10:00'],
    // Tokyo midnight: 2023-01-14T15:30Z is 00:30 on the 15th in Tokyo, the anchor day itself.
    ['order at 00:30 JST on the anchor day', '2023-01-15 00:30', on15, '2023-02-15 00:30'],
  ])('%s: %s -> %s', (_label, orderedAt, policy, expected) => {
    expect(showJst(firstBillingDateAfterOrder(jst(orderedAt), policy, TOKYO))).toBe(expected)
  })
})

describe('addCalendarDays / deliveryDateFor / nextCycleIndex', () => {
  it.each<[string, number, string]>([
    ['2026-12-31', 1, '2027-01-01'],
    ['2027-01-01', -1, '2026-12-31'],
    ['2028-02-28', 1, '2028-02-29'], // leap year
    ['2026-02-28', 1, '2026-03-01'],
    ['2024-03-01', -1, '2024-02-29'],
    ['2100-02-28', 1, '2100-03-01'], // century, not leap
    ['2000-02-28', 1, '2000-02-29'], // 400-year rule, leap
    ['2026-01-01', 365, '2027-01-01'],
    ['2028-01-01', 366, '2029-01-01'],
    ['2026-05-10', 0, '2026-05-10'],
    ['1970-01-01', -1, '1969-12-31'],
    ['0001-01-01', 0, '0001-01-01'],
  ])('%s + %i = %s', (date, days, expected) => {
    expect(addCalendarDays(date, days)).toBe(expected)
  })

  it.each<[string, number]>([
    ['2026-02-30', 1],
    ['2026-1-1', 1],
    ['0001-01-01', -1], // before year 1
    ['9999-12-31', 1],
    ['2026-01-01', 1.5],
  ])('addCalendarDays(%j, %d) throws RangeError', (date, days) => {
    expect(() => addCalendarDays(date, days)).toThrow(RangeError)
  })

  it.each<[string, number, string, string]>([
    ['2026-11-30T15:00:00Z', 0, TOKYO, '2026-12-01'],
    ['2026-11-30T15:00:00Z', 3, TOKYO, '2026-12-04'],
    ['2026-11-30T15:00:00Z', 0, 'UTC', '2026-11-30'],
    ['2028-02-27T15:00:00Z', 1, TOKYO, '2028-02-29'],
    ['2026-12-31T14:59:59Z', 1, TOKYO, '2027-01-01'],
  ])('deliveryDateFor(%s, %i, %s) = %s', (billedAt, prepDays, zone, expected) => {
    expect(deliveryDateFor(new Date(billedAt), prepDays, zone)).toBe(expected)
  })

  it('deliveryDateFor refuses negative or fractional prep days', () => {
    expect(() => deliveryDateFor(new Date(), -1, TOKYO)).toThrow(RangeError)
    expect(() => deliveryDateFor(new Date(), 0.5, TOKYO)).toThrow(RangeError)
  })

  it('nextCycleIndex is cycles billed + 1', () => {
    expect(nextCycleIndex(0)).toBe(1)
    expect(nextCycleIndex(11)).toBe(12)
    expect(() => nextCycleIndex(-1)).toThrow(RangeError)
    expect(() => nextCycleIndex(1.5)).toThrow(RangeError)
  })
})

describe('invalid input', () => {
  const at = jst('2026-01-01 10:00')
  it.each<[string, BillingSchedulePolicy]>([
    ['intervalCount 0', monthly(0)],
    ['intervalCount 1.5', monthly(1.5)],
    ['unknown interval', { interval: 'HOUR' as never, intervalCount: 1, anchors: [] }],
    ['WEEKDAY 8', weekly(1, [WEEKDAY(8)])],
    ['WEEKDAY 0', weekly(1, [WEEKDAY(0)])],
    ['MONTHDAY 32', monthly(1, [MONTHDAY(32)])],
    ['WEEKDAY cutoffDay 8', weekly(1, [WEEKDAY(1, 8)])],
    ['MONTHDAY with a month', monthly(1, [{ type: 'MONTHDAY', day: 1, month: 2 }])],
    ['YEARDAY without a month', yearly(1, [{ type: 'YEARDAY', day: 1 }])],
    ['YEARDAY month 13', yearly(1, [YEARDAY(13, 1)])],
    ['YEARDAY with a cutoffDay', yearly(1, [{ type: 'YEARDAY', day: 1, month: 1, cutoffDay: 1 }])],
    ['negative cutoff', { ...monthly(1, [MONTHDAY(1)]), cutoff: -1 }],
  ])('%s', (_label, policy) => {
    expect(() => nextBillingDate(at, policy, TOKYO)).toThrow(RangeError)
    expect(() => firstBillingDateAfterOrder(at, policy, TOKYO)).toThrow(RangeError)
  })

  it('rejects a bad hint, zone or date', () => {
    expect(() => nextBillingDate(at, monthly(), TOKYO, { intendedDay: 32 })).toThrow(RangeError)
    expect(() => nextBillingDate(at, monthly(), TOKYO, { intendedDay: 0 })).toThrow(RangeError)
    expect(() => nextBillingDate(at, monthly(), 'Mars/Olympus')).toThrow(RangeError)
    expect(() => nextBillingDate(new Date(Number.NaN), monthly(), TOKYO)).toThrow(RangeError)
  })
})

function daily(count: number, anchors: BillingAnchor[] = []): BillingSchedulePolicy {
  return { interval: 'DAY', intervalCount: count, anchors }
}
function weekly(count: number, anchors: BillingAnchor[] = []): BillingSchedulePolicy {
  return { interval: 'WEEK', intervalCount: count, anchors }
}
function yearly(count: number, anchors: BillingAnchor[] = [], cutoff?: number): BillingSchedulePolicy {
  return { interval: 'YEAR', intervalCount: count, anchors, cutoff }
}

// ---------------------------------------------------------------------------------------------
// Oracle: a deliberately naive calendar. Dates are [year, month, day] counted with plain integer
// loops (whole years, whole months, then one day at a time), Tokyo is a fixed +9 h (it has had
// no DST since 1951), and every schedule rule walks forward one day at a time until the day
// fits. No Date, no Intl, nothing from src/.
// ---------------------------------------------------------------------------------------------

type Ymd = [number, number, number]

const oLeap = (y: number): boolean => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)
const oMonthDays = (y: number, m: number): number =>
  m === 2 ? (oLeap(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31
const oTomorrow = ([y, m, d]: Ymd): Ymd =>
  d < oMonthDays(y, m) ? [y, m, d + 1] : m < 12 ? [y, m + 1, 1] : [y + 1, 1, 1]
const oBefore = (a: Ymd, b: Ymd): boolean =>
  a[0] !== b[0] ? a[0] < b[0] : a[1] !== b[1] ? a[1] < b[1] : a[2] < b[2]

/** Days from 1970-01-01 (years >= 1970 only), by counting. */
function oDays([y, m, d]: Ymd): number {
  let n = 0
  for (let year = 1970; year < y; year++) n += oLeap(year) ? 366 : 365
  for (let month = 1; month < m; month++) n += oMonthDays(y, month)
  return n + d - 1
}

function oDate(days: number): Ymd {
  let rest = days
  let y = 1970
  while (rest >= (oLeap(y) ? 366 : 365)) rest -= oLeap(y++) ? 366 : 365
  let m = 1
  while (rest >= oMonthDays(y, m)) rest -= oMonthDays(y, m++)
  return [y, m, rest + 1]
}

const MONDAY_2000 = oDays([2000, 1, 3]) // a known Monday
const oWeekday = (date: Ymd): number => ((((oDays(date) - MONDAY_2000) % 7) + 7) % 7) + 1

function oWalk(date: Ymd, days: number): Ymd {
  let at = date
  for (let i = 0; i < days; i++) at = oTomorrow(at)
  return at
}

function oWalkUntil(date: Ymd, fits: (d: Ymd) => boolean): Ymd {
  let at = date
  for (let i = 0; i < 2000; i++, at = oTomorrow(at)) if (fits(at)) return at
  throw new Error('oracle walked too far')
}

function oIsOccurrence(a: BillingAnchor, [y, m, d]: Ymd): boolean {
  if (a.type === 'WEEKDAY') return oWeekday([y, m, d]) === a.day
  if (a.type === 'MONTHDAY') return d === Math.min(a.day, oMonthDays(y, m))
  return m === a.month && d === Math.min(a.day, oMonthDays(y, m))
}

/** The MONTHDAY/YEARDAY anchor a contract keeps: last one placed on or before the date, else first. */
function oKept(anchors: BillingAnchor[], [y, m, d]: Ymd): BillingAnchor {
  const place = (a: BillingAnchor): Ymd =>
    a.type === 'YEARDAY'
      ? [y, a.month as number, Math.min(a.day, oMonthDays(y, a.month as number))]
      : [y, m, Math.min(a.day, oMonthDays(y, m))]
  let kept: BillingAnchor | null = null
  for (const a of anchors) {
    if (oBefore([y, m, d], place(a))) continue
    if (
      kept === null ||
      oBefore(place(kept), place(a)) ||
      (place(a).join() === place(kept).join() && a.day > kept.day)
    )
      kept = a
  }
  if (kept) return kept
  let first = anchors[0] as BillingAnchor
  for (const a of anchors) {
    if (oBefore(place(a), place(first)) || (place(a).join() === place(first).join() && a.day < first.day))
      first = a
  }
  return first
}

function oNextDay(date: Ymd, policy: BillingSchedulePolicy, hint?: number): Ymd {
  const [y, m, d] = date
  const n = policy.intervalCount
  let advanced: Ymd
  if (policy.interval === 'DAY') advanced = oWalk(date, n)
  else if (policy.interval === 'WEEK') advanced = oWalk(date, 7 * n)
  else if (policy.interval === 'MONTH') {
    const monthdays = policy.anchors.filter((a) => a.type === 'MONTHDAY')
    const day = monthdays.length > 0 ? oKept(monthdays, date).day : (hint ?? d)
    const target = y * 12 + m - 1 + n
    advanced = oWalkUntil(
      date,
      ([yy, mm, dd]) => yy * 12 + mm - 1 === target && dd === Math.min(day, oMonthDays(yy, mm)),
    )
  } else {
    const yeardays = policy.anchors.filter((a) => a.type === 'YEARDAY')
    const kept = yeardays.length > 0 ? oKept(yeardays, date) : null
    const month = kept ? (kept.month as number) : m
    const day = kept ? kept.day : (hint ?? d)
    advanced = oWalkUntil(
      date,
      ([yy, mm, dd]) => yy === y + n && mm === month && dd === Math.min(day, oMonthDays(yy, mm)),
    )
  }
  if (policy.anchors.length === 0) return advanced
  return oWalkUntil(advanced, (day) => policy.anchors.some((a) => oIsOccurrence(a, day)))
}

function oInsideCutoff(order: Ymd, at: Ymd, a: BillingAnchor, cutoff: number | null | undefined): boolean {
  if (a.cutoffDay != null) {
    // Walk back from the anchor day to the nearest day carrying the cutoff day.
    let c = oDays(at)
    const carries = (day: Ymd): boolean =>
      a.type === 'WEEKDAY'
        ? oWeekday(day) === a.cutoffDay
        : day[2] === Math.min(a.cutoffDay as number, oMonthDays(day[0], day[1]))
    while (!carries(oDate(c))) c--
    return oDays(order) > c && oBefore(order, at)
  }
  return cutoff != null && oDays(at) - oDays(order) < cutoff
}

function oFirstDay(order: Ymd, policy: BillingSchedulePolicy): Ymd {
  if (policy.anchors.length === 0) return oNextDay(order, policy)
  const first = oWalkUntil(oTomorrow(order), (day) =>
    policy.anchors.some((a) => oIsOccurrence(a, day) && !oInsideCutoff(order, day, a, policy.cutoff)),
  )
  return policy.preAnchorBehavior === 'NEXT' ? oNextDay(first, policy) : first
}

/** Instant -> Tokyo [date, ms of day] and back, with the fixed +9 h. */
function oLocal(ms: number): [Ymd, number] {
  const local = ms + JST_MS
  const days = Math.floor(local / DAY_MS)
  return [oDate(days), local - days * DAY_MS]
}
const oInstant = (date: Ymd, timeOfDay: number): number => oDays(date) * DAY_MS + timeOfDay - JST_MS

const oracleNext = (ms: number, policy: BillingSchedulePolicy, hint?: number): number => {
  const [date, time] = oLocal(ms)
  return oInstant(oNextDay(date, policy, hint), time)
}

// ---- generators --------------------------------------------------------------------------------

const FROM = Date.UTC(2000, 0, 1)
const TO = Date.UTC(2150, 0, 1)
/** Any instant, or one on a month's last days (where clamping happens), any time of day. */
const instantArb = fc.oneof(
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
const dayOfMonthArb = fc.oneof(fc.integer({ min: 1, max: 31 }), fc.integer({ min: 28, max: 31 }))
const anchorArb: fc.Arbitrary<BillingAnchor> = fc.oneof(
  fc.integer({ min: 1, max: 7 }).map((day) => WEEKDAY(day)),
  dayOfMonthArb.map((day) => MONTHDAY(day)),
  fc
    .record({ month: fc.integer({ min: 1, max: 12 }), day: dayOfMonthArb })
    .map(({ month, day }) => YEARDAY(month, day)),
)
const policyArb: fc.Arbitrary<BillingSchedulePolicy> = fc
  .record({
    interval: fc.constantFrom('DAY', 'WEEK', 'MONTH', 'YEAR' as const),
    count: fc.integer({ min: 1, max: 24 }),
    anchors: fc.array(anchorArb, { maxLength: 2 }),
  })
  .map(({ interval, count, anchors }) => ({
    interval,
    intervalCount: interval === 'YEAR' ? Math.ceil(count / 6) : interval === 'DAY' ? count * 3 : count,
    anchors,
  }))
const hintArb = fc.option(dayOfMonthArb, { nil: undefined })

describe('nextBillingDate against the oracle (Asia/Tokyo)', () => {
  it('equals the naive day-by-day oracle', () => {
    fc.assert(
      fc.property(instantArb, policyArb, hintArb, (ms, policy, hint) => {
        const opts = hint === undefined ? undefined : { intendedDay: hint }
        expect(nextBillingDate(new Date(ms), policy, TOKYO, opts).getTime()).toBe(
          oracleNext(ms, policy, hint),
        )
      }),
      { numRuns: 4000 },
    )
  })

  it('is strictly after the input and keeps the local time of day', () => {
    fc.assert(
      fc.property(instantArb, policyArb, hintArb, (ms, policy, hint) => {
        const next = nextBillingDate(
          new Date(ms),
          policy,
          TOKYO,
          hint === undefined ? undefined : { intendedDay: hint },
        )
        expect(next.getTime()).toBeGreaterThan(ms)
        expect(oLocal(next.getTime())[1]).toBe(oLocal(ms)[1])
      }),
      { numRuns: 2000 },
    )
  })

  it('a contract walked cycle by cycle advances strictly and matches the oracle at every step', () => {
    fc.assert(
      fc.property(instantArb, policyArb, (start, policy) => {
        const hint = oLocal(start)[0][2] // the contract's intended day: the day it started
        let at = start
        let oracleAt = start
        for (let cycle = 0; cycle < 12; cycle++) {
          const next = nextBillingDate(new Date(at), policy, TOKYO, { intendedDay: hint }).getTime()
          oracleAt = oracleNext(oracleAt, policy, hint)
          expect(next).toBeGreaterThan(at)
          expect(next).toBe(oracleAt)
          at = next
        }
      }),
      { numRuns: 300 },
    )
  })

  it('is monotonic: a later billing day never gives an earlier next billing day', () => {
    fc.assert(
      fc.property(instantArb, instantArb, policyArb, (a, b, policy) => {
        const [early, late] = a <= b ? [a, b] : [b, a]
        const dayOf = (ms: number) => oDays(oLocal(nextBillingDate(new Date(ms), policy, TOKYO).getTime())[0])
        expect(dayOf(early)).toBeLessThanOrEqual(dayOf(late))
      }),
      { numRuns: 1500 },
    )
  })

  it('lands on the anchor: MONTHDAY on min(day, month length), WEEKDAY on that weekday, YEARDAY on its month', () => {
    fc.assert(
      fc.property(instantArb, policyArb, anchorArb, (ms, policy, anchor) => {
        const next = nextBillingDate(new Date(ms), { ...policy, anchors: [anchor] }, TOKYO)
        const [[y, m, d]] = oLocal(next.getTime())
        if (anchor.type === 'WEEKDAY') expect(oWeekday([y, m, d])).toBe(anchor.day)
        else expect(d).toBe(Math.min(anchor.day, oMonthDays(y, m)))
        if (anchor.type === 'YEARDAY') expect(m).toBe(anchor.month)
      }),
      { numRuns: 1500 },
    )
  })

  it('without anchors a MONTH interval of N lands N months later on min(intended day, month length)', () => {
    fc.assert(
      fc.property(instantArb, fc.integer({ min: 1, max: 36 }), dayOfMonthArb, (ms, count, hint) => {
        const next = nextBillingDate(new Date(ms), monthly(count), TOKYO, { intendedDay: hint })
        const [[y0, m0]] = oLocal(ms)
        const [[y, m, d]] = oLocal(next.getTime())
        expect(y * 12 + m - (y0 * 12 + m0)).toBe(count)
        expect(d).toBe(Math.min(hint, oMonthDays(y, m)))
      }),
      { numRuns: 1500 },
    )
  })
})

describe('firstBillingDateAfterOrder against the oracle (Asia/Tokyo)', () => {
  const cutoffAnchorArb: fc.Arbitrary<BillingAnchor> = fc.oneof(
    fc
      .record({
        day: fc.integer({ min: 1, max: 7 }),
        cutoffDay: fc.option(fc.integer({ min: 1, max: 7 }), { nil: null }),
      })
      .map(({ day, cutoffDay }) => ({ type: 'WEEKDAY' as const, day, cutoffDay })),
    fc
      .record({ day: dayOfMonthArb, cutoffDay: fc.option(dayOfMonthArb, { nil: null }) })
      .map(({ day, cutoffDay }) => ({ type: 'MONTHDAY' as const, day, cutoffDay })),
    fc
      .record({ month: fc.integer({ min: 1, max: 12 }), day: dayOfMonthArb })
      .map(({ month, day }) => YEARDAY(month, day)),
  )
  const orderPolicyArb = fc
    .record({
      policy: policyArb,
      anchors: fc.array(cutoffAnchorArb, { maxLength: 2 }),
      cutoff: fc.option(fc.integer({ min: 0, max: 40 }), { nil: null }),
      preAnchorBehavior: fc.constantFrom('ASAP' as const, 'NEXT' as const, null),
    })
    .map(({ policy, anchors, cutoff, preAnchorBehavior }) => ({
      ...policy,
      anchors,
      cutoff,
      preAnchorBehavior,
    }))

  it('equals the oracle and is strictly after the order day', () => {
    fc.assert(
      fc.property(instantArb, orderPolicyArb, (ms, policy) => {
        const first = firstBillingDateAfterOrder(new Date(ms), policy, TOKYO).getTime()
        const [order, time] = oLocal(ms)
        expect(first).toBe(oInstant(oFirstDay(order, policy), time))
        expect(oDays(oLocal(first)[0])).toBeGreaterThan(oDays(order))
      }),
      { numRuns: 3000 },
    )
  })
})

describe('nextBillingDate in America/New_York (DST) against the oracle calendar', () => {
  const wallParts = new Intl.DateTimeFormat('en-US', {
    timeZone: NEW_YORK,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  })
  const wall = (ms: number): { date: Ymd; minutes: number } => {
    const p = Object.fromEntries(wallParts.formatToParts(new Date(ms)).map((x) => [x.type, Number(x.value)]))
    return { date: [p.year, p.month, p.day] as Ymd, minutes: (p.hour as number) * 60 + (p.minute as number) }
  }

  it('lands on the oracle day at the same wall time, or one hour later inside a spring-forward gap', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2040, 0, 1) }).map((ms) => ms - (ms % 60_000)),
        policyArb,
        (ms, policy) => {
          const next = nextBillingDate(new Date(ms), policy, NEW_YORK).getTime()
          const before = wall(ms)
          const after = wall(next)
          expect(next).toBeGreaterThan(ms)
          expect(after.date).toEqual(oNextDay(before.date, policy))
          // US gaps are 02:00-03:00: a wall time in one comes out an hour later, all others equal.
          const inGap = before.minutes >= 120 && before.minutes < 180 && after.minutes === before.minutes + 60
          if (!inGap) expect(after.minutes).toBe(before.minutes)
        },
      ),
      { numRuns: 1500 },
    )
  })
})
