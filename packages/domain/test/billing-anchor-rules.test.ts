import { describe, expect, it } from 'vitest'
import { firstAnchoredDays, nextAnchoredDay } from '../src/billing/anchor-cycles.ts'
import type { AnchorRules } from '../src/billing/anchor-rules.ts'
import { formatCalendarDate, parseCalendarDate } from '../src/billing/calendar.ts'
import {
  type BillingAnchor,
  type BillingSchedulePolicy,
  firstBillingDateAfterOrder,
  firstDeliveryDateAfterOrder,
  nextBillingDate,
} from '../src/index.ts'
import {
  daily,
  firstOf,
  jst,
  MONTHDAY,
  monthly,
  QUARTERS,
  showJst,
  TOKYO,
  WEEKDAY,
  walk,
  weekly,
  YEARDAY,
  yearly,
} from './billing-fixtures.ts'

// Interval counts above 1, refused anchors and the switches of anchor-rules.ts (issue 12 items
// 3-4, ADR 0009 "Anchors"). Dates are Tokyo wall time; weekdays are ISO (1 = Monday).

describe('interval counts above 1 with anchors (item 3)', () => {
  const biweeklyMonday = { ...weekly(2, [WEEKDAY(1)]), cutoff: 0 }
  const quarterlyOn1st = monthly(3, [MONTHDAY(1)])
  it.each<[string, string, BillingSchedulePolicy, string, string]>([
    // community.shopify.com/t/571017: every 2 weeks on Monday, ASAP, cutoff 0, ordered on
    // Thursday 16 October 2025: the platform bills on the second Monday, 27 October.
    [
      '2-weekly Monday, ordered Thursday',
      '2025-10-16 10:00',
      biweeklyMonday,
      '2025-10-16',
      '2025-10-27 10:00',
    ],
    [
      '2-weekly Monday, ordered on a Monday',
      '2025-10-13 10:00',
      biweeklyMonday,
      '2025-10-13',
      '2025-10-27 10:00',
    ],
    ['2-weekly Monday, ordered Sunday', '2025-10-19 10:00', biweeklyMonday, '2025-10-19', '2025-10-27 10:00'],
    ['3-monthly 1st, ordered 20 Jan', '2026-01-20 10:00', quarterlyOn1st, '2026-01-20', '2026-04-01 10:00'],
    ['3-monthly 1st, ordered on 1 Jan', '2026-01-01 10:00', quarterlyOn1st, '2026-01-01', '2026-04-01 10:00'],
    ['3-monthly 1st, ordered 31 Dec', '2025-12-31 10:00', quarterlyOn1st, '2025-12-31', '2026-03-01 10:00'],
    [
      '3-monthly 1st, NEXT',
      '2026-01-20 10:00',
      { ...quarterlyOn1st, preAnchorBehavior: 'NEXT' },
      '2026-02-01',
      '2026-05-01 10:00',
    ],
    [
      '2-weekly Mon+Thu, ordered Tuesday',
      '2026-12-01 10:00',
      weekly(2, [WEEKDAY(1), WEEKDAY(4)]),
      '2026-12-01',
      '2026-12-10 10:00',
    ],
    [
      '2-monthly 10 and 20, ordered 12 Jan',
      '2026-01-12 10:00',
      monthly(2, [MONTHDAY(10), MONTHDAY(20)]),
      '2026-01-12',
      '2026-02-20 10:00',
    ],
    [
      '2-monthly 31st, ordered 2 Feb',
      '2026-02-02 10:00',
      monthly(2, [MONTHDAY(31)]),
      '2026-02-02',
      '2026-03-31 10:00',
    ],
  ])('%s', (_label, order, policy, delivery, billing) => {
    expect(firstOf(order, policy)).toEqual([delivery, billing])
  })

  it.each<[string, string, BillingSchedulePolicy, string[]]>([
    ['2-weekly Monday', '2025-10-27 10:00', biweeklyMonday, ['2025-11-10 10:00', '2025-11-24 10:00']],
    [
      '3-monthly 1st',
      '2026-04-01 10:00',
      quarterlyOn1st,
      ['2026-07-01 10:00', '2026-10-01 10:00', '2027-01-01 10:00'],
    ],
    [
      '2-weekly Mon+Thu',
      '2026-12-10 10:00',
      weekly(2, [WEEKDAY(1), WEEKDAY(4)]),
      ['2026-12-21 10:00', '2026-12-24 10:00', '2027-01-04 10:00'],
    ],
    [
      '2-monthly 10 and 20',
      '2026-02-20 10:00',
      monthly(2, [MONTHDAY(10), MONTHDAY(20)]),
      ['2026-04-10 10:00', '2026-04-20 10:00', '2026-06-10 10:00'],
    ],
  ])('%s: the cycles after %s', (_label, from, policy, expected) => {
    expect(walk(from, policy, expected.length)).toEqual(expected)
  })
})

