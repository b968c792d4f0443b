import { billingAfterDue } from '../billing/cycle-after.ts'
import { addCalendarDays, type BillingSchedulePolicy } from '../billing/schedule.ts'
import { toZonedDate, zonedDayStart } from '../format/dates.ts'
import type { SkuConversion } from '../settings/settings-json.ts'
import { type DeliverySettings, renewalDeliveryDate } from './calendar.ts'
import { convertedSkus } from './order-attributes.ts'

/**
 * 出荷予定 (issue 25): the orders billing will create in the coming days, listed on the
 * お届け予定日 each will carry. Every date comes from the rules billing itself uses
 * (`billingAfterDue` for the next cycle, `renewalDeliveryDate` for the delivery day,
 * `convertedSkus` for what the warehouse picks), so the forecast and the orders agree.
 */

/** What decides when a contract's coming orders are billed and delivered. */
export type ForecastSchedule = {
  /** The calendar day (shop's zone) of the next billing; an overdue contract bills today. */
  dueDate: string
  policy: BillingSchedulePolicy
  /** Day of month the contract was created (29–31 matter for month-end clamps; else any ≤ 28). */
  createdDay: number
  /** The contract's お届け予定日 attribute, or null. */
  promisedDate: string | null
  /** The plan's maxCycles, or null for none. */
  maxCycles: number | null
  /** Orders so far (定期回数 of the last), or null when the caller did not count them. */
  ordersSoFar: number | null
}

export type ForecastWindow = {
  /** First and last delivery day listed (YYYY-MM-DD, shop's zone). */
  from: string
  to: string
  timeZone: string
  prepDays: number
  closed: Pick<DeliverySettings, 'closedYearEnd' | 'closedDates'>
}

/** One coming order of a contract. */
export type ForecastOrder = {
  billingDate: string
  deliveryDate: string
  /** Its 定期回数, or null when the orders so far are unknown. */
  cycle: number | null
}

// Billing's instants keep the time of day; a date sequence does not depend on it (a DST gap moves
// a time forward within its day), so the day's noon stands for any billing time.
const NOON_MS = 12 * 3_600_000
const MAX_ORDERS = 400

/**
 * The orders billing will create for one contract whose delivery day falls in the window, in
 * billing order. Stops at the plan's maxCycles (when the orders so far are known) and once a
 * billing day is past the window (a delivery is never before its billing day).
 */
export function upcomingOrders(schedule: ForecastSchedule, window: ForecastWindow): ForecastOrder[] {
  const orders: ForecastOrder[] = []
  let billingDate = schedule.dueDate < window.from ? window.from : schedule.dueDate
  for (let k = 0; k < MAX_ORDERS && billingDate <= window.to; k++) {
    const cycle = schedule.ordersSoFar === null ? null : schedule.ordersSoFar + 1 + k
    if (cycle !== null && schedule.maxCycles !== null && cycle > schedule.maxCycles) break
    const deliveryDate = renewalDeliveryDate(
      window.closed,
      billingDate,
      window.prepDays,
      schedule.promisedDate,
    )
    if (deliveryDate >= window.from && deliveryDate <= window.to)
      orders.push({ billingDate, deliveryDate, cycle })
    const dueAt = new Date(zonedDayStart(billingDate, window.timeZone).getTime() + NOON_MS)
    const next = billingAfterDue(schedule.policy, dueAt, window.timeZone, schedule.createdDay)
    billingDate = toZonedDate(next, window.timeZone)
  }
  return orders
}

/** A group of contracts alike in schedule, counted by one of slot / prefecture / SKU. */
export type ForecastRow = ForecastSchedule & { count: number }

export type ForecastDay = {
  date: string
  orders: number
  /** Units per SKU after SKU変換, most first (then by SKU). */
  units: Array<{ sku: string; quantity: number }>
  /** Orders per 配送時間帯 label (指定なし included), most first. */
  slots: Array<{ slot: string; orders: number }>
  /** Orders per prefecture code (JP-13 …; '' for an unknown address), most first. */
  prefectures: Array<{ code: string; orders: number }>
}

