import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { firstAnchoredDays, nextAnchoredDay } from '../src/billing/anchor-cycles.ts'
import { formatCalendarDate } from '../src/billing/calendar.ts'
import {
  type BillingSchedulePolicy,
  firstBillingDateAfterOrder,
  firstDeliveryDateAfterOrder,
  nextBillingDate,
} from '../src/index.ts'
import { monthly, NEW_YORK, TOKYO } from './billing-fixtures.ts'
import {
  anchorArb,
  DAY_MS,
  dayOfMonthArb,
  hintArb,
  instantArb,
  oAnchorDaysOfPeriod,
  oDate,
  oDays,
  oFirstDays,
  oInstant,
  oIsAnchorDay,
  oLegacyNextDay,
  oLocal,
  oMonthDays,
  oNextDay,
  oracleNext,
  oText,
  oWeekday,
  policyArb,
  type Rules,
  type Ymd,
} from './billing-oracle.ts'

// Properties of the billing schedule against the naive oracle of billing-oracle.ts (ADR 0009).

const next = (ms: number, policy: BillingSchedulePolicy, hint?: number): number =>
  nextBillingDate(
    new Date(ms),
    policy,
    TOKYO,
    hint === undefined ? undefined : { intendedDay: hint },
  ).getTime()
const localDay = (ms: number): Ymd => oLocal(ms)[0]
const ymdText = oText
const anchoredArb = policyArb({ minAnchors: 1, maxAnchors: 4 })
const weekday = (day: number) => ({ type: 'WEEKDAY' as const, day })

/** Whether two instants' local days lie in periods a multiple of the interval count apart. */
function samePhase(a: number, b: number, policy: BillingSchedulePolicy): boolean {
  const periodOf = (ms: number): number => {
    const [y, m] = localDay(ms)
    if (policy.interval === 'WEEK') return Math.floor((oDays(localDay(ms)) - oDays([2000, 1, 3])) / 7)
    return policy.interval === 'MONTH' ? y * 12 + m : y
  }
  return (periodOf(a) - periodOf(b)) % policy.intervalCount === 0
}

