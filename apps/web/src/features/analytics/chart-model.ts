/**
 * The analytics charts as data (tested without a browser): our day series turned into the chart
 * library's series, axes and tooltip (`line-chart.tsx` hands them to polaris-viz's LineChart).
 * Only types come from the library here, so this module costs nothing at load time.
 */
import type { DataSeries, LineChartProps } from '@shopify/polaris-viz'
import { daysBetween, formatDateJa } from '@teiki/domain'

/** A point of a chart: a day (`YYYY-MM-DD`), or a month keyed by its first day (`YYYY-MM-01`). */
export type ChartPoint = { date: string; value: number }
export type ChartSeries = { name: string; points: ChartPoint[] }

/**
 * What one point of a chart stands for. Up to about three months (今月 … 過去3か月) a point is a
 * day; a longer period (全期間, four years) is drawn a point a month: 1,500 days on a half-width
 * chart are a smudge, and the title, axis, tooltip and table then say 月 (issue 22: the 全期間
 * chart read 日別 over month labels).
 */
export type Bucket = 'day' | 'month'
export const MAX_DAILY_DAYS = 93

export function chartBucket(range: { from: string; to: string }): Bucket {
  return daysBetween(range.from, range.to) > MAX_DAILY_DAYS ? 'month' : 'day'
}

/** 日別 / 月別, the word a chart's title starts with. */
export const bucketWord = (bucket: Bucket) => (bucket === 'month' ? '月別' : '日別')

/**
 * A day series as months: each month's days summed (counts of events, sales), or its last day's
 * value (a level: contracts active at the month's end). Keyed by the month's first day.
 */
export function toMonths(points: ChartPoint[], combine: 'sum' | 'last'): ChartPoint[] {
  const months = new Map<string, number>()
  for (const p of points) {
    const month = `${p.date.slice(0, 7)}-01`
    months.set(month, combine === 'sum' ? (months.get(month) ?? 0) + p.value : p.value)
  }
  return [...months].map(([date, value]) => ({ date, value }))
}

/** The chart's height in its card, kept by its placeholder too so nothing moves when it loads. */
export const CHART_HEIGHT = 220

/** Spec §9: a chart with nothing to show (every day 0) is scaled to 100. */
export const DEFAULT_CHART_MAX = 100

/**
 * The x axis' day: `2026-11-05` → `11月5日`. When the chart's days run into another year
 * (全期間, or 過去3か月 in January) a day without its year is ambiguous, and a full date is too
 * long for a half-width chart's axis: `2026年11月` (the tooltip still names the day).
 */
export const axisDate = (date: string, withYear = false) => {
  const [y, m, d] = date.split('-').map(Number)
  return withYear ? `${y}年${m}月` : `${m}月${d}日`
}

/** Whether the series' days fall in more than one calendar year. */
export const spansYears = (series: ChartSeries[]) => {
  const dates = series.flatMap((s) => s.points.map((p) => p.date)).sort()
  return dates.length > 0 && dates[0]!.slice(0, 4) !== dates.at(-1)!.slice(0, 4)
}

/** `2026-11-05` → `2026年11月5日` (the tooltip's title and the table). */
export const fullDate = (date: string) => formatDateJa(date)

/** A point's name in the tooltip and the table: its day, or its month (`2026年11月`). */
export const pointLabel = (date: string, bucket: Bucket = 'day') =>
  bucket === 'month' ? axisDate(date, true) : fullDate(date)

export type ChartOptions = {
  /** How a value reads on the y axis, in the tooltip and in the table (`¥1,980`, `1,234`). */
  format: (n: number) => string
  /** Counts have whole-number ticks only (no `0.5件`); money may have any. */
  integersOnly: boolean
  /** What a point stands for (default: a day). */
  bucket?: Bucket
}

export type LineChartModel = Pick<
  LineChartProps,
  'data' | 'xAxisOptions' | 'yAxisOptions' | 'tooltipOptions' | 'showLegend'
>

/** The chart's series: one point per day, keyed by the day (`YYYY-MM-DD`). */
export function toDataSeries(series: ChartSeries[]): DataSeries[] {
  return series.map((s) => ({
    name: s.name,
    data: s.points.map((p) => ({ key: p.date, value: p.value })),
  }))
}

const asNumber = (value: number | string | null) => (typeof value === 'number' ? value : Number(value ?? 0))

/** Everything LineChart needs besides its look: data, axis and tooltip labels, the §9 default. */
export function lineChartModel(series: ChartSeries[], options: ChartOptions): LineChartModel {
  const bucket = options.bucket ?? 'day'
  const withYear = bucket === 'month' || spansYears(series)
  return {
    data: toDataSeries(series),
    showLegend: series.length > 1,
    xAxisOptions: { labelFormatter: (key) => axisDate(String(key), withYear), allowLineWrap: false },
    yAxisOptions: {
      labelFormatter: (value) => options.format(asNumber(value)),
      integersOnly: options.integersOnly,
      maxYOverride: DEFAULT_CHART_MAX,
    },
    tooltipOptions: {
      titleFormatter: (key) => pointLabel(String(key), bucket),
      valueFormatter: (value) => options.format(asNumber(value)),
    },
  }
}

/** What the chart shows, in one sentence, for a screen reader (the 表 view has every number). */
export function chartSummary(
  title: string,
  series: ChartSeries[],
  format: (n: number) => string,
  bucket: Bucket = 'day',
): string {
  const points = series[0]?.points ?? []
  if (points.length === 0) return `${title}のグラフ（データなし）`
  const max = Math.max(0, ...series.flatMap((s) => s.points.map((p) => p.value)))
  const last = series.map((s) => `${s.name} ${format(s.points.at(-1)?.value ?? 0)}`).join('、')
  const span = `${pointLabel(points[0]!.date, bucket)}〜${pointLabel(points.at(-1)!.date, bucket)}`
  const count = bucket === 'month' ? `${points.length}か月分` : `${points.length}日分`
  const lastName = bucket === 'month' ? '最終月' : '最終日'
  return `${title}のグラフ（${span}の${count}、最大 ${format(max)}、${lastName} ${last}）`
}

/** The 表 view: a heading per series after 日付 (or 月), one row per point. */
export function seriesTable(series: ChartSeries[], format: (n: number) => string, bucket: Bucket = 'day') {
  const dates = series[0]?.points.map((p) => p.date) ?? []
  return {
    headings: [bucket === 'month' ? '月' : '日付', ...series.map((s) => s.name)],
    rows: dates.map((date, i) => [
      pointLabel(date, bucket),
      ...series.map((s) => format(s.points[i]?.value ?? 0)),
    ]),
  }
}
