import {
  BlockStack,
  Button,
  ButtonGroup,
  Card,
  DataTable,
  InlineStack,
  SkeletonBodyText,
  Text,
} from '@shopify/polaris'
import { lazy, Suspense, useState } from 'react'
import { type Bucket, CHART_HEIGHT, type ChartSeries, seriesTable } from './chart-model.ts'

// The chart library (polaris-viz, ADR 0022) is a chunk of its own: only the drawing waits for
// it. `preloadChart` starts its download with the page, next to the data's.
const loadChart = () => import('./line-chart.tsx')
const LineChartView = lazy(loadChart)
export const preloadChart = () => void loadChart()

/**
 * A chart card with the same numbers as a table (グラフ / 表): the table is the accessible view.
 * The card, its title, its toggle and its table are Polaris; the line is drawn by polaris-viz.
 */
export function LineChartCard(props: {
  title: string
  series: ChartSeries[]
  format: (n: number) => string
  integersOnly: boolean
  bucket?: Bucket
  testId?: string
}) {
  const [view, setView] = useState<'chart' | 'table'>('chart')
  const { title, series, format } = props
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
            <Suspense fallback={<ChartPlaceholder />}>
              <LineChartView
                title={title}
                series={series}
                format={format}
                integersOnly={props.integersOnly}
                bucket={props.bucket ?? 'day'}
              />
            </Suspense>
          ) : (
            <SeriesTable series={series} format={format} bucket={props.bucket ?? 'day'} />
          )}
        </BlockStack>
      </Card>
    </div>
  )
}

/** What the chart's place shows while the chart library loads. */
function ChartPlaceholder() {
  return (
    <div style={{ height: CHART_HEIGHT }} aria-busy="true">
      <SkeletonBodyText lines={6} />
    </div>
  )
}

/** The 表 view: the chart's numbers, a row per point (day or month). */
function SeriesTable({
  series,
  format,
  bucket,
}: {
  series: ChartSeries[]
  format: (n: number) => string
  bucket: Bucket
}) {
  const table = seriesTable(series, format, bucket)
  return (
    <div style={{ maxHeight: 320, overflowY: 'auto' }}>
      <DataTable
        columnContentTypes={['text', ...series.map(() => 'numeric' as const)]}
        headings={table.headings}
        rows={table.rows}
      />
    </div>
  )
}