describe('nextBillingDate against the oracle (Asia/Tokyo)', () => {
  it('equals the naive day-by-day oracle, with 0 to 4 anchors', () => {
    fc.assert(
      fc.property(instantArb, policyArb({ maxAnchors: 4 }), hintArb, (ms, policy, hint) => {
        expect(next(ms, policy, hint)).toBe(oracleNext(ms, policy, hint))
      }),
      { numRuns: 4000 },
    )
  })

  it('is strictly after the input and keeps the local time of day', () => {
    fc.assert(
      fc.property(instantArb, policyArb(), hintArb, (ms, policy, hint) => {
        const result = next(ms, policy, hint)
        expect(result).toBeGreaterThan(ms)
        expect(oLocal(result)[1]).toBe(oLocal(ms)[1])
      }),
      { numRuns: 2000 },
    )
  })

  it('a contract walked cycle by cycle advances strictly and matches the oracle at every step', () => {
    fc.assert(
      fc.property(instantArb, policyArb(), (start, policy) => {
        const hint = localDay(start)[2] // the contract's intended day: the day it started
        let at = start
        let oracleAt = start
        for (let cycle = 0; cycle < 12; cycle++) {
          const result = next(at, policy, hint)
          oracleAt = oracleNext(oracleAt, policy, hint)
          expect(result).toBeGreaterThan(at)
          expect(result).toBe(oracleAt)
          at = result
        }
      }),
      { numRuns: 300 },
    )
  })

  it('is monotonic: a later billing day never gives an earlier next billing day', () => {
    // Holds for every policy with one anchor or an interval count of 1. With several anchors and
    // N > 1 a billing starts the count of its own period (ADR 0009), so monotonicity holds among
    // billings of the same phase: periods a multiple of N apart (samePhase below).
    const phase = fc
      .tuple(instantArb, instantArb, fc.integer({ min: 0, max: 800 }), policyArb({ maxAnchors: 4 }))
      .map(([a, b, days, p]) => {
        const isPhased = p.intervalCount > 1 && p.anchors.length > 1
        return [a, isPhased ? a + days * DAY_MS : b, p] as const
      })
      .filter(([a, b, p]) => p.intervalCount === 1 || p.anchors.length <= 1 || samePhase(a, b, p))
    fc.assert(
      fc.property(phase, ([a, b, policy]) => {
        const [early, late] = a <= b ? [a, b] : [b, a]
        const dayOf = (ms: number) => oDays(localDay(next(ms, policy)))
        expect(dayOf(early)).toBeLessThanOrEqual(dayOf(late))
      }),
      { numRuns: 1500 },
    )
  })

  it('several anchors with N > 1: billings in periods that are not a multiple of N apart may cross', () => {
    // 2-weekly Monday and Thursday: Monday of week 1 bills that Thursday, before the Monday of
    // week 3 that Thursday of week 0 bills next. What the monotonicity property above leaves out.
    const policy = { interval: 'WEEK' as const, intervalCount: 2, anchors: [1, 4].map(weekday) }
    const thursday = oInstant([2026, 12, 3], 36_000_000)
    const nextMonday = oInstant([2026, 12, 7], 36_000_000)
    expect(next(thursday, policy)).toBe(oInstant([2026, 12, 14], 36_000_000))
    expect(next(nextMonday, policy)).toBe(oInstant([2026, 12, 10], 36_000_000))
  })

  it('lands on an anchor day: MONTHDAY on min(day, month length), WEEKDAY on that weekday, YEARDAY in its month', () => {
    fc.assert(
      fc.property(instantArb, anchoredArb, (ms, policy) => {
        const [y, m, d] = localDay(next(ms, policy))
        const hits = policy.anchors.filter((a) =>
          a.type === 'WEEKDAY'
            ? oWeekday([y, m, d]) === a.day
            : d === Math.min(a.day, oMonthDays(y, m)) && (a.type === 'MONTHDAY' || m === a.month),
        )
        expect(hits.length).toBeGreaterThan(0)
      }),
      { numRuns: 1500 },
    )
  })

  it('with an interval count of 1, every anchor bills: a whole period is billed on each of its anchor days', () => {
    fc.assert(
      fc.property(instantArb, anchoredArb, (ms, many) => {
        const policy = { ...many, intervalCount: 1 }
        const daysOf = (at: number) => oAnchorDaysOfPeriod(localDay(at), policy.interval, policy.anchors)
        // Leave the period of the first billing, then collect the billings of the next one.
        let at = next(ms, policy)
        const first = daysOf(at)
        for (let i = 0; first.includes(ymdText(localDay(at))); i++) {
          expect(i).toBeLessThan(first.length) // a schedule that stops advancing fails, not hangs
          at = next(at, policy)
        }
        const whole = daysOf(at)
        const billed: string[] = []
        for (let i = 0; i < whole.length; i++, at = next(at, policy)) billed.push(ymdText(localDay(at)))
        expect(billed).toEqual(whole)
        expect(whole).not.toContain(ymdText(localDay(at)))
      }),
      { numRuns: 800 },
    )
  })

  it('with one anchor agrees with the old rule, except a weekly billing moved past its weekday (ADR 0009)', () => {
    fc.assert(
      fc.property(instantArb, anchoredArb, (ms, policy) => {
        const one = { ...policy, anchors: policy.anchors.slice(0, 1) }
        const anchor = one.anchors[0]
        const [date, time] = oLocal(ms)
        if (one.interval === 'WEEK' && anchor && oWeekday(date) > anchor.day) return
        expect(next(ms, one)).toBe(oInstant(oLegacyNextDay(date, one), time))
      }),
      { numRuns: 2000 },
    )
  })

  it('without anchors a MONTH interval of N lands N months later on min(intended day, month length)', () => {
    fc.assert(
      fc.property(instantArb, fc.integer({ min: 1, max: 36 }), dayOfMonthArb, (ms, count, hint) => {
        const [y0, m0] = localDay(ms)
        const [y, m, d] = localDay(next(ms, monthly(count), hint))
        expect(y * 12 + m - (y0 * 12 + m0)).toBe(count)
        expect(d).toBe(Math.min(hint, oMonthDays(y, m)))
      }),
      { numRuns: 1500 },
    )
  })
})

