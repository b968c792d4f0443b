import type { DailyCount, SalesPoint } from '@teiki/contract'
import {
  changeRatio,
  currencyDigits,
  formatMoney,
  formatNumber,
  formatPercent,
  previousRange,
  type ReportPeriodKey,
  reportPeriods,
} from '@teiki/domain'
import { analyticsApi, type CountPath, type DayRange } from './analytics-api.ts'
import { type Bucket, bucketWord, type ChartSeries, chartBucket, toMonths } from './chart-model.ts'

export type Measure = {
  key: string
  label: string
  path: CountPath
  kind: 'level' | 'flow' | 'running'
  /** Whether a rise is good news (green) or bad (red: cancellations, failures). */
  upIsGood: boolean
}

/** The dashboard's count measures (docs/analytics.md defines each). */
export const MEASURES: Measure[] = [
  {
    key: 'active',
    label: '有効な契約数',
    path: 'daily-report/active-contract',
    kind: 'level',
    upIsGood: true,
  },
  { key: 'new', label: '新規契約数', path: 'daily-report/new-contract', kind: 'flow', upIsGood: true },
  { key: 'cancel', label: '解約数', path: 'daily-report/cancel', kind: 'flow', upIsGood: false },
  { key: 'pause', label: '一時停止数', path: 'daily-report/pause', kind: 'flow', upIsGood: false },
  // Only the cumulative path exists for failures (spec §7): the day's figure is the difference.
  { key: 'failure', label: '決済失敗数', path: 'cumulative/failure', kind: 'running', upIsGood: false },
]

export type Dashboard = {
  range: DayRange
  series: Record<string, DailyCount[]>
  totals: Record<string, number>
  previousTotals: Record<string, number>
  sales: SalesPoint[]
  previousSales: SalesPoint[]
}

/** Per day values of a measure as the chart shows them. */
export function dailyValues(measure: Measure, points: DailyCount[]): DailyCount[] {
  if (measure.kind !== 'running') return points
  return points.map((p, i) => ({ date: p.date, count: p.count - (i > 0 ? points[i - 1]!.count : 0) }))
}

/** The card's figure: the level at the period's end, or the sum of the period. */
export function total(measure: Measure, points: DailyCount[]): number {
  if (measure.kind === 'flow') return points.reduce((s, p) => s + p.count, 0)
  return points.at(-1)?.count ?? 0
}

/** Everything the dashboard shows for a period and the one before it (the cards' comparison). */
export async function loadDashboard(range: DayRange, signal?: AbortSignal): Promise<Dashboard> {
  const previous = previousRange(range.from, range.to)
  const [current, before, sales, previousSales] = await Promise.all([
    Promise.all(MEASURES.map((m) => analyticsApi.counts(m.path, range, signal))),
    Promise.all(MEASURES.map((m) => analyticsApi.counts(m.path, previous, signal))),
    analyticsApi.sales(range, signal),
    analyticsApi.sales(previous, signal),
  ])
  const dash: Dashboard = { range, series: {}, totals: {}, previousTotals: {}, sales, previousSales }
  MEASURES.forEach((m, i) => {
    dash.series[m.key] = current[i]!
    dash.totals[m.key] = total(m, current[i]!)
    dash.previousTotals[m.key] = total(m, before[i]!)
  })
  return dash
}

/** `+12%` / `-5%` / `±0%` against the previous period, or 「前期間のデータなし」. */
export function changeLabel(
  current: number,
  previous: number,
  upIsGood = true,
): { text: string; tone: 'success' | 'critical' | undefined } {
  const ratio = changeRatio(current, previous)
  if (ratio === null) return { text: '前期間のデータなし', tone: undefined }
  const percent = formatPercent(ratio, 0)
  // A change that rounds to 0% reads as no change: neither green nor red.
  if (/^-?0%$/.test(percent)) return { text: '前期間比 ±0%', tone: undefined }
  const better = upIsGood ? ratio > 0 : ratio < 0
  return { text: `前期間比 ${ratio > 0 ? '+' : ''}${percent}`, tone: better ? 'success' : 'critical' }
}

/** Sales per currency as separate series (currencies are never added up). */
export function salesByCurrency(points: SalesPoint[]): Map<string, ChartSeries> {
  const byCurrency = new Map<string, ChartSeries>()
  for (const p of points) {
    const s = byCurrency.get(p.currency) ?? { name: `売上（${p.currency}）`, points: [] }
    s.points.push({ date: p.date, value: Number(p.sales) })
    byCurrency.set(p.currency, s)
  }
  return byCurrency
}

/** One chart of the dashboard: what it shows and how its numbers read. */
export type DashboardChart = {
  key: string
  title: string
  series: ChartSeries[]
  format: (n: number) => string
  /** Whole-number y ticks: counts, and money without minor units (JPY). */
  integersOnly: boolean
  /** Full width (sales) or half (the counts, two a row). */
  wide: boolean
  /** What a point stands for; the title says it (日別 / 月別, 日ごと / 月末). */
  bucket: Bucket
  testId: string
}

/**
 * The dashboard's charts in page order: sales per currency, then a chart per count measure, each
 * a point a day, or a month over a long period (chartBucket), titled after what a point is.
 */
export function dashboardCharts(dash: Dashboard): DashboardChart[] {
  const bucket = chartBucket(dash.range)
  const byBucket = (points: ChartSeries['points'], combine: 'sum' | 'last') =>
    bucket === 'month' ? toMonths(points, combine) : points
  const sales = [...salesByCurrency(dash.sales)].map(([currency, series]) => ({
    key: `sales-${currency}`,
    title: `${bucketWord(bucket)}の売上（${currency}）`,
    series: [{ ...series, points: byBucket(series.points, 'sum') }],
    format: (n: number) => formatMoney(n, currency),
    integersOnly: currencyDigits(currency) === 0,
    wide: true,
    bucket,
    testId: `chart-sales-${currency}`,
  }))
  const counts = MEASURES.map((m) => ({
    key: m.key,
    title:
      m.kind === 'level'
        ? `${m.label}（${bucket === 'month' ? '月末' : '日ごと'}）`
        : `${bucketWord(bucket)}の${m.label}`,
    series: [
      {
        name: m.label,
        points: byBucket(
          dailyValues(m, dash.series[m.key] ?? []).map((p) => ({ date: p.date, value: p.count })),
          m.kind === 'level' ? 'last' : 'sum',
        ),
      },
    ],
    format: formatNumber,
    integersOnly: true,
    wide: false,
    bucket,
    testId: `chart-${m.key}`,
  }))
  return [...sales, ...counts]
}

export function salesTotals(points: SalesPoint[]): Map<string, number> {
  const totals = new Map<string, number>()
  for (const p of points) totals.set(p.currency, (totals.get(p.currency) ?? 0) + Number(p.sales))
  return totals
}

export const periodOptions = (now: Date, timeZone: string) => reportPeriods(now, timeZone)
export type { ReportPeriodKey }
