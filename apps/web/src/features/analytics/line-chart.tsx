import '@shopify/polaris-viz/build/esm/styles.css'
import { LineChart, PolarisVizProvider } from '@shopify/polaris-viz'
import { type Bucket, CHART_HEIGHT, type ChartSeries, chartSummary, lineChartModel } from './chart-model.ts'

/**
 * The line itself, drawn by polaris-viz (ADR 0022). Loaded lazily by `chart-card.tsx`, so the
 * library and its CSS are a chunk of their own that no other page fetches.
 */

const THEME = 'Teiki'
// polaris-viz's light theme inside a Polaris Card: no second box (the Card is the box),
// Polaris' secondary text colour for the labels and its blue for a single series.
const THEMES = {
  [THEME]: {
    chartContainer: { backgroundColor: 'transparent', padding: '0', borderRadius: '0', minHeight: 200 },
    yAxis: { backgroundColor: 'transparent', labelColor: '#616161' },
    xAxis: { labelColor: '#616161' },
    // The top gridline is at or above the highest day (213 contracts: 0–300, not 0–200 with the
    // line above the last label).
    grid: { color: '#ebebeb', verticalOverflow: false },
    seriesColors: { single: '#2c6ecb' },
    // Straight segments between days: a spline bulges below 0 and above the day's count.
    line: { hasArea: false, hasSpline: false },
  },
}

/** One chart with the app's theme; its label says in words what it shows. */
export default function LineChartView(props: {
  title: string
  series: ChartSeries[]
  format: (n: number) => string
  integersOnly: boolean
  bucket: Bucket
}) {
  const { title, series, format, bucket } = props
  return (
    <PolarisVizProvider themes={THEMES} defaultTheme={THEME}>
      <figure
        aria-label={chartSummary(title, series, format, bucket)}
        style={{ margin: 0, height: CHART_HEIGHT }}
      >
        <LineChart
          {...lineChartModel(series, { format, integersOnly: props.integersOnly, bucket })}
          emptyStateText="この期間のデータはありません"
          errorText="グラフを表示できませんでした"
        />
      </figure>
    </PolarisVizProvider>
  )
}
