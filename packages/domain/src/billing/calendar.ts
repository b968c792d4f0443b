/**
 * Proleptic Gregorian calendar arithmetic on plain integers, for billing schedules. No Date and
 * no Intl here: a calendar day has no zone, so its arithmetic must not depend on one. Years are
 * limited to 0001-9999, the range `YYYY-MM-DD` text can hold.
 */

export type CalendarDate = { year: number; month: number; day: number }

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const MIN_DAY = -719_162 // 0001-01-01
const MAX_DAY = 2_932_896 // 9999-12-31

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
}

export function monthLength(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
}

/** Days since 1970-01-01 (negative before). Howard Hinnant's `days_from_civil`. */
export function dayNumber({ year, month, day }: CalendarDate): number {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  return era * 146_097 + dayOfEra - 719_468
}

/** The calendar date of a day number; the inverse of `dayNumber` (Hinnant's `civil_from_days`). */
export function fromDayNumber(days: number): CalendarDate {
  if (!Number.isInteger(days) || days < MIN_DAY || days > MAX_DAY) {
    throw new RangeError(`Date out of range (years 0001-9999): day ${days}`)
  }
  const z = days + 719_468
  const era = Math.floor(z / 146_097)
  const dayOfEra = z - era * 146_097
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  )
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const mp = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1
  const month = mp < 10 ? mp + 3 : mp - 9
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day }
}

export function addDays(date: CalendarDate, days: number): CalendarDate {
  return fromDayNumber(dayNumber(date) + days)
}

/** ISO 8601 weekday, 1 = Monday .. 7 = Sunday (1970-01-01 was a Thursday). */
export function isoWeekday(date: CalendarDate): number {
  return ((((dayNumber(date) + 3) % 7) + 7) % 7) + 1
}

/**
 * The month `months` after (or before) `year`/`month`, on `day` clamped to that month's last
 * day: 31 January + 1 month is 28 or 29 February.
 */
export function monthDate(year: number, month: number, months: number, day: number): CalendarDate {
  const index = year * 12 + (month - 1) + months
  const y = Math.floor(index / 12)
  const m = index - y * 12 + 1
  if (y < 1 || y > 9999) throw new RangeError(`Date out of range (years 0001-9999): year ${y}`)
  return { year: y, month: m, day: Math.min(day, monthLength(y, m)) }
}

export function compareDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day
}

/** Reads strict `YYYY-MM-DD`; throws `RangeError` for anything else or a day that does not exist. */
export function parseCalendarDate(text: string): CalendarDate {
  const match = CALENDAR_DATE.exec(text)
  const date = match ? { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) } : null
  if (
    !date ||
    date.year < 1 ||
    date.month < 1 ||
    date.month > 12 ||
    date.day < 1 ||
    date.day > monthLength(date.year, date.month)
  ) {
    throw new RangeError(`Invalid calendar date: "${text}"`)
  }
  return date
}

export function formatCalendarDate({ year, month, day }: CalendarDate): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}
