import { addCalendarDays } from '../billing/schedule.ts'
import { isValidCalendarDate, toZonedDate, zonedDayStart } from '../format/dates.ts'
import type { CarrierKey } from './carriers.ts'

/**
 * 配送設定: when a subscriber may ask for delivery (お届け希望日), and when a renewal's order
 * arrives (お届け予定日). Every date is a calendar day in Japan time, whatever the server's zone.
 * The rules and their reasons: docs/delivery-rules.md.
 */
export type DeliverySettings = {
  carrier: CarrierKey
  /** The shortest days from the order's day to delivery (出荷準備 + 輸送), 1–14. */
  leadDays: number
  /** Extra days for far prefectures (北海道, 沖縄 …), by the platform's code (JP-01 …), 0–7 each. */
  extraDaysByPrefecture: Readonly<Record<string, number>>
  /** No delivery from 12月31日 to 1月3日 (年末年始). */
  closedYearEnd: boolean
  /** Days the merchant closes (YYYY-MM-DD), at most 366. */
  closedDates: readonly string[]
  /** How far after the order's day a date may be chosen, 7–90 (≥ leadDays + the largest extra). */
  horizonDays: number
  /** The day's cutoff in Japan time (HH:MM): an order at or after it counts as the next day's. */
  cutoff: string
}

export const DELIVERY_ZONE = 'Asia/Tokyo'

export const DEFAULT_DELIVERY_SETTINGS: DeliverySettings = {
  carrier: 'yamato',
  leadDays: 3,
  extraDaysByPrefecture: { 'JP-01': 1, 'JP-47': 2 },
  closedYearEnd: true,
  closedDates: [],
  horizonDays: 30,
  cutoff: '12:00',
}

/** A day with no delivery: 年末年始 (when closed) or one the merchant closed. */
export function isClosedDay(settings: Pick<DeliverySettings, 'closedYearEnd' | 'closedDates'>, date: string) {
  const monthDay = date.slice(5)
  if (settings.closedYearEnd && (monthDay === '12-31' || monthDay <= '01-03')) return true
  return settings.closedDates.includes(date)
}

/** The first day on or after `date` that has delivery (a year holds at most 366 closed dates + 4). */
export function firstOpenDay(
  settings: Pick<DeliverySettings, 'closedYearEnd' | 'closedDates'>,
  date: string,
) {
  let day = date
  for (let i = 0; i <= 400 && isClosedDay(settings, day); i++) day = addCalendarDays(day, 1)
  return day
}

const CUTOFF = /^([01]\d|2[0-3]):([0-5]\d)$/

/** The day an order placed at `now` counts from: Japan's date, the next one at or after the cutoff. */
export function orderDay(settings: Pick<DeliverySettings, 'cutoff'>, now: Date): string {
  const match = CUTOFF.exec(settings.cutoff)
  if (!match) throw new RangeError(`cutoff must be HH:MM: ${settings.cutoff}`)
  const today = toZonedDate(now, DELIVERY_ZONE)
  const cutoffAt =
    zonedDayStart(today, DELIVERY_ZONE).getTime() + (Number(match[1]) * 60 + Number(match[2])) * 60_000
  return now.getTime() >= cutoffAt ? addCalendarDays(today, 1) : today
}

/** Extra days for a prefecture code (unknown or missing: none). */
export function extraDaysFor(
  settings: Pick<DeliverySettings, 'extraDaysByPrefecture'>,
  prefecture: string | null,
) {
  if (!prefecture) return 0
  return settings.extraDaysByPrefecture[prefecture] ?? 0
}

export type DeliverableRange = { earliest: string; latest: string }

/**
 * The dates a subscriber in `prefecture` may choose at `now`: from the order's day plus the lead
 * and the prefecture's extra days (moved past closed days) to the order's day plus the horizon.
 * Null when no day is open in between. Closed days inside the range are not deliverable
 * (`isDeliverable`).
 */
export function deliverableRange(
  settings: DeliverySettings,
  prefecture: string | null,
  now: Date,
): DeliverableRange | null {
  const day = orderDay(settings, now)
  const earliest = firstOpenDay(
    settings,
    addCalendarDays(day, settings.leadDays + extraDaysFor(settings, prefecture)),
  )
  const latest = addCalendarDays(day, settings.horizonDays)
  return earliest <= latest ? { earliest, latest } : null
}

/** Whether `date` may be asked for by a subscriber in `prefecture` ordering at `now`. */
export function isDeliverable(
  settings: DeliverySettings,
  prefecture: string | null,
  date: string,
  now: Date,
) {
  if (!isValidCalendarDate(date)) return false
  const range = deliverableRange(settings, prefecture, now)
  return range !== null && date >= range.earliest && date <= range.latest && !isClosedDay(settings, date)
}

/** Every deliverable date, in order (the storefront block's calendar). */
export function deliverableDates(settings: DeliverySettings, prefecture: string | null, now: Date): string[] {
  const range = deliverableRange(settings, prefecture, now)
  if (!range) return []
  const dates: string[] = []
  for (let day = range.earliest; day <= range.latest; day = addCalendarDays(day, 1)) {
    if (!isClosedDay(settings, day)) dates.push(day)
  }
  return dates
}

/**
 * The お届け予定日 of a renewal billed on `billingDate` (Japan's calendar day of the charge): the
 * shop's preparation days later, moved past days without delivery.
 */
export function nextDeliveryDate(
  settings: Pick<DeliverySettings, 'closedYearEnd' | 'closedDates'>,
  billingDate: string,
  prepDays: number,
): string {
  if (!Number.isSafeInteger(prepDays) || prepDays < 0)
    throw new RangeError(`prepDays must be ≥ 0: ${prepDays}`)
  return firstOpenDay(settings, addCalendarDays(billingDate, prepDays))
}

/**
 * The お届け予定日 of the order billed on `billingDate`: the contract's promised date (chosen at
 * the first purchase or set in 契約詳細) when it is not before the billing day, else the
 * preparation days after the billing day past closed days. Billing writes it on the order and
 * the shipping forecast lists the order on it: one rule for both.
 */
export function renewalDeliveryDate(
  settings: Pick<DeliverySettings, 'closedYearEnd' | 'closedDates'>,
  billingDate: string,
  prepDays: number,
  promised: string | null,
): string {
  return promised !== null && promised >= billingDate
    ? promised
    : nextDeliveryDate(settings, billingDate, prepDays)
}
