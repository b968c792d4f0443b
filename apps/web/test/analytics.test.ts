import { formatMoney, formatNumber } from '@teiki/domain'
import { describe, expect, it } from 'vitest'
import {
  axisDate,
  chartBucket,
  chartSummary,
  DEFAULT_CHART_MAX,
  lineChartModel,
  seriesTable,
  toDataSeries,
} from '../src/features/analytics/chart-model.ts'
import {
  changeLabel,
  dailyValues,
  dashboardCharts,
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
    // 1,470,398 against 1,472,000 is -0.1%: shown as no change, not as red bad news.
    expect(changeLabel(1_470_398, 1_472_000)).toEqual({ text: '前期間比 ±0%', tone: undefined })
    expect(changeLabel(1_010, 1_000)).toEqual({ text: '前期間比 +1%', tone: 'success' })
  })
  it('sales stay per currency', () => {
    const points = [
      { date: '2026-11-01', currency: 'JPY', sales: '1980', orders: 1 },
      { date: '2026-11-01', currency: 'USD', sales: '12.5', orders: 1 },
      { date: '2026-11-02', currency: 'JPY', sales: '3960', orders: 2 },
    ]
    expect([...salesByCurrency(points).keys()]).toEqual(['JPY', 'USD'])
    expect(salesByCurrency(points).get('JPY')).toEqual({
      name: '売上（JPY）',
      points: [
        { date: '2026-11-01', value: 1980 },
        { date: '2026-11-02', value: 3960 },
      ],
    })
    expect(Object.fromEntries(salesTotals(points))).toEqual({ JPY: 5940, USD: 12.5 })
  })
})

describe('dashboard charts', () => {
  it('sales per currency first (full width, yen in whole steps), then one chart per measure', () => {
    const series = Object.fromEntries(MEASURES.map((m) => [m.key, days([1, 1, 4])]))
    const charts = dashboardCharts({
      range: { from: '2026-11-01', to: '2026-11-03' },
      series,
      totals: {},
      previousTotals: {},
      sales: [
        { date: '2026-11-01', currency: 'JPY', sales: '1980', orders: 1 },
        { date: '2026-11-01', currency: 'USD', sales: '12.5', orders: 1 },
      ],
      previousSales: [],
    })
    expect(charts.map((c) => c.testId)).toEqual([
      'chart-sales-JPY',
      'chart-sales-USD',
      ...MEASURES.map((m) => `chart-${m.key}`),
    ])
    const [jpy, usd] = charts
    expect([jpy!.title, jpy!.wide, jpy!.integersOnly, jpy!.format(1980)]).toEqual([
      '日別の売上（JPY）',
      true,
      true,
      '¥1,980',
    ])
    expect([usd!.integersOnly, usd!.format(12.5)]).toEqual([false, '$12.50'])
    const failure = charts.find((c) => c.key === 'failure')!
    expect(failure.title).toBe('日別の決済失敗数')
    // The cumulative path's days become per-day failures on the chart.
    expect(failure.series[0]!.points.map((p) => p.value)).toEqual([1, 0, 3])
    expect(charts.find((c) => c.key === 'active')!.title).toBe('有効な契約数（日ごと）')
  })
})

describe('a long period is charted a point a month, and its titles say so (issue 22)', () => {
  // 全期間 from 2022-11-01: the daily series of 1,100 days, here three months' worth.
  const day = (date: string, count: number) => ({ date, count })
  const range = { from: '2022-11-01', to: '2025-11-05' }
  const series = {
    active: [day('2025-09-30', 10), day('2025-10-01', 11), day('2025-10-31', 12), day('2025-11-05', 9)],
    new: [day('2025-09-30', 2), day('2025-10-01', 1), day('2025-10-31', 3), day('2025-11-05', 4)],
    cancel: [],
    pause: [],
    failure: [day('2025-09-30', 5), day('2025-10-01', 6), day('2025-10-31', 8), day('2025-11-05', 8)],
  }
  const dash = {
    range,
    series,
    totals: {},
    previousTotals: {},
    sales: [
      { date: '2025-10-01', currency: 'JPY', sales: '1980', orders: 1 },
      { date: '2025-10-20', currency: 'JPY', sales: '3960', orders: 2 },
      { date: '2025-11-02', currency: 'JPY', sales: '1000', orders: 1 },
    ],
    previousSales: [],
  }

  it('picks days up to about three months, months beyond', () => {
    expect(chartBucket({ from: '2026-09-01', to: '2026-11-30' })).toBe('day') // 過去3か月
    expect(chartBucket({ from: '2022-11-01', to: '2026-11-28' })).toBe('month') // 全期間
  })

  it('titles 月別 / 月末 and sums a month’s days (a level keeps its month-end)', () => {
    const charts = dashboardCharts(dash)
    const byKey = Object.fromEntries(charts.map((c) => [c.key, c]))
    expect(charts.map((c) => c.title)).toEqual([
      '月別の売上（JPY）',
      '有効な契約数（月末）',
      '月別の新規契約数',
      '月別の解約数',
      '月別の一時停止数',
      '月別の決済失敗数',
    ])
    expect(charts.every((c) => c.bucket === 'month' && !c.title.includes('日'))).toBe(true)
    expect(byKey['sales-JPY']!.series[0]!.points).toEqual([
      { date: '2025-10-01', value: 5940 },
      { date: '2025-11-01', value: 1000 },
    ])
    const values = (key: string) => byKey[key]!.series[0]!.points.map((p) => [p.date, p.value])
    expect(values('active')).toEqual([
      ['2025-09-01', 10],
      ['2025-10-01', 12],
      ['2025-11-01', 9],
    ])
    expect(values('new')).toEqual([
      ['2025-09-01', 2],
      ['2025-10-01', 4],
      ['2025-11-01', 4],
    ])
    // The cumulative failures become per-day figures first, then a month's sum.
    expect(values('failure')).toEqual([
      ['2025-09-01', 5],
      ['2025-10-01', 3],
      ['2025-11-01', 0],
    ])
  })

  it('the axis, the tooltip, the 表 and the label name months', () => {
    const [sales] = dashboardCharts(dash)
    const model = lineChartModel(sales!.series, { format: formatNumber, integersOnly: true, bucket: 'month' })
    expect(model.xAxisOptions?.labelFormatter?.('2025-10-01')).toBe('2025年10月')
    expect(model.tooltipOptions?.titleFormatter?.('2025-10-01')).toBe('2025年10月')
    expect(seriesTable(sales!.series, formatNumber, 'month')).toEqual({
      headings: ['月', '売上（JPY）'],
      rows: [
        ['2025年10月', '5,940'],
        ['2025年11月', '1,000'],
      ],
    })
    expect(chartSummary('月別の売上（JPY）', sales!.series, formatNumber, 'month')).toBe(
      '月別の売上（JPY）のグラフ（2025年10月〜2025年11月の2か月分、最大 5,940、最終月 売上（JPY） 1,000）',
    )
  })

  it('a period of days keeps 日別 titles', () => {
    const charts = dashboardCharts({ ...dash, range: { from: '2025-10-01', to: '2025-10-31' } })
    expect(charts[0]!.title).toBe('日別の売上（JPY）')
    expect(charts[0]!.series[0]!.points.map((p) => p.date)).toEqual([
      '2025-10-01',
      '2025-10-20',
      '2025-11-02',
    ])
  })
})

