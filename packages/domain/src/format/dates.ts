import { zoneFormatter } from './zone-formatter.ts'

/**
 * Calendar dates and wall times in a given IANA zone, with Intl only (no date library, no process
 * zone). Every function takes the zone explicitly and defaults to Japan, where the merchants are.
 */

const DEFAULT_ZONE = 'Asia/Tokyo'
const DAY_MS = 86_400_000
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/
// ISO date-time with no `Z` or offset: a wall time, which JavaScript would read in the process
// zone. We read it in the caller's zone instead so results never depend on where the server runs.
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?$/

type WallTime = { year: number; month: number; day: number; hour: number; minute: number; second: number }

function wallTime(instant: Date, timeZone: string): WallTime {
  const wall: WallTime = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 }
  for (const part of zoneFormatter(timeZone).formatToParts(instant)) {
    if (part.type in wall) wall[part.type as keyof WallTime] = Number(part.value)
  }
  return wall
}

/** Milliseconds the zone is ahead of UTC at `epochMs` (Tokyo: +9 h). */
function offsetAt(epochMs: number, timeZone: string): number {
  const w = wallTime(new Date(epochMs), timeZone)
  const wallAsUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second)
  return wallAsUtc - (epochMs - (((epochMs % 1000) + 1000) % 1000))
}

/**
 * The instant a wall time (given as if it were UTC) happens in the zone. Around a transition a
 * wall time can occur twice (fall back: take the earlier) or never (spring forward: take the
 * transition itself, i.e. read it with the offset before the gap, as Temporal's "compatible").
 * Assumes no two transitions within a day of each other, which holds for real zones.
 */
function wallToInstant(wallAsUtc: number, timeZone: string): Date {
  const before = offsetAt(wallAsUtc - DAY_MS, timeZone)
  const after = offsetAt(wallAsUtc + DAY_MS, timeZone)
  const candidates = [wallAsUtc - before, wallAsUtc - after].filter(
    (t) => t + offsetAt(t, timeZone) === wallAsUtc,
  )
  return new Date(candidates.length > 0 ? Math.min(...candidates) : wallAsUtc - before)
}

function toInstant(value: string | Date, timeZone: string): Date {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new RangeError('Invalid Date')
    return value
  }
  const text = value.trim()
  if (CALENDAR_DATE.test(text)) return zonedDayStart(text, timeZone)
  const local = LOCAL_DATE_TIME.exec(text)
  if (local) {
    const [, y, mo, d, h, mi, s = '0', ms = '0'] = local
    if (!isValidCalendarDate(`${y}-${mo}-${d}`)) throw new RangeError(`Invalid date: "${value}"`)
    const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s))
    return new Date(wallToInstant(wall, timeZone).getTime() + Number(ms.padEnd(3, '0')))
  }
  const instant = new Date(text)
  if (Number.isNaN(instant.getTime())) throw new RangeError(`Invalid date: "${value}"`)
  return instant
}

const pad2 = (n: number): string => String(n).padStart(2, '0')

/**
 * True for a real `YYYY-MM-DD` day: rejects `2026-02-30`, `2025-02-29`, `2026-13-01` and other
 * shapes. Years 0001-9999.
 */
export function isValidCalendarDate(date: string): boolean {
  const match = CALENDAR_DATE.exec(date)
  if (!match) return false
  const year = Number(match[1])
  const month = Number(match[2])
  const day = Number(match[3])
  if (year < 1 || month < 1 || month > 12 || day < 1) return false
  const isLeap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  const monthDays = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
  return day <= (monthDays[month - 1] ?? 0)
}

/**
 * The first instant of a calendar day in the zone (usually its 00:00). Where a DST change skips
 * midnight (America/Santiago) it is the transition instant, the day's real start. Throws
 * `RangeError` for an invalid date or zone.
 */
export function zonedDayStart(date: string, timeZone: string = DEFAULT_ZONE): Date {
  // Memoised: the answer never changes for a (day, zone) and Intl lookups are the costly part
  // of a date-range search. A fresh Date is returned so callers cannot alter the cached one.
  const key = `${timeZone}|${date}`
  let start = dayStartCache.get(key)
  if (start === undefined) {
    const match = CALENDAR_DATE.exec(date)
    if (!match || !isValidCalendarDate(date)) throw new RangeError(`Invalid calendar date: "${date}"`)
    const wall = new Date(0)
    // setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999.
    wall.setUTCFullYear(Number(match[1]), Number(match[2]) - 1, Number(match[3]))
    start = wallToInstant(wall.getTime(), timeZone).getTime()
    if (dayStartCache.size >= DAY_START_CACHE_SIZE) dayStartCache.clear()
    dayStartCache.set(key, start)
  }
  return new Date(start)
}

