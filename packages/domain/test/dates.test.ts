import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  dateProblem,
  formatDateJa,
  formatDateTimeJa,
  isValidCalendarDate,
  parseTypedDate,
  toZonedDate,
  zonedDayRange,
  zonedDayStart,
} from '../src/index.ts'

// The npm script pins TZ=UTC, so every Asia/Tokyo case below only passes if the code ignores the
// process zone. (The suite also passes under TZ=Asia/Tokyo and TZ=America/New_York.)
describe('formatDateJa / toZonedDate (Asia/Tokyo by default)', () => {
  it.each<[string, string, string]>([
    ['2026-11-21T15:30:00Z', '2026年11月22日', '2026-11-22'], // spec example: next day in Japan
    ['2026-11-21T14:59:59Z', '2026年11月21日', '2026-11-21'], // last second of the 21st JST
    ['2026-11-21T15:00:00Z', '2026年11月22日', '2026-11-22'], // first second of the 22nd JST
    ['2026-12-31T15:00:00Z', '2027年1月1日', '2027-01-01'], // year boundary, no zero padding
    ['2026-12-31T14:59:59.999Z', '2026年12月31日', '2026-12-31'],
    ['2028-02-28T15:00:00Z', '2028年2月29日', '2028-02-29'], // leap day
    ['2026-03-05T00:00:00+09:00', '2026年3月5日', '2026-03-05'], // explicit offset
    ['2026-03-05', '2026年3月5日', '2026-03-05'], // bare date is a day, not UTC midnight
    ['2026-03-05T00:30:00', '2026年3月5日', '2026-03-05'], // no offset: wall time in the zone
  ])('%s -> %s / %s', (iso, ja, date) => {
    expect(formatDateJa(iso)).toBe(ja)
    expect(toZonedDate(iso)).toBe(date)
  })

  it('accepts Date objects', () => {
    expect(formatDateJa(new Date('2026-11-21T15:30:00Z'))).toBe('2026年11月22日')
  })

  it.each<[string, string, string]>([
    ['2026-11-21T15:30:00Z', 'UTC', '2026-11-21'],
    ['2026-11-22T03:00:00Z', 'America/New_York', '2026-11-21'], // 22:00 EST the day before
    ['2026-11-21T15:30:00Z', 'Asia/Kolkata', '2026-11-21'], // +05:30: 21:00
    ['2026-03-05', 'America/New_York', '2026-03-05'], // a bare date stays that date in any zone
  ])('%s in %s -> %s', (iso, zone, date) => {
    expect(toZonedDate(iso, zone)).toBe(date)
  })

  it.each([['not a date'], ['2026-02-30'], ['2026-02-30T10:00:00']])('rejects %j', (iso) => {
    expect(() => formatDateJa(iso)).toThrow(RangeError)
  })

  it('rejects an unknown zone', () => {
    expect(() => toZonedDate('2026-01-01T00:00:00Z', 'Mars/Olympus')).toThrow(RangeError)
  })
})

describe('formatDateTimeJa', () => {
  it.each<[string, string | undefined, string]>([
    ['2026-11-22T00:05:00Z', undefined, '2026年11月22日 9:05'], // hour unpadded, minute padded
    ['2026-11-21T15:00:00Z', undefined, '2026年11月22日 0:00'], // midnight is 0, not 24
    ['2026-11-22T14:59:00Z', undefined, '2026年11月22日 23:59'],
    ['2026-11-22T00:05:00Z', 'UTC', '2026年11月22日 0:05'],
    ['2026-11-22', undefined, '2026年11月22日 0:00'], // bare date: start of that day
  ])('%s (%s) -> %s', (iso, zone, expected) => {
    expect(formatDateTimeJa(iso, zone)).toBe(expected)
  })
})

describe('zonedDayStart', () => {
  it.each<[string, string | undefined, string]>([
    ['2026-11-22', undefined, '2026-11-21T15:00:00.000Z'], // JST is UTC+9 all year
    ['2027-01-01', undefined, '2026-12-31T15:00:00.000Z'], // year boundary
    ['2028-02-29', undefined, '2028-02-28T15:00:00.000Z'], // leap day
    ['2026-11-22', 'UTC', '2026-11-22T00:00:00.000Z'],
    ['2026-03-07', 'America/New_York', '2026-03-07T05:00:00.000Z'], // EST
    ['2026-03-08', 'America/New_York', '2026-03-08T05:00:00.000Z'], // DST starts 02:00 that day
    ['2026-03-09', 'America/New_York', '2026-03-09T04:00:00.000Z'], // EDT: the 8th had 23 hours
    ['2026-11-01', 'America/New_York', '2026-11-01T04:00:00.000Z'], // DST ends 02:00 that day
    ['2026-11-02', 'America/New_York', '2026-11-02T05:00:00.000Z'], // the 1st had 25 hours
    ['2024-09-08', 'America/Santiago', '2024-09-08T04:00:00.000Z'], // midnight skipped: day starts 01:00
    ['2026-11-22', 'Asia/Kolkata', '2026-11-21T18:30:00.000Z'], // half-hour offset
  ])('%s in %s starts at %s', (date, zone, expected) => {
    expect(zonedDayStart(date, zone).toISOString()).toBe(expected)
  })

  it.each([['2026-02-30'], ['2026-13-01'], ['2026-1-5'], ['']])('rejects %j', (date) => {
    expect(() => zonedDayStart(date)).toThrow(RangeError)
  })

  it('round-trips with toZonedDate in Tokyo for any instant', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1970-01-01T00:00:00Z'),
          max: new Date('2200-01-01T00:00:00Z'),
          noInvalidDate: true,
        }),
        (instant) => {
          const day = toZonedDate(instant)
          const start = zonedDayStart(day)
          // The day containing the instant starts at or before it, less than 24 h earlier (JST has no DST).
          expect(start.getTime()).toBeLessThanOrEqual(instant.getTime())
          expect(instant.getTime() - start.getTime()).toBeLessThan(86_400_000)
          expect(toZonedDate(start)).toBe(day)
          expect(formatDateTimeJa(start)).toMatch(/ 0:00$/)
        },
      ),
    )
  })

  it('gives the first instant of the day in DST zones too', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2040-01-01T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.constantFrom('America/New_York', 'Europe/London', 'Australia/Sydney', 'America/Santiago'),
        (instant, zone) => {
          const day = toZonedDate(instant, zone)
          const start = zonedDayStart(day, zone)
          expect(start.getTime()).toBeLessThanOrEqual(instant.getTime())
          expect(toZonedDate(start, zone)).toBe(day)
          expect(toZonedDate(new Date(start.getTime() - 1), zone)).not.toBe(day)
        },
      ),
    )
  })
})

