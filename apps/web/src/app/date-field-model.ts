import {
  DATE_FORMAT_MESSAGE,
  dateProblem,
  formatDateJa,
  isValidCalendarDate,
  parseTypedDate,
  toZonedDate,
} from '@teiki/domain'

/**
 * The pure side of DateField: calendar days (`YYYY-MM-DD`, Japan time) to and from the local
 * `Date`s Polaris' DatePicker works in, the month heading, and what a typed text means.
 */

/** Today's calendar day in Japan, whatever the browser's zone. */
export function japanToday(now: Date = new Date()): string {
  return toZonedDate(now, 'Asia/Tokyo')
}

/** The picker's `Date` for a day: local midnight, which is what DatePicker compares. */
export function toPickerDate(day: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  const date = new Date(0, 0, 1)
  date.setFullYear(y, m - 1, d)
  return date
}

/** The day a picker `Date` stands for (its local calendar day). */
export function fromPickerDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${String(date.getFullYear()).padStart(4, '0')}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/** The calendar's heading in Japanese order: `2026年11月` (month 0-based, as DatePicker's). */
export function monthTitle(year: number, month: number): string {
  return `${year}年${month + 1}月`
}

/** The month the calendar opens on: the chosen day's, else the first allowed day's, else today's. */
export function openingMonth(value: string, min: string | undefined, today: string) {
  const day = isValidCalendarDate(value) ? value : min && min > today ? min : today
  const [year, month] = day.split('-').map(Number) as [number, number]
  return { year, month: month - 1 }
}

/** The text field's text for a value: `2027年1月15日`, or the value itself when it is not a day. */
export function dateText(value: string): string {
  return isValidCalendarDate(value) ? formatDateJa(value, 'Asia/Tokyo') : value
}

export type TypedDate =
  | { kind: 'empty' }
  | { kind: 'date'; date: string }
  /** A real day the field does not allow: handed on as a day, so the form says why it is refused. */
  | { kind: 'outOfBounds'; date: string; message: string }
  | { kind: 'invalid'; message: string }

export type DateBounds = {
  min?: string | undefined
  max?: string | undefined
  /** The field's label, to say whose bound it is: 「次回請求日には…」. */
  label?: string | undefined
  /** What the first allowed day is, when it has a name (今日): 「…には今日以降の日付を…」. */
  minMeaning?: string | undefined
}

/**
 * What the merchant typed: nothing, a day within the bounds, a day outside them, or the problem
 * in Japanese: 「2026年13月45日は存在しない日付です」 for a day that does not exist (not a
 * message about the format), 「次回請求日には今日以降の日付を指定してください」 for a past day.
 */
export function readTypedDate(text: string, bounds: DateBounds = {}): TypedDate {
  if (text.trim() === '') return { kind: 'empty' }
  const date = parseTypedDate(text)
  if (date === null) return { kind: 'invalid', message: dateProblem(text) ?? DATE_FORMAT_MESSAGE }
  const whose = bounds.label ? `${bounds.label}には` : ''
  if (bounds.min && date < bounds.min) {
    const first = bounds.minMeaning ?? dateText(bounds.min)
    return { kind: 'outOfBounds', date, message: `${whose}${first}以降の日付を指定してください` }
  }
  if (bounds.max && date > bounds.max)
    return {
      kind: 'outOfBounds',
      date,
      message: `${whose}${dateText(bounds.max)}以前の日付を指定してください`,
    }
  return { kind: 'date', date }
}
