import { describe, expect, it } from 'vitest'
import { linePoints, niceMax, shortDate, tickIndexes } from '../src/features/analytics/chart-model.ts'
import {
  changeLabel,
  dailyValues,
  MEASURES,
  salesByCurrency,
  salesTotals,
  total,
} from '../src/features/analytics/dashboard-model.ts'

const measure = (key: string) => MEASURES.find((m) => m.key === key)!
const days = (counts: number[]) => counts.map((count, i) => ({ date: `2026-11-0${i + 1}`, count }))

describe('dashboard model', () => {
  it('cards: flows are summed, levels and running totals read at the period end', () => {
    expect(total(measure('new'), days([1, 2, 3]))).toBe(6)
    expect(total(measure('active'), days([10, 12, 11]))).toBe(11)
    expect(total(measure('failure'), days([1, 1, 4]))).toBe(4)
  })
  it('failures per day from the cumulative path', () => {
    expect(dailyValues(measure('failure'), days([1, 1, 4])).map((d) => d.count)).toEqual([1, 0, 3])
  })
  it('change against the previous period: a rise in cancellations is bad news', () => {
    expect(changeLabel(12, 10)).toEqual({ text: '前期間比 +20%', tone: 'success' })
    expect(changeLabel(12, 10, false)).toEqual({ text: '前期間比 +20%', tone: 'critical' })
    expect(changeLabel(5, 10, false)).toEqual({ text: '前期間比 -50%', tone: 'success' })
    expect(changeLabel(3, 0)).toEqual({ text: '前期間のデータなし', tone: undefined })
  })
  it('sales stay per currency', () => {
    const points = [
      { date: '2026-11-01', currency: 'JPY', sales: '1980', orders: 1 },
      { date: '2026-11-01', currency: 'USD', sales: '12.5', orders: 1 },
      { date: '2026-11-02', currency: 'JPY', sales: '3960', orders: 2 },
    ]
    expect([...salesByCurrency(points).keys()]).toEqual(['JPY', 'USD'])
    expect(Object.fromEntries(salesTotals(points))).toEqual({ JPY: 5940, USD: 12.5 })
  })
})

describe('chart model', () => {
  it('scales to a round top, 100 when there is nothing (spec §9)', () => {
    expect(niceMax(0)).toBe(100)
    expect(niceMax(1)).toBe(2)
    expect(niceMax(13)).toBe(20)
    expect(niceMax(180_000)).toBe(200_000)
    expect(niceMax(501)).toBe(1000)
  })
  it('lays out points and ticks', () => {
    expect(
      linePoints(
        [
          { date: 'a', value: 0 },
          { date: 'b', value: 50 },
        ],
        100,
        200,
        100,
      ),
    ).toBe('0.0,100.0 200.0,50.0')
    expect(tickIndexes(30, 6)).toEqual([0, 6, 12, 17, 23, 29])
    expect(shortDate('2026-01-05')).toBe('1/5')
  })
})
