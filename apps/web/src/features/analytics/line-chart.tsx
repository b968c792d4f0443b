import '@shopify/polaris-viz/build/esm/styles.css'
import { DataTable } from '@shopify/polaris'
import { LineChart, PolarisVizProvider } from '@shopify/polaris-viz'
import { type ReactNode, useState } from 'react'
import { CHART_HEIGHT, ChartCardFrame, type ChartView } from './chart-card.tsx'
import { type ChartSeries, chartSummary, lineChartModel, seriesTable } from './chart-model.ts'

/**
 * The analytics charts on polaris-viz (ADR 0022). Only `dashboard-charts.tsx` imports this,
 * and the analytics page loads that lazily, so the library and its CSS are a chunk of their own.
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

/** The chart library's provider with the app's theme. */
export function ChartsProvider({ children }: { children: ReactNode }) {
  return (
    <PolarisVizProvider themes={THEMES} defaultTheme={THEME}>
      {children}
    </PolarisVizProvider>
  )
}

/**
 * A line chart card with the same numbers as a table (グラフ / 表): the table is the accessible
 * view, and the chart says what it shows in its label.
 */
export function LineChartCard(props: {
  title: string
  series: ChartSeries[]
  format: (n: number) => string
  integersOnly: boolean
  testId?: string
}) {
  const [view, setView] = useState<ChartView>('chart')
  const { title, series, format } = props
  const table = seriesTable(series, format)
  return (
    <ChartCardFrame title={title} view={view} onView={setView} testId={props.testId}>
      {view === 'chart' ? (
        <figure aria-label={chartSummary(title, series, format)} style={{ margin: 0, height: CHART_HEIGHT }}>
          <LineChart
            {...lineChartModel(series, { format, integersOnly: props.integersOnly })}
            emptyStateText="この期間のデータはありません"
            errorText="グラフを表示できませんでした"
          />
        </figure>
      ) : (
        <div style={{ maxHeight: 320, overflowY: 'auto' }}>
          <DataTable
            columnContentTypes={['text', ...series.map(() => 'numeric' as const)]}
            headings={table.headings}
            rows={table.rows}
          />
        </div>
      )}
    </ChartCardFrame>
  )
}
