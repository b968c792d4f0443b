import { toZonedDate } from '../format/dates.ts'
import { roundMinor } from '../format/money.ts'
import { eachDay } from './report-dates.ts'

/**
 * The report measures, defined once (docs/analytics.md says the same in words). Every measure
 * is a fact of the append-only history dated by when it happened, counted on the shop-local
 * day it happened on, so a past day's figure never changes because a contract changes today.
 * The server keeps these per day in rollup tables (migration 0018, the same rules in SQL); the
 * tests hold the two equal on generated histories.
 *
 * - new: a contract's `created` event (the platform's createdAt of the contract).
 * - cancelled / paused: a `status_changed` event whose `to` is CANCELLED / PAUSED (paused and
 *   resumed on one day counts one pause; cancelled and reactivated counts one cancellation).
 * - payment failed: a `billing_failed` event (one per failed charge attempt), plus a contract
 *   first seen already FAILED (its inferred move: the platform did not tell its attempts).
 * - active on a day: contracts in ACTIVE at the end of that day = created + moves into ACTIVE −
 *   moves out of ACTIVE, summed over every day up to it.
 * - subtotal: the total of the orders of contracts (the checkout and every billing), per
 *   currency (never mixed), less what has been refunded of them, on the day the order was
 *   created (a refund made later lowers its order's day, ADR 0023); cancelled orders excluded,
 *   and test orders too but in a shop flagged test_shop (a development store).
 *
 * The same order amount, net of refunds (`netAmount`), is what LTV sums (cdp/ltv.ts): a range's
 * subtotal and the range's LTV of every customer add up to the same figure.
 */

export type HistoryEvent = {
  contractId: string
  type: string
  occurredAt: string | Date
  payload?: { from?: string; to?: string; inferred?: boolean }
}

export type OrderFact = {
  contractId: string | null
  createdAt: string | Date
  currencyCode: string
  amount: number
  /** Refunded of it so far (the platform's totalRefundedSet, major units); absent or 0 when none. */
  refunded?: number
  test: boolean
  cancelledAt: string | Date | null
}

export type DayMeasures = {
  created: number
  cancelled: number
  paused: number
  failed: number
  activeDelta: number
}

export const emptyDay = (): DayMeasures => ({
  created: 0,
  cancelled: 0,
  paused: 0,
  failed: 0,
  activeDelta: 0,
})

/** What one history event adds to its day's measures (all zero for events no measure reads). */
export function eventMeasures(event: HistoryEvent): DayMeasures {
  const m = emptyDay()
  const to = event.payload?.to
  if (event.type === 'created') {
    m.created = 1
    m.activeDelta = 1
  } else if (event.type === 'status_changed') {
    if (to === 'CANCELLED') m.cancelled = 1
    if (to === 'PAUSED') m.paused = 1
    if (to === 'FAILED' && event.payload?.inferred === true) m.failed = 1
    if (to === 'ACTIVE') m.activeDelta += 1
    if (event.payload?.from === 'ACTIVE') m.activeDelta -= 1
  } else if (event.type === 'billing_failed') {
    m.failed = 1
  }
  return m
}

/**
 * True when the order counts for sales and persistence. Test orders count only in a shop
 * flagged as a test shop (spec §6: a development store, where every order is a test order).
 */
export const isCountedOrder = (
  o: Pick<OrderFact, 'contractId' | 'test' | 'cancelledAt'>,
  includeTest = false,
): boolean => o.contractId !== null && (includeTest || !o.test) && o.cancelledAt === null

/**
 * What an order brings in: its total less its refunds (partial or full), whenever they were
 * made. A full refund brings it to 0 but the order still counts as placed (a cancellation does
 * not: isCountedOrder).
 */
export const netAmount = (o: Pick<OrderFact, 'amount' | 'refunded'>): number => o.amount - (o.refunded ?? 0)

/** Per shop-local day measures of a history (days without facts are absent). */
export function dailyMeasures(events: HistoryEvent[], timeZone: string): Map<string, DayMeasures> {
  const days = new Map<string, DayMeasures>()
  for (const event of events) {
    const day = toZonedDate(event.occurredAt, timeZone)
    const m = days.get(day) ?? emptyDay()
    const add = eventMeasures(event)
    m.created += add.created
    m.cancelled += add.cancelled
    m.paused += add.paused
    m.failed += add.failed
    m.activeDelta += add.activeDelta
    days.set(day, m)
  }
  return days
}

/** Per day and currency sales (`day|currency` → amount and order count) of counted orders. */
export function dailySales(
  orders: OrderFact[],
  timeZone: string,
  includeTest = false,
): Map<string, { amount: number; orders: number }> {
  const sales = new Map<string, { amount: number; orders: number }>()
  for (const o of orders) {
    if (!isCountedOrder(o, includeTest)) continue
    const key = `${toZonedDate(o.createdAt, timeZone)}|${o.currencyCode}`
    const s = sales.get(key) ?? { amount: 0, orders: 0 }
    s.amount = roundMinor(s.amount + netAmount(o), o.currencyCode)
    s.orders += 1
    sales.set(key, s)
  }
  return sales
}

export type CountMeasure = 'created' | 'cancelled' | 'paused' | 'failed'
export type DailyCount = { date: string; count: number }

/** A count measure for every day of the range (0 on days without facts). */
export function dailySeries(
  days: Map<string, DayMeasures>,
  measure: CountMeasure,
  from: string,
  to: string,
): DailyCount[] {
  return eachDay(from, to).map((date) => ({ date, count: days.get(date)?.[measure] ?? 0 }))
}

/** Running total of a daily series from its first day: the cumulative view. */
export function cumulativeSeries(series: DailyCount[]): DailyCount[] {
  let total = 0
  return series.map(({ date, count }) => {
    total += count
    return { date, count: total }
  })
}

/**
 * Contracts active at the end of each day of the range: `before` is the sum of every active
 * delta before `from` (the server reads it from the rollup in one sum).
 */
export function activeSeries(
  before: number,
  deltas: Map<string, number>,
  from: string,
  to: string,
): DailyCount[] {
  let active = before
  return eachDay(from, to).map((date) => {
    active += deltas.get(date) ?? 0
    return { date, count: active }
  })
}

/** Sum of the active deltas of the days before `from`: contracts active when the range starts. */
export function activeBefore(days: Map<string, DayMeasures>, from: string): number {
  let total = 0
  for (const [day, m] of days) if (day < from) total += m.activeDelta
  return total
}

/** Relative change of a card's figure against the previous period, or null when that was 0. */
export function changeRatio(current: number, previous: number): number | null {
  if (previous === 0) return null
  return (current - previous) / previous
}
