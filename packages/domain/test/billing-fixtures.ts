import {
  type BillingAnchor,
  type BillingSchedulePolicy,
  firstBillingDateAfterOrder,
  firstDeliveryDateAfterOrder,
  nextBillingDate,
} from '../src/index.ts'

// The npm script pins TZ=UTC, so every Asia/Tokyo case only passes if the code ignores the
// process zone. Instants are written as Tokyo wall time: jst('2026-01-31 10:00').
export const TOKYO = 'Asia/Tokyo'
export const NEW_YORK = 'America/New_York'
const JST_MS = 9 * 3_600_000

export const jst = (wall: string): Date => new Date(`${wall.replace(' ', 'T')}:00+09:00`)
export const showJst = (d: Date): string =>
  new Date(d.getTime() + JST_MS).toISOString().slice(0, 16).replace('T', ' ')

export const MONTHDAY = (day: number, cutoffDay?: number): BillingAnchor => ({
  type: 'MONTHDAY',
  day,
  cutoffDay,
})
export const WEEKDAY = (day: number, cutoffDay?: number): BillingAnchor => ({
  type: 'WEEKDAY',
  day,
  cutoffDay,
})
export const YEARDAY = (month: number, day: number): BillingAnchor => ({ type: 'YEARDAY', month, day })
/** "Bill the 1st of every quarter", the platform docs' own scenario: four YEARDAY anchors. */
export const QUARTERS = [YEARDAY(1, 1), YEARDAY(4, 1), YEARDAY(7, 1), YEARDAY(10, 1)]

export const daily = (count: number, anchors: BillingAnchor[] = []): BillingSchedulePolicy => ({
  interval: 'DAY',
  intervalCount: count,
  anchors,
})
export const weekly = (count: number, anchors: BillingAnchor[] = []): BillingSchedulePolicy => ({
  interval: 'WEEK',
  intervalCount: count,
  anchors,
})
export const monthly = (count = 1, anchors: BillingAnchor[] = []): BillingSchedulePolicy => ({
  interval: 'MONTH',
  intervalCount: count,
  anchors,
})
export const yearly = (
  count: number,
  anchors: BillingAnchor[] = [],
  cutoff?: number,
): BillingSchedulePolicy => ({
  interval: 'YEAR',
  intervalCount: count,
  anchors,
  cutoff,
})

/** The billing days a contract walks through from `from`, `cycles` of them. */
export function walk(from: string, policy: BillingSchedulePolicy, cycles: number): string[] {
  const seen: string[] = []
  let at = jst(from)
  for (let i = 0; i < cycles; i++) {
    at = nextBillingDate(at, policy, TOKYO)
    seen.push(showJst(at))
  }
  return seen
}

/** First delivery date and first billing instant of an order placed at Tokyo wall time `order`. */
export const firstOf = (order: string, policy: BillingSchedulePolicy): [string, string] => [
  firstDeliveryDateAfterOrder(jst(order), policy, TOKYO),
  showJst(firstBillingDateAfterOrder(jst(order), policy, TOKYO)),
]
