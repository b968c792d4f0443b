import { isValidCalendarDate, toZonedDate, zonedDayStart } from '../format/dates.ts'

/**
 * The delivery date and time slot a merchant sets on a contract. The platform has no field for
 * them, so they live on the contract as custom attributes: the platform copies those onto each
 * order it creates from the contract, where the warehouse reads them. Keys and values are in
 * Japanese because that is what the packing slip shows.
 */
export const DELIVERY_DATE_ATTRIBUTE = 'お届け予定日'
export const DELIVERY_TIME_ATTRIBUTE = '配送時間帯'

/** Slot codes (API) and the label written on the contract and shown on screen. */
export const DELIVERY_TIME_LABELS = {
  NONE: '指定なし',
  AM: '午前中',
  '12-14': '12時〜14時',
  '14-16': '14時〜16時',
  '16-18': '16時〜18時',
  '18-20': '18時〜20時',
  '19-21': '19時〜21時',
} as const
export type DeliveryTimeSlot = keyof typeof DELIVERY_TIME_LABELS

export function deliveryTimeLabel(slot: DeliveryTimeSlot): string {
  return DELIVERY_TIME_LABELS[slot]
}

/** The slot code of a stored label, or null for none or a label this version does not know. */
export function deliveryTimeSlot(label: string | null | undefined): DeliveryTimeSlot | null {
  if (!label) return null
  for (const [slot, text] of Object.entries(DELIVERY_TIME_LABELS)) {
    if (text === label) return slot === 'NONE' ? null : (slot as DeliveryTimeSlot)
  }
  return null
}

type Attribute = { key: string; value: string | null }

/** `attributes` with `key` set to `value` (removed when value is null), order kept. */
export function withAttribute(
  attributes: readonly Attribute[],
  key: string,
  value: string | null,
): Array<{ key: string; value: string }> {
  const rest = attributes.filter((a) => a.key !== key).map((a) => ({ key: a.key, value: a.value ?? '' }))
  if (value === null) return rest
  const at = attributes.findIndex((a) => a.key === key)
  const entry = { key, value }
  if (at < 0) return [...rest, entry]
  return [...rest.slice(0, at), entry, ...rest.slice(at)]
}

export function attributeValue(attributes: readonly Attribute[], key: string): string | null {
  return attributes.find((a) => a.key === key)?.value ?? null
}

/** The stored delivery date if it is a real calendar date, else null. */
export function deliveryDateOf(attributes: readonly Attribute[]): string | null {
  const value = attributeValue(attributes, DELIVERY_DATE_ATTRIBUTE)
  return value && isValidCalendarDate(value) ? value : null
}

/**
 * The instant to bill on `date` (a calendar day in `timeZone`), keeping the time of day of the
 * current next billing instant so a shop that bills at 10:00 keeps billing at 10:00. Without a
 * current instant the day's start is used.
 */
export function billingInstantOn(date: string, current: string | Date | null, timeZone = 'Asia/Tokyo'): Date {
  const dayStart = zonedDayStart(date, timeZone)
  if (current === null) return dayStart
  const currentInstant = new Date(current)
  const currentDayStart = zonedDayStart(toZonedDate(currentInstant, timeZone), timeZone)
  const timeOfDay = currentInstant.getTime() - currentDayStart.getTime()
  return new Date(dayStart.getTime() + timeOfDay)
}