describe('chart model (polaris-viz LineChart props)', () => {
  const yen = (n: number) => formatMoney(n, 'JPY')
  const sales = [
    {
      name: 'JPY',
      points: [
        { date: '2026-11-23', value: 0 },
        { date: '2026-11-24', value: 1980 },
      ],
    },
  ]

  it('one point per day keyed by the day, in the series order', () => {
    expect(toDataSeries(sales)).toEqual([
      {
        name: 'JPY',
        data: [
          { key: '2026-11-23', value: 0 },
          { key: '2026-11-24', value: 1980 },
        ],
      },
    ])
  })

  it('yen on the y axis and in the tooltip, dates as 11月24日 on the axis and 2026年11月24日 above the tooltip', () => {
    const model = lineChartModel(sales, { format: yen, integersOnly: true })
    expect(model.yAxisOptions?.labelFormatter?.(198000)).toBe('¥198,000')
    expect(model.tooltipOptions?.valueFormatter?.(1980)).toBe('¥1,980')
    expect(model.xAxisOptions?.labelFormatter?.('2026-11-24')).toBe('11月24日')
    expect(model.tooltipOptions?.titleFormatter?.('2026-11-24')).toBe('2026年11月24日')
    expect(model.yAxisOptions?.integersOnly).toBe(true)
    expect(axisDate('2026-01-05')).toBe('1月5日')
  })

  it('the axis names year and month when the days run into another year (全期間, 過去3か月 in January)', () => {
    const across = [
      {
        name: '新規契約数',
        points: [
          { date: '2025-12-31', value: 1 },
          { date: '2026-01-01', value: 2 },
        ],
      },
    ]
    const model = lineChartModel(across, { format: formatNumber, integersOnly: true })
    expect(model.xAxisOptions?.labelFormatter?.('2026-01-01')).toBe('2026年1月')
    expect(
      lineChartModel(sales, { format: yen, integersOnly: true }).xAxisOptions?.labelFormatter?.('2026-11-24'),
    ).toBe('11月24日')
  })

  it('a chart of nothing but zeros is scaled to 100 (spec §9); a legend only for several series', () => {
    const counts = lineChartModel([{ name: '解約数', points: [{ date: '2026-11-01', value: 0 }] }], {
      format: formatNumber,
      integersOnly: true,
    })
    expect(DEFAULT_CHART_MAX).toBe(100)
    expect(counts.yAxisOptions?.maxYOverride).toBe(100)
    expect(counts.showLegend).toBe(false)
    const two = lineChartModel([...sales, { name: 'USD', points: [] }], { format: yen, integersOnly: false })
    expect(two.showLegend).toBe(true)
  })

  it('the 表 view and the chart’s label carry the same numbers', () => {
    expect(seriesTable(sales, yen)).toEqual({
      headings: ['日付', 'JPY'],
      rows: [
        ['2026年11月23日', '¥0'],
        ['2026年11月24日', '¥1,980'],
      ],
    })
    expect(chartSummary('日別の売上（JPY）', sales, yen)).toBe(
      '日別の売上（JPY）のグラフ（2026年11月23日〜2026年11月24日の2日分、最大 ¥1,980、最終日 JPY ¥1,980）',
    )
    expect(chartSummary('日別の解約数', [], formatNumber)).toBe('日別の解約数のグラフ（データなし）')
  })
})
