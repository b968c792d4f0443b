import '@shopify/polaris-viz/build/esm/styles.css'
import { BlockStack, Button, ButtonGroup, Card, DataTable, InlineStack, Text } from '@shopify/polaris'
import { LineChart, PolarisVizProvider } from '@shopify/polaris-viz'
import type { ReactNode } from 'react'
import { useState } from 'react'
import { type ChartSeries, chartSummary, lineChartModel, seriesTable } from './chart-model.ts'

/**
 * The analytics charts (polaris-viz, ADR 0022). This module is imported only by the lazily
 * loaded analytics page, so the chart library and its CSS travel with that route's chunk.
 */

const THEME = 'Teiki'
// polaris-viz's light theme inside a Polaris Card: no second box (the Card is the box),
// Polaris' text colours for the labels and its data-viz blue for a single series.
const THEMES = {
  [THEME]: {
    chartContainer: { backgroundColor: 'transparent', padding: '0', borderRadius: '0', minHeight: 200 },
    yAxis: { backgroundColor: 'transparent', labelColor: '#616161' },
    xAxis: { labelColor: '#616161' },
    grid: { color: '#ebebeb' },
    seriesColors: { single: '#2c6ecb' },
    // Straight segments between days: a spline bulges below 0 and above the day's count.
    line: { hasArea: false, hasSpline: false },
  },
}

/** The chart library's provider with the app's theme; wraps the analytics page's charts. */
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
  const [view, setView] = useState<'chart' | 'table'>('chart')
  const { title, series, format } = props
  const table = seriesTable(series, format)
  return (
    <div data-testid={props.testId}>
      <Card>
        <BlockStack gap="300">
          <InlineStack align="space-between" blockAlign="center">
            <Text as="h2" variant="headingMd">
              {title}
            </Text>
            <ButtonGroup variant="segmented">
              <Button pressed={view === 'chart'} onClick={() => setView('chart')} size="slim">
                グラフ
              </Button>
              <Button pressed={view === 'table'} onClick={() => setView('table')} size="slim">
                表
              </Button>
            </ButtonGroup>
          </InlineStack>
          {view === 'chart' ? (
            <figure aria-label={chartSummary(title, series, format)} style={{ margin: 0, height: 220 }}>
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
        </BlockStack>
      </Card>
    </div>
  )
}