describe('zonedDayRange', () => {
  it.each<[string | undefined, string | undefined, string | undefined, string | null, string | null]>([
    ['2026-11-01', '2026-11-30', undefined, '2026-10-31T15:00:00.000Z', '2026-11-30T15:00:00.000Z'],
    ['2026-11-22', '2026-11-22', undefined, '2026-11-21T15:00:00.000Z', '2026-11-22T15:00:00.000Z'], // one day
    ['2026-12-31', '2026-12-31', undefined, '2026-12-30T15:00:00.000Z', '2026-12-31T15:00:00.000Z'], // into next year
    ['2028-02-29', '2028-02-29', undefined, '2028-02-28T15:00:00.000Z', '2028-02-29T15:00:00.000Z'],
    ['2026-11-01', undefined, undefined, '2026-10-31T15:00:00.000Z', null], // open end
    [undefined, '2026-11-30', undefined, null, '2026-11-30T15:00:00.000Z'], // open start
    [undefined, undefined, undefined, null, null],
    ['', '', undefined, null, null], // empty form fields are open bounds
    ['2026-03-08', '2026-03-08', 'America/New_York', '2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z'], // 23 h
  ])('%s..%s (%s)', (from, to, zone, start, endExclusive) => {
    const range = zonedDayRange(from, to, zone)
    expect(range.start?.toISOString() ?? null).toBe(start)
    expect(range.endExclusive?.toISOString() ?? null).toBe(endExclusive)
  })

  it('rejects from after to, and invalid days', () => {
    expect(() => zonedDayRange('2026-11-02', '2026-11-01')).toThrow(RangeError)
    expect(() => zonedDayRange('2026-02-30', undefined)).toThrow(RangeError)
    expect(() => zonedDayRange(undefined, '2026-02-30')).toThrow(RangeError)
  })
})

describe('isValidCalendarDate', () => {
  it.each<[string, boolean]>([
    ['2026-11-22', true],
    ['2028-02-29', true], // leap year
    ['2000-02-29', true], // divisible by 400
    ['1900-02-29', false], // divisible by 100, not 400
    ['2026-02-29', false],
    ['2026-02-30', false],
    ['2026-04-31', false],
    ['2026-12-31', true],
    ['2026-13-01', false],
    ['2026-00-10', false],
    ['2026-01-00', false],
    ['2026-1-5', false], // must be zero padded
    ['2026/01/05', false],
    ['2026-01-05T00:00:00Z', false],
    ['', false],
  ])('%j -> %s', (date, valid) => {
    expect(isValidCalendarDate(date)).toBe(valid)
  })
})

describe('parseTypedDate', () => {
  it.each<[string, string | null]>([
    ['2027年1月15日', '2027-01-15'], // as the screens print it
    ['2027年01月15日', '2027-01-15'],
    ['2027 年 1 月 15 日', '2027-01-15'],
    ['2027/1/15', '2027-01-15'],
    ['2027-01-15', '2027-01-15'],
    ['2027.1.15', '2027-01-15'],
    ['20270115', '2027-01-15'],
    ['２０２７年１月１５日', '2027-01-15'], // full-width digits
    ['2028年2月29日', '2028-02-29'], // leap day
    ['2027年2月29日', null], // not a leap year
    ['2027年13月1日', null],
    ['2027年1月', null], // no day
    ['1/15', null], // no year
    ['令和9年1月15日', null], // era years are not read
    ['', null],
  ])('%s → %s', (text, expected) => {
    expect(parseTypedDate(text)).toBe(expected)
  })
})

describe('dateProblem: why a typed date is not a day, in Japanese', () => {
  it.each<[string, string | null]>([
    ['2027年1月15日', null],
    ['2027/1/15', null],
    ['2027-01-15', null],
    ['2026/13/45', '2026年13月45日は存在しない日付です'], // issue 22: named, not "the format"
    ['2026-13-45', '2026年13月45日は存在しない日付です'],
    ['2027年2月29日', '2027年2月29日は存在しない日付です'],
    ['２０２６年４月３１日', '2026年4月31日は存在しない日付です'],
    ['2020/1/1', null], // a past day exists: whether it is allowed is the field's rule
    ['abc', '日付は「2027年1月15日」のように入力してください'],
    ['2027年1月', '日付は「2027年1月15日」のように入力してください'],
  ])('%s → %s', (text, problem) => {
    expect(dateProblem(text)).toBe(problem)
  })
})
