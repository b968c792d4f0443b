import { zoneFormatter } from '../format/zone-formatter.ts'
import { type CalendarDate, dayNumber, fromDayNumber } from './calendar.ts'

/**
 * Wall clock of an instant in an IANA zone and back, with Intl only (the zone's formatter is
 * shared with `format/dates.ts`, which works in whole days). Billing needs the time of day as
 * well, so that a contract billed at 10:00 keeps being billed at 10:00 local time across DST
 * changes, and calendar arithmetic on day numbers (calendar.ts).
 */

const DAY_MS = 86_400_000

/** A local calendar date and the milliseconds since its local midnight on the wall clock. */
export type WallClock = { date: CalendarDate; timeOfDayMs: number }

/** Wall time of `epochMs` in the zone as if it were UTC, in ms (second precision plus the ms). */
function wallAsUtc(epochMs: number, timeZone: string): number {
  const parts = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 }
  let isBc = false
  for (const part of zoneFormatter(timeZone).formatToParts(new Date(epochMs))) {
    if (part.type === 'era') isBc = part.value.startsWith('B')
    else if (part.type in parts) parts[part.type as keyof typeof parts] = Number(part.value)
  }
  const year = isBc ? 1 - parts.year : parts.year
  const ms = ((epochMs % 1000) + 1000) % 1000 // zone offsets are whole seconds
  const days = dayNumber({ year, month: parts.month, day: parts.day })
  return days * DAY_MS + ((parts.hour * 60 + parts.minute) * 60 + parts.second) * 1000 + ms
}

export function wallClockOf(instant: Date, timeZone: string): WallClock {
  const epochMs = instant.getTime()
  if (Number.isNaN(epochMs)) throw new RangeError('Invalid Date')
  const wall = wallAsUtc(epochMs, timeZone)
  const days = Math.floor(wall / DAY_MS)
  return { date: fromDayNumber(days), timeOfDayMs: wall - days * DAY_MS }
}

/**
 * The instant the wall clock shows `timeOfDayMs` on `date` in the zone. A wall time that happens
 * twice (DST ends) is the earlier one; one that never happens (DST starts) is read with the
 * offset before the gap, so it moves forward by the gap: 02:30 on a New York spring-forward day
 * is 03:30 EDT. This is Temporal's "compatible" disambiguation. Assumes no two transitions within
 * a day of each other, which holds for real zones.
 */
export function instantOfWall(date: CalendarDate, timeOfDayMs: number, timeZone: string): Date {
  const wall = dayNumber(date) * DAY_MS + timeOfDayMs
  const offsetBefore = wallAsUtc(wall - DAY_MS, timeZone) - (wall - DAY_MS)
  const offsetAfter = wallAsUtc(wall + DAY_MS, timeZone) - (wall + DAY_MS)
  const candidates = [wall - offsetBefore, wall - offsetAfter].filter((t) => wallAsUtc(t, timeZone) === wall)
  return new Date(candidates.length > 0 ? Math.min(...candidates) : wall - offsetBefore)
}
