import { DATE_FORMAT_MESSAGE, dateProblem, formatDateJa, isValidCalendarDate } from '@teiki/domain'

/**
 * The problem with a date field's value, in Japanese with dates as the screen prints them, or
 * null. `value` is what the date field gave: a day, '' or text that did not read as a day. A day
 * that does not exist is named (「2026年13月45日は存在しない日付です」), a day before the first
 * allowed one says which that is (「次回請求日には今日以降の日付を指定してください」), as the
 * server says them.
 */
export function checkDate(
  date: string,
  label: string,
  earliest?: { day: string; reason: string },
): string | null {
  if (date.trim() === '') return `${label}を入力してください`
  if (!isValidCalendarDate(date)) {
    const problem = dateProblem(date)
    return problem === DATE_FORMAT_MESSAGE || problem === null
      ? `${label}は「2027年1月15日」のように入力してください`
      : problem
  }
  if (earliest && date < earliest.day) {
    const first = earliest.reason === '今日' ? '今日' : `${earliest.reason}（${formatDateJa(earliest.day)}）`
    return `${label}には${first}以降の日付を指定してください`
  }
  return null
}
