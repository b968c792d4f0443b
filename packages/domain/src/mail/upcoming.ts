import { addCalendarDays } from '../billing/schedule.ts'
import { toZonedDate, zonedDayRange } from '../format/dates.ts'

/** Days before the billing date the upcoming billing notice goes out (次回請求のお知らせ). */
export const UPCOMING_NOTICE_DAYS = 3
/** The shop-local hour from which the day's notices are sent (none at night). */
export const UPCOMING_NOTICE_HOUR = 9

/**
 * The billing day whose contracts are told today: the shop-local date `daysAhead` after `now`'s,
 * as half-open instants for the query. Null before UPCOMING_NOTICE_HOUR shop-local time.
 */
export function upcomingNoticeWindow(
  now: Date,
  timeZone: string,
  daysAhead = UPCOMING_NOTICE_DAYS,
): { day: string; start: Date; endExclusive: Date } | null {
  const hour = Number(
    new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', hourCycle: 'h23' }).format(now),
  )
  if (hour < UPCOMING_NOTICE_HOUR) return null
  const day = addCalendarDays(toZonedDate(now, timeZone), daysAhead)
  const { start, endExclusive } = zonedDayRange(day, day, timeZone)
  return { day, start: start!, endExclusive: endExclusive! }
}