export type ForecastInput = {
  window: ForecastWindow
  /** Contracts grouped by schedule: how many orders each day gets. */
  contracts: readonly ForecastRow[]
  slots: ReadonlyArray<ForecastRow & { slot: string }>
  prefectures: ReadonlyArray<ForecastRow & { code: string }>
  /** Line units grouped by schedule and SKU (sum of quantities over the group's contracts). */
  lines: ReadonlyArray<ForecastRow & { sku: string }>
  skuConversions: readonly SkuConversion[]
}

// A policy's anchors as text, once per array (the rows of one plan share theirs).
const anchorTexts = new WeakMap<object, string>()
function anchorsText(anchors: BillingSchedulePolicy['anchors']): string {
  let text = anchorTexts.get(anchors)
  if (text === undefined) {
    text = JSON.stringify(anchors)
    anchorTexts.set(anchors, text)
  }
  return text
}

function scheduleKey(s: ForecastSchedule): string {
  const p = s.policy
  return `${s.dueDate}|${p.interval}|${p.intervalCount}|${anchorsText(p.anchors)}|${s.createdDay}|${s.promisedDate}|${s.maxCycles}|${s.ordersSoFar}`
}

function add(map: Map<string, number>, key: string, n: number): void {
  map.set(key, (map.get(key) ?? 0) + n)
}

const mostFirst = <T extends { key: string; n: number }>(a: T, b: T) =>
  b.n - a.n || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)

function sorted(map: Map<string, number>): Array<{ key: string; n: number }> {
  return [...map].map(([key, n]) => ({ key, n })).sort(mostFirst)
}

type DayTally = {
  orders: number
  units: Map<string, number>
  slots: Map<string, number>
  prefs: Map<string, number>
}

/**
 * Every day of the window with its orders, units, slots and prefectures. Each distinct schedule
 * is walked once (`upcomingOrders`), however many contracts and rows share it.
 */
export function shippingForecast(input: ForecastInput): ForecastDay[] {
  const { window } = input
  const memo = new Map<string, ForecastOrder[]>()
  const ordersOf = (s: ForecastSchedule) => {
    const key = scheduleKey(s)
    let orders = memo.get(key)
    if (!orders) {
      orders = upcomingOrders(s, window)
      memo.set(key, orders)
    }
    return orders
  }
  const days = new Map<string, DayTally>()
  for (let d = window.from; d <= window.to; d = addCalendarDays(d, 1))
    days.set(d, { orders: 0, units: new Map(), slots: new Map(), prefs: new Map() })
  const each = <R extends ForecastRow>(
    rows: readonly R[],
    fn: (t: DayTally, r: R, o: ForecastOrder) => void,
  ) => {
    for (const row of rows) for (const order of ordersOf(row)) fn(days.get(order.deliveryDate)!, row, order)
  }
  each(input.contracts, (t, r) => {
    t.orders += r.count
  })
  each(input.slots, (t, r) => add(t.slots, r.slot, r.count))
  each(input.prefectures, (t, r) => add(t.prefs, r.code, r.count))
  each(input.lines, (t, r, o) => {
    for (const u of convertedSkus([{ sku: r.sku, quantity: r.count }], input.skuConversions, o.cycle))
      add(t.units, u.sku, u.quantity)
  })
  return [...days].map(([date, t]) => ({
    date,
    orders: t.orders,
    units: sorted(t.units).map((e) => ({ sku: e.key, quantity: e.n })),
    slots: sorted(t.slots).map((e) => ({ slot: e.key, orders: e.n })),
    prefectures: sorted(t.prefs).map((e) => ({ code: e.key, orders: e.n })),
  }))
}

/**
 * The SKUs one of whose conversions depends on the order's number: only their lines need the
 * contract's orders counted. For any other SKU `convertedSkus` gives the same without the
 * cycle (only conversions without `cycles` name it).
 */
export function cycleDependentSkus(conversions: readonly SkuConversion[]): string[] {
  return [...new Set(conversions.filter((c) => Boolean(c.cycles)).map((c) => c.from))].sort()
}
