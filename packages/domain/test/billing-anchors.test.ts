import { describe, expect, it } from 'vitest'
import { type BillingSchedulePolicy, nextBillingDate } from '../src/index.ts'
import {
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

// Several anchors and the first cycle (issue 12 items 1-2, ADR 0009 "Anchors"). Dates are Tokyo
// wall time; weekdays are ISO (1 = Monday). 2026-11-30 is a Monday. Interval counts, refused
// anchors and the switches: billing-anchor-rules.test.ts.

describe('several anchors of one type bill on each of them (item 1)', () => {
  const on10and20 = monthly(1, [MONTHDAY(10), MONTHDAY(20)])
  const monAndThu = weekly(1, [WEEKDAY(1), WEEKDAY(4)])
  it.each<[string, string, BillingSchedulePolicy, string]>([
    ['monthly 10 and 20, from the 10th: the 20th', '2026-01-10 10:00', on10and20, '2026-01-20 10:00'],
    ['monthly 10 and 20, from the 20th: the next 10th', '2026-01-20 10:00', on10and20, '2026-02-10 10:00'],
    [
      'listed 20 then 10: the same days',
      '2026-01-10 10:00',
      monthly(1, [MONTHDAY(20), MONTHDAY(10)]),
      '2026-01-20 10:00',
    ],
    ['weekly Mon+Thu, from Monday: that Thursday', '2026-11-30 10:00', monAndThu, '2026-12-03 10:00'],
    ['weekly Mon+Thu, from Thursday: the next Monday', '2026-12-03 10:00', monAndThu, '2026-12-07 10:00'],
    [
      'weekly Thu+Mon listed backwards',
      '2026-11-30 10:00',
      weekly(1, [WEEKDAY(4), WEEKDAY(1)]),
      '2026-12-03 10:00',
    ],
    // Interval counts: both days of every other week, both days of every third month.
    [
      '2-weekly Mon+Thu, Monday: the same week',
      '2026-11-30 10:00',
      weekly(2, [WEEKDAY(1), WEEKDAY(4)]),
      '2026-12-03 10:00',
    ],
    [
      '2-weekly Mon+Thu, Thursday: skips a week',
      '2026-12-03 10:00',
      weekly(2, [WEEKDAY(1), WEEKDAY(4)]),
      '2026-12-14 10:00',
    ],
    [
      '3-monthly 1 and 15, the 1st',
      '2026-01-01 10:00',
      monthly(3, [MONTHDAY(1), MONTHDAY(15)]),
      '2026-01-15 10:00',
    ],
    [
      '3-monthly 1 and 15, the 15th',
      '2026-01-15 10:00',
      monthly(3, [MONTHDAY(1), MONTHDAY(15)]),
      '2026-04-01 10:00',
    ],
    [
      '2-monthly 10 and 20 over the year end',
      '2026-11-20 10:00',
      monthly(2, [MONTHDAY(10), MONTHDAY(20)]),
      '2027-01-10 10:00',
    ],
    // Short months: a day 29-31 lands on the month's last day, and the intended day comes back.
    [
      '15 and 31: 15 Feb -> 28 Feb',
      '2026-02-15 10:00',
      monthly(1, [MONTHDAY(15), MONTHDAY(31)]),
      '2026-02-28 10:00',
    ],
    [
      '15 and 31: 28 Feb -> 15 Mar',
      '2026-02-28 10:00',
      monthly(1, [MONTHDAY(15), MONTHDAY(31)]),
      '2026-03-15 10:00',
    ],
    [
      '15 and 31: 15 Mar -> 31 Mar',
      '2026-03-15 10:00',
      monthly(1, [MONTHDAY(15), MONTHDAY(31)]),
      '2026-03-31 10:00',
    ],
    [
      '15 and 31: 15 Apr -> 30 Apr',
      '2026-04-15 10:00',
      monthly(1, [MONTHDAY(15), MONTHDAY(31)]),
      '2026-04-30 10:00',
    ],
    [
      '30 and 31 share 28 Feb: billed once',
      '2026-02-28 10:00',
      monthly(1, [MONTHDAY(30), MONTHDAY(31)]),
      '2026-03-30 10:00',
    ],
    [
      '30 and 31 in a leap year: 29 Feb',
      '2028-01-31 10:00',
      monthly(1, [MONTHDAY(30), MONTHDAY(31)]),
      '2028-02-29 10:00',
    ],
    [
      '29, 30, 31: after 28 Feb 2027 the 29th',
      '2027-02-28 10:00',
      monthly(1, [MONTHDAY(29), MONTHDAY(31)]),
      '2027-03-29 10:00',
    ],
    [
      'a duplicate anchor bills once',
      '2026-01-15 10:00',
      monthly(1, [MONTHDAY(15), MONTHDAY(15)]),
      '2026-02-15 10:00',
    ],
    // YEARDAY lists: the docs' "bill the 1st of every quarter".
    ['quarters: 1 Jan -> 1 Apr', '2026-01-01 10:00', yearly(1, QUARTERS), '2026-04-01 10:00'],
    ['quarters: 1 Oct -> 1 Jan', '2026-10-01 10:00', yearly(1, QUARTERS), '2027-01-01 10:00'],
    [
      'quarters every 2 years: 1 Oct 2026 -> 1 Jan 2028',
      '2026-10-01 10:00',
      yearly(2, QUARTERS),
      '2028-01-01 10:00',
    ],
    [
      '29 Feb and 1 Mar, 2027: 28 Feb -> 1 Mar',
      '2027-02-28 10:00',
      yearly(1, [YEARDAY(2, 29), YEARDAY(3, 1)]),
      '2027-03-01 10:00',
    ],
    [
      '29 Feb and 1 Mar: 1 Mar 2027 -> 29 Feb 2028',
      '2027-03-01 10:00',
      yearly(1, [YEARDAY(2, 29), YEARDAY(3, 1)]),
      '2028-02-29 10:00',
    ],
    [
      '28 and 29 Feb share 28 Feb in 2027',
      '2027-02-28 10:00',
      yearly(1, [YEARDAY(2, 28), YEARDAY(2, 29)]),
      '2028-02-28 10:00',
    ],
    [
      '28 and 29 Feb are two days in 2028',
      '2028-02-28 10:00',
      yearly(1, [YEARDAY(2, 28), YEARDAY(2, 29)]),
      '2028-02-29 10:00',
    ],
    // A billing moved by hand off the anchors belongs to the last anchor day on or before it in
    // its period (or the period's first): the schedule carries on, it does not shift.
    ['10 and 20, moved to the 15th', '2026-01-15 10:00', on10and20, '2026-01-20 10:00'],
    ['10 and 20, moved to the 5th', '2026-01-05 10:00', on10and20, '2026-01-20 10:00'],
    ['10 and 20, moved to the 25th', '2026-01-25 10:00', on10and20, '2026-02-10 10:00'],
    ['Mon+Thu, moved to Saturday', '2026-12-05 10:00', monAndThu, '2026-12-07 10:00'],
    // The Tokyo date counts: 00:00 JST Monday is Sunday in UTC.
    ['00:00 JST Monday, Mon+Thu', '2026-11-30 00:00', monAndThu, '2026-12-03 00:00'],
  ])('%s: %s -> %s', (_label, billedAt, policy, expected) => {
    expect(showJst(nextBillingDate(jst(billedAt), policy, TOKYO))).toBe(expected)
  })

  it('a contract on the 10th and the 20th, ordered on 4 February 2026 with NEXT, bills as the platform showed', () => {
    // community.shopify.dev/t/29234: delivery on 10 Feb, then cycles billed 20 Feb, 10 Mar,
    // 20 Mar, 10 Apr, 20 Apr (the thread's zero-length second cycle is the platform's own bug).
    const policy: BillingSchedulePolicy = { ...on10and20, preAnchorBehavior: 'NEXT' }
    expect(firstOf('2026-02-04 10:21', policy)).toEqual(['2026-02-10', '2026-02-20 10:21'])
    expect(walk('2026-02-20 10:00', policy, 4)).toEqual([
      '2026-03-10 10:00',
      '2026-03-20 10:00',
      '2026-04-10 10:00',
      '2026-04-20 10:00',
    ])
  })

  it('a whole year of a 15th-and-last-day plan bills on both days of every month', () => {
    const days = walk('2025-12-31 10:00', monthly(1, [MONTHDAY(15), MONTHDAY(31)]), 24).map((d) =>
      d.slice(0, 10),
    )
    expect(days.filter((d) => d.endsWith('-15'))).toHaveLength(12)
    expect(days.slice(2, 6)).toEqual(['2026-02-15', '2026-02-28', '2026-03-15', '2026-03-31'])
    expect(days.at(-1)).toBe('2026-12-31')
  })
})

describe("the platform's worked example, anchor = the 15th, monthly (item 2)", () => {
  const on15 = monthly(1, [MONTHDAY(15)])
  // [row, order, policy, first delivery, first billing]
  it.each<[string, string, BillingSchedulePolicy, string, string]>([
    ['order on the anchor day, ASAP', '2023-01-15 10:00', on15, '2023-01-15', '2023-02-15 10:00'],
    [
      'order on the anchor day, NEXT',
      '2023-01-15 10:00',
      { ...on15, preAnchorBehavior: 'NEXT' },
      '2023-01-15',
      '2023-02-15 10:00',
    ],
    // The anchor day itself is never inside a cutoff.
    [
      'order on the anchor day, NEXT, cutoff 5',
      '2023-01-15 10:00',
      { ...on15, cutoff: 5, preAnchorBehavior: 'NEXT' },
      '2023-01-15',
      '2023-02-15 10:00',
    ],
    [
      'order on the anchor day, ASAP, cutoff 5',
      '2023-01-15 10:00',
      { ...on15, cutoff: 5 },
      '2023-01-15',
      '2023-02-15 10:00',
    ],
    [
      'order 12th, cutoff 0, ASAP',
      '2023-01-12 10:00',
      { ...on15, cutoff: 0 },
      '2023-01-12',
      '2023-01-15 10:00',
    ],
    ['order 12th, no cutoff, ASAP', '2023-01-12 10:00', on15, '2023-01-12', '2023-01-15 10:00'],
    // Inside the cutoff, ASAP delivers on the anchor it skips and bills on the next one.
    [
      'order 12th, cutoff 5, ASAP',
      '2023-01-12 10:00',
      { ...on15, cutoff: 5 },
      '2023-01-15',
      '2023-02-15 10:00',
    ],
    [
      'order 12th, cutoff 5, NEXT',
      '2023-01-12 10:00',
      { ...on15, cutoff: 5, preAnchorBehavior: 'NEXT' },
      '2023-02-15',
      '2023-03-15 10:00',
    ],
    [
      'order 12th, no cutoff, NEXT',
      '2023-01-12 10:00',
      { ...on15, preAnchorBehavior: 'NEXT' },
      '2023-01-15',
      '2023-02-15 10:00',
    ],
    // 00:30 JST on the 15th is still the 14th in UTC: the anchor day is the Tokyo one.
    ['order at 00:30 JST on the anchor day', '2023-01-15 00:30', on15, '2023-01-15', '2023-02-15 00:30'],
  ])('%s', (_label, order, policy, delivery, billing) => {
    expect(firstOf(order, policy)).toEqual([delivery, billing])
  })
})

describe('the platform as developers observed it', () => {
  // community.shopify.com/t/110761: weekly plans, one per weekday, all ordered on Thursday
  // 31 March 2022, ASAP; the thread's table of first fulfilment and nextBillingDate.
  it.each<[number, number, string, string]>([
    [7, 1, '2022-04-04', '2022-04-11'],
    [7, 2, '2022-04-05', '2022-04-12'],
    [7, 3, '2022-04-06', '2022-04-13'],
    [7, 4, '2022-03-31', '2022-04-07'], // ordered on the anchor day
    [7, 5, '2022-04-01', '2022-04-08'],
    [7, 6, '2022-04-02', '2022-04-09'],
    [7, 7, '2022-04-03', '2022-04-10'],
    [5, 1, '2022-04-04', '2022-04-11'],
    [5, 2, '2022-03-31', '2022-04-05'], // exactly 5 days before: outside the cutoff
    [5, 3, '2022-03-31', '2022-04-06'],
    [5, 4, '2022-03-31', '2022-04-07'],
    [5, 5, '2022-04-01', '2022-04-08'],
  ])('cutoff %i, weekday %i: delivered %s, billed %s', (cutoff, day, delivery, billing) => {
    const policy = { ...weekly(1, [WEEKDAY(day)]), cutoff }
    expect(firstOf('2022-03-31 10:00', policy)).toEqual([delivery, `${billing} 10:00`])
  })
})
