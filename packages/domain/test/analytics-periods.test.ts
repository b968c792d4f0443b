import { describe, expect, it } from 'vitest'
import {
  attributedTouch,
  cohortMonths,
  parseReportDate,
  persistenceRow,
  previousRange,
  reachedCounts,
  reportPeriods,
  reportRangeProblem,
  trafficRate,
  unpaddedDate,
  utmOf,
} from '../src/index.ts'

describe('report dates (spec §9)', () => {
  it.each([
    ['2026-1-5', '2026-01-05'],
    ['2026-01-05', '2026-01-05'],
    ['2026-2-30', null], // no such day
    ['2026-13-1', null],
    ['26-1-5', null],
    ['2026-1-5T00:00', null],
    ['', null],
  ])('%s → %s', (text, expected) => {
    expect(parseReportDate(text)).toBe(expected)
  })
  it('sends days unpadded', () => expect(unpaddedDate('2026-01-05')).toBe('2026-1-5'))
  it('refuses reversed, too early and too long ranges in Japanese', () => {
    expect(reportRangeProblem('2026-02-01', '2026-01-31')).toMatch(/開始日は終了日以前/)
    expect(reportRangeProblem('1999-12-31', '2026-01-31')).toMatch(/2000年1月1日以降/)
    expect(reportRangeProblem('2020-01-01', '2026-12-31')).toBeNull()
    expect(reportRangeProblem('2026-01-01', '2026-01-01')).toBeNull()
  })
  it('periods on the shop-local today (00:30 on Dec 1 in Tokyo is still Nov 30 in UTC)', () => {
    const periods = reportPeriods(new Date('2026-11-30T15:30:00Z'), 'Asia/Tokyo')
    expect(periods.map((p) => [p.key, p.from, p.to])).toEqual([
      ['thisMonth', '2026-12-01', '2026-12-01'],
      ['lastMonth', '2026-11-01', '2026-11-30'],
      ['twoMonthsAgo', '2026-10-01', '2026-10-31'],
      ['past3Months', '2026-10-01', '2026-12-01'],
      ['allTime', '2022-11-01', '2026-12-01'],
    ])
  })
  it('the previous period: the month before a whole month, else as many days before', () => {
    expect(previousRange('2026-03-01', '2026-03-31')).toEqual({ from: '2026-02-01', to: '2026-02-28' })
    expect(previousRange('2026-03-01', '2026-03-10')).toEqual({ from: '2026-02-19', to: '2026-02-28' })
  })
})

describe('persistence (spec §4, §9)', () => {
  it('whole-number percentages of the cohort for order counts 1–12, with the counts behind them', () => {
    const row = persistenceRow('2026-01-01', 3, reachedCounts([1, 2, 12]))
    expect(row.entries).toHaveLength(12)
    expect(row.entries.slice(0, 3).map((e) => [e.orderCount, e.count, e.percent])).toEqual([
      [1, 3, '100%'],
      [2, 2, '67%'], // 66.67 rounds up
      [3, 1, '33%'],
    ])
    expect(row.entries[11]).toMatchObject({ orderCount: 12, count: 1, percent: '33%' })
  })
  it('an empty cohort shows a dash, not NaN', () => {
    expect(persistenceRow('2026-01-01', 0, []).entries[0]?.percent).toBe('—')
  })
  it('cohort months from the base month to this month', () => {
    expect(cohortMonths('2025-11-15', '2026-02-03')).toEqual([
      '2025-11-01',
      '2025-12-01',
      '2026-01-01',
      '2026-02-01',
    ])
  })
})

describe('traffic', () => {
  it('reads utm parameters of the landing URL, lower-casing source and medium, dropping control characters', () => {
    expect(
      utmOf(
        'https://shop.jp/?utm_source=Instagram&utm_medium=Social&utm_campaign=%E6%98%A5%0A&utm_content=a',
      ),
    ).toEqual({
      source: 'instagram',
      medium: 'social',
      campaign: '春',
      content: 'a',
    })
    expect(utmOf('not a url').source).toBe('')
  })
  it('attributes to the last non-direct touch within 30 days before the checkout', () => {
    const at = (d: string) => new Date(d)
    const touch = (source: string, d: string) => ({
      source,
      medium: 'm',
      campaign: '',
      content: '',
      occurredAt: at(d),
    })
    const checkout = at('2026-03-31T00:00:00Z')
    const touches = [
      touch('google', '2026-02-28T00:00:00Z'), // 31 days before: out of the window
      touch('line', '2026-03-10T00:00:00Z'),
      touch('', '2026-03-20T00:00:00Z'), // direct: skipped
      touch('instagram', '2026-04-01T00:00:00Z'), // after the checkout
    ]
    expect(attributedTouch(touches, checkout)?.source).toBe('line')
    expect(attributedTouch([touch('google', '2026-02-28T00:00:00Z')], checkout)).toBeNull()
    expect(attributedTouch([touch('google', '2026-03-01T00:00:00Z')], checkout)?.source).toBe('google') // exactly 30 days
  })
  it('rate to one decimal', () => {
    expect(trafficRate(3, 1)).toBe('33.3%')
    expect(trafficRate(0, 0)).toBe('—')
  })
})
