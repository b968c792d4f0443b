import { describe, expect, it } from 'vitest'
import {
  addCalendarDays,
  type BillingSchedulePolicy,
  deliveryDateFor,
  firstBillingDateAfterOrder,
  nextBillingDate,
  nextCycleIndex,
} from '../src/index.ts'
import {
  daily,
  jst,
  MONTHDAY,
  monthly,
  NEW_YORK,
  showJst,
  TOKYO,
  WEEKDAY,
  weekly,
  YEARDAY,
  yearly,
} from './billing-fixtures.ts'

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
    // One anchor with an interval count: that anchor's day, N intervals on (several: billing-anchors).
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
    // Days.
    ['DAY 10', '2026-02-25 10:00', daily(10), undefined, '2026-03-07 10:00'],
    ['DAY 10 in a leap year', '2028-02-25 10:00', daily(10), undefined, '2028-03-06 10:00'],
    ['DAY 1 at the year end', '2026-12-31 23:59', daily(1), undefined, '2027-01-01 23:59'],
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