describe('impossible anchors are refused, not clamped (item 4)', () => {
  const at = jst('2026-01-01 10:00')
  it.each<[string, BillingSchedulePolicy]>([
    ['YEARDAY 30 February', yearly(1, [YEARDAY(2, 30)])],
    ['YEARDAY 31 February', yearly(1, [YEARDAY(2, 31)])],
    ['YEARDAY 31 April', yearly(1, [YEARDAY(4, 31)])],
    ['YEARDAY 31 June', yearly(1, [YEARDAY(6, 31)])],
    ['YEARDAY 31 September', yearly(1, [YEARDAY(9, 31)])],
    ['YEARDAY 31 November', yearly(1, [YEARDAY(11, 31)])],
    ['YEARDAY 32 January', yearly(1, [YEARDAY(1, 32)])],
    ['an impossible one among valid ones', yearly(1, [...QUARTERS, YEARDAY(4, 31)])],
    ['WEEKDAY 8', weekly(1, [WEEKDAY(1), WEEKDAY(8)])],
    ['WEEKDAY 0', weekly(1, [WEEKDAY(0)])],
    ['MONTHDAY 32', monthly(1, [MONTHDAY(10), MONTHDAY(32)])],
    ['MONTHDAY 0', monthly(1, [MONTHDAY(0)])],
    ['MONTHDAY 1.5', monthly(1, [MONTHDAY(1.5)])],
    // An anchor of another type than the interval's has no meaning on the platform's cycles.
    ['MONTHDAY on a weekly plan', weekly(1, [MONTHDAY(15)])],
    ['WEEKDAY on a monthly plan', monthly(1, [WEEKDAY(1)])],
    ['YEARDAY quarters on a 3-monthly plan', monthly(3, QUARTERS)],
    ['MONTHDAY on a yearly plan', yearly(1, [MONTHDAY(1)])],
    ['mixed types on a monthly plan', monthly(1, [MONTHDAY(1), WEEKDAY(1)])],
    ['any anchor on a daily plan', daily(10, [WEEKDAY(1)])],
  ])('%s', (_label, policy) => {
    expect(() => nextBillingDate(at, policy, TOKYO)).toThrow(RangeError)
    expect(() => firstBillingDateAfterOrder(at, policy, TOKYO)).toThrow(RangeError)
    expect(() => firstDeliveryDateAfterOrder(at, policy, TOKYO)).toThrow(RangeError)
  })

  it.each<[string, BillingAnchor, string, string]>([
    // 29 February is a real day: it bills on 28 February in common years (ADR 0009).
    ['29 February', YEARDAY(2, 29), '2026-03-01 10:00', '2027-02-28 10:00'],
    ['30 April', YEARDAY(4, 30), '2026-05-01 10:00', '2027-04-30 10:00'],
    ['31 December', YEARDAY(12, 31), '2025-12-31 10:00', '2026-12-31 10:00'],
  ])('YEARDAY %s is accepted', (_label, anchor, billedAt, expected) => {
    expect(showJst(nextBillingDate(jst(billedAt), yearly(1, [anchor]), TOKYO))).toBe(expected)
  })
})

describe('the switches of anchor-rules.ts, set the other way', () => {
  const day = (text: string) => parseCalendarDate(text)
  const first: AnchorRules = { severalAnchors: 'FIRST_ANCHOR', firstCycleWithCount: 'COUNT_FROM_NEXT_ANCHOR' }
  const nextAnchor: AnchorRules = { severalAnchors: 'EVERY_ANCHOR', firstCycleWithCount: 'NEXT_ANCHOR' }

  it('FIRST_ANCHOR bills on the first listed anchor only', () => {
    const show = (from: string, anchors: BillingAnchor[]) =>
      formatCalendarDate(nextAnchoredDay(day(from), monthly(1, anchors), first))
    expect(show('2026-01-10', [MONTHDAY(10), MONTHDAY(20)])).toBe('2026-02-10')
    expect(show('2026-01-20', [MONTHDAY(20), MONTHDAY(10)])).toBe('2026-02-20')
    const order = firstAnchoredDays(day('2026-01-12'), monthly(1, [MONTHDAY(20), MONTHDAY(14)]), first)
    expect(formatCalendarDate(order.billing)).toBe('2026-01-20')
  })

  it('NEXT_ANCHOR bills an ASAP order on the next anchor whatever the interval count', () => {
    const biweekly = { ...weekly(2, [WEEKDAY(1)]), cutoff: 0 }
    expect(formatCalendarDate(firstAnchoredDays(day('2025-10-16'), biweekly, nextAnchor).billing)).toBe(
      '2025-10-20',
    )
    // NEXT orders are billed one cycle after delivery either way.
    const next = { ...monthly(3, [MONTHDAY(1)]), preAnchorBehavior: 'NEXT' as const }
    expect(formatCalendarDate(firstAnchoredDays(day('2026-01-20'), next, nextAnchor).billing)).toBe(
      '2026-05-01',
    )
  })
})