describe('the first cycle after an order against the oracle (Asia/Tokyo)', () => {
  const orderPolicyArb = fc
    .record({
      policy: policyArb({ maxAnchors: 3, withCutoffDay: true }),
      cutoff: fc.option(fc.integer({ min: 0, max: 40 }), { nil: null }),
      preAnchorBehavior: fc.constantFrom('ASAP' as const, 'NEXT' as const, null),
    })
    .map(({ policy, cutoff, preAnchorBehavior }) => ({ ...policy, cutoff, preAnchorBehavior }))

  it('first delivery and billing equal the oracle; order <= delivery < billing', () => {
    fc.assert(
      fc.property(instantArb, orderPolicyArb, (ms, policy) => {
        const billing = firstBillingDateAfterOrder(new Date(ms), policy, TOKYO).getTime()
        const delivery = firstDeliveryDateAfterOrder(new Date(ms), policy, TOKYO)
        const [order, time] = oLocal(ms)
        const expected = oFirstDays(order, policy)
        expect(billing).toBe(oInstant(expected.billing, time))
        expect(delivery).toBe(ymdText(expected.delivery))
        expect(oDays(localDay(billing))).toBeGreaterThan(oDays(order))
        expect(delivery >= ymdText(order) && delivery < ymdText(localDay(billing))).toBe(true)
      }),
      { numRuns: 3000 },
    )
  })
})

describe('both settings of each switch against the oracle', () => {
  const rulesArb: fc.Arbitrary<Rules> = fc.record({
    severalAnchors: fc.constantFrom('EVERY_ANCHOR' as const, 'FIRST_ANCHOR' as const),
    firstCycleWithCount: fc.constantFrom('COUNT_FROM_NEXT_ANCHOR' as const, 'NEXT_ANCHOR' as const),
  })
  const dayArb = fc.integer({ min: oDays([2000, 1, 1]), max: oDays([2149, 12, 31]) }).map(oDate)
  const calendar = ([year, month, day]: Ymd) => ({ year, month, day })

  it('nextAnchoredDay and firstAnchoredDays follow the rules they are given', () => {
    fc.assert(
      fc.property(dayArb, anchoredArb, rulesArb, fc.boolean(), (date, policy, rules, isNext) => {
        const withOrder = { ...policy, preAnchorBehavior: isNext ? ('NEXT' as const) : null }
        expect(formatCalendarDate(nextAnchoredDay(calendar(date), policy, rules))).toBe(
          ymdText(oNextDay(date, policy, undefined, rules)),
        )
        const first = firstAnchoredDays(calendar(date), withOrder, rules)
        const expected = oFirstDays(date, withOrder, rules)
        expect([formatCalendarDate(first.delivery), formatCalendarDate(first.billing)]).toEqual([
          ymdText(expected.delivery),
          ymdText(expected.billing),
        ])
      }),
      { numRuns: 1500 },
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
        policyArb(),
        (ms, policy) => {
          const result = nextBillingDate(new Date(ms), policy, NEW_YORK).getTime()
          const before = wall(ms)
          const after = wall(result)
          expect(result).toBeGreaterThan(ms)
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

// Keeps the generators honest: every generated anchor is one the domain accepts as a day.
it('the oracle and the generators agree on what an anchor day is', () => {
  fc.assert(
    fc.property(fc.constantFrom('WEEK' as const, 'MONTH' as const, 'YEAR' as const), (interval) => {
      fc.assert(
        fc.property(anchorArb(interval), instantArb, (anchor, ms) => {
          const day = localDay(next(ms, { interval, intervalCount: 1, anchors: [anchor] }))
          expect(oIsAnchorDay([anchor], day)).toBe(true)
        }),
        { numRuns: 100 },
      )
    }),
    { numRuns: 3 },
  )
})
