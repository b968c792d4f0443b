import { isValidCalendarDate, toZonedDate } from '../format/dates.ts'

/**
 * Report days (spec §9): calls name days without zero padding (`2026-1-5`); the app answers
 * and computes with `YYYY-MM-DD`. Every day is a calendar day in the shop's zone.
 */

/** First day of the "all time" period (spec §9). */
export const ALL_TIME_START = '2022-11-01'
/** First day of the cumulative view (spec §9). */
export const CUMULATIVE_START = '2020-01-01'
/** Longest range a report answers, in days (the cumulative view from 2020 spans about 7 years). */
export const MAX_REPORT_DAYS = 3700
/** Earliest day a report may start on. */
export const EARLIEST_REPORT_DAY = '2000-01-01'

const LOOSE_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})$/
const pad2 = (n: number) => String(n).padStart(2, '0')

/** `2026-1-5` or `2026-01-05` → `2026-01-05`; null for anything else or a day that does not exist. */
export function parseReportDate(text: string): string | null {
  const match = LOOSE_DATE.exec(text)
  if (!match) return null
  const date = `${match[1]}-${pad2(Number(match[2]))}-${pad2(Number(match[3]))}`
  return isValidCalendarDate(date) ? date : null
}

/** `2026-01-05` → `2026-1-5`, the form the web app sends (spec §9). */
export function unpaddedDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number)
  return `${y}-${m}-${d}`
}

const dayNumber = (date: string): number => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  return Date.UTC(y, m - 1, d) / 86_400_000
}
const fromDayNumber = (n: number): string => {
  const t = new Date(n * 86_400_000)
  return `${t.getUTCFullYear()}-${pad2(t.getUTCMonth() + 1)}-${pad2(t.getUTCDate())}`
}

/** The calendar day `days` after `date` (negative: before). */
export function addDays(date: string, days: number): string {
  return fromDayNumber(dayNumber(date) + days)
}

/** Number of days from `from` to `to`, both included (0 when `to` is before `from`). */
export function daysBetween(from: string, to: string): number {
  return Math.max(0, dayNumber(to) - dayNumber(from) + 1)
}

/** Every day from `from` to `to`, both included. */
export function eachDay(from: string, to: string): string[] {
  const start = dayNumber(from)
  return Array.from({ length: daysBetween(from, to) }, (_, i) => fromDayNumber(start + i))
}

/**
 * Why a report range cannot be answered (Japanese), or null. Both days are already
 * `YYYY-MM-DD`. A reversed range, one before 2000 or one longer than ~10 years is refused.
 */
export function reportRangeProblem(from: string, to: string): string | null {
  if (from > to) return '開始日は終了日以前の日付を指定してください'
  if (from < EARLIEST_REPORT_DAY) return '開始日は2000年1月1日以降を指定してください'
  if (daysBetween(from, to) > MAX_REPORT_DAYS) return `期間は${MAX_REPORT_DAYS}日以内で指定してください`
  return null
}

export type ReportPeriodKey = 'thisMonth' | 'lastMonth' | 'twoMonthsAgo' | 'past3Months' | 'allTime'
export type ReportPeriod = { key: ReportPeriodKey; label: string; from: string; to: string }

const monthStart = (date: string, monthsBack: number): string => {
  const [y, m] = date.split('-').map(Number) as [number, number]
  const t = new Date(Date.UTC(y, m - 1 - monthsBack, 1))
  return `${t.getUTCFullYear()}-${pad2(t.getUTCMonth() + 1)}-01`
}
const monthEnd = (date: string, monthsBack: number): string => addDays(monthStart(date, monthsBack - 1), -1)

/**
 * The periods of spec §9 on the shop's today: this month (to today), last month, two months
 * ago, the past 3 months (the two full months before this one and this month to today) and all
 * time (from 2022-11-01).
 */
export function reportPeriods(now: Date, timeZone: string): ReportPeriod[] {
  const today = toZonedDate(now, timeZone)
  return [
    { key: 'thisMonth', label: '今月', from: monthStart(today, 0), to: today },
    { key: 'lastMonth', label: '先月', from: monthStart(today, 1), to: monthEnd(today, 1) },
    { key: 'twoMonthsAgo', label: '先々月', from: monthStart(today, 2), to: monthEnd(today, 2) },
    { key: 'past3Months', label: '過去3か月', from: monthStart(today, 2), to: today },
    { key: 'allTime', label: '全期間', from: ALL_TIME_START, to: today },
  ]
}

/**
 * The period just before a range, as long as it (the comparison of the dashboard's cards): for
 * a whole month the month before, otherwise the same number of days before `from`.
 */
export function previousRange(from: string, to: string): { from: string; to: string } {
  const isWholeMonth =
    from.endsWith('-01') && addDays(to, 1).endsWith('-01') && from.slice(0, 7) === to.slice(0, 7)
  if (isWholeMonth) return { from: monthStart(from, 1), to: addDays(from, -1) }
  const length = daysBetween(from, to)
  return { from: addDays(from, -length), to: addDays(from, -1) }
}