const DAY_START_CACHE_SIZE = 4096
const dayStartCache = new Map<string, number>()

/**
 * Calendar date `YYYY-MM-DD` (zero padded) of an instant in the zone:
 * `2026-11-21T15:30:00Z` is `2026-11-22` in Tokyo. A bare `YYYY-MM-DD` is a day, not an instant,
 * and comes back unchanged; an ISO date-time without offset is read as wall time in the zone.
 */
export function toZonedDate(iso: string | Date, timeZone: string = DEFAULT_ZONE): string {
  const w = wallTime(toInstant(iso, timeZone), timeZone)
  return `${String(w.year).padStart(4, '0')}-${pad2(w.month)}-${pad2(w.day)}`
}

/** Japanese date without zero padding, in the zone: `2026年11月22日`. Input as for `toZonedDate`. */
export function formatDateJa(iso: string | Date, timeZone: string = DEFAULT_ZONE): string {
  const w = wallTime(toInstant(iso, timeZone), timeZone)
  return `${w.year}年${w.month}月${w.day}日`
}

/** Japanese date and 24-hour time in the zone, hour unpadded: `2026年11月22日 9:05`. */
export function formatDateTimeJa(iso: string | Date, timeZone: string = DEFAULT_ZONE): string {
  const w = wallTime(toInstant(iso, timeZone), timeZone)
  return `${w.year}年${w.month}月${w.day}日 ${w.hour}:${pad2(w.minute)}`
}

/**
 * Turns an inclusive range of calendar days (a report or export filter) into half-open instants
 * for a `>= start AND < endExclusive` query: `endExclusive` is the start of the day after `to`,
 * so 23- and 25-hour DST days are covered exactly. A missing or empty bound is `null` (open).
 * Throws `RangeError` when `from` is after `to`, so callers cannot silently query nothing.
 */
export function zonedDayRange(
  from: string | undefined,
  to: string | undefined,
  timeZone: string = DEFAULT_ZONE,
): { start: Date | null; endExclusive: Date | null } {
  const start = from ? zonedDayStart(from, timeZone) : null
  const endExclusive = to ? zonedDayStart(nextCalendarDate(to), timeZone) : null
  if (start && endExclusive && start >= endExclusive) {
    throw new RangeError(`Range starts after it ends: ${from} > ${to}`)
  }
  return { start, endExclusive }
}

function nextCalendarDate(date: string): string {
  if (!isValidCalendarDate(date)) throw new RangeError(`Invalid calendar date: "${date}"`)
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  const next = new Date(0)
  next.setUTCFullYear(y, m - 1, d + 1)
  const year = String(next.getUTCFullYear()).padStart(4, '0')
  return `${year}-${pad2(next.getUTCMonth() + 1)}-${pad2(next.getUTCDate())}`
}

const TYPED_DATE = /^(\d{4})\s*(?:[-/.年])\s*(\d{1,2})\s*(?:[-/.月])\s*(\d{1,2})\s*日?$/

/** Year, month and day as typed, whether or not that day exists; null when it is not shaped like a date. */
function typedDateParts(text: string): { year: number; month: number; day: number } | null {
  const plain = text.normalize('NFKC').trim()
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(plain) ?? TYPED_DATE.exec(plain)
  return match ? { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) } : null
}

const dayOf = (p: { year: number; month: number; day: number }) =>
  `${String(p.year).padStart(4, '0')}-${pad2(p.month)}-${pad2(p.day)}`

/**
 * A day as a merchant types it, as `YYYY-MM-DD`: `2027年1月15日`, `2027/1/15`, `2027-01-15`,
 * `20270115`, full-width digits too. Null for anything else, or a day that does not exist
 * (`2027年2月30日`).
 */
export function parseTypedDate(text: string): string | null {
  const parts = typedDateParts(text)
  if (!parts) return null
  const date = dayOf(parts)
  return isValidCalendarDate(date) ? date : null
}

/** What a date must look like, said as the screens print dates. */
export const DATE_FORMAT_MESSAGE = '日付は「2027年1月15日」のように入力してください'

/**
 * Why a date a merchant typed (or a request carried: `2026-13-45`) is not a day, in Japanese:
 * 「2026年13月45日は存在しない日付です」 when it reads as a date that does not exist, the
 * expected format otherwise; null for a real day. Screens, the API contract and the server
 * all say it with this function, so the reason is the same wherever the date was typed.
 */
export function dateProblem(text: string): string | null {
  const parts = typedDateParts(text)
  if (!parts) return DATE_FORMAT_MESSAGE
  if (isValidCalendarDate(dayOf(parts))) return null
  return `${parts.year}年${parts.month}月${parts.day}日は存在しない日付です`
}
