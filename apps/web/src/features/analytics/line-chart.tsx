import { BlockStack, Button, ButtonGroup, Card, DataTable, InlineStack, Text } from '@shopify/polaris'
import { formatDateJa } from '@teiki/domain'
import { useState } from 'react'
import { type ChartSeries, linePoints, niceMax, shortDate, tickIndexes } from './chart-model.ts'

const COLORS = ['#2c6ecb', '#e0812b', '#47a447', '#b03a9d', '#8a8a8a']
const W = 640
const H = 180
const PAD = { left: 64, bottom: 24, top: 8, right: 28 }

/**
 * A line chart card with the same numbers as a table (グラフ / 表): the table is the accessible
 * view, and the SVG says what it shows in its label.
 */
export function LineChartCard(props: {
  title: string
  series: ChartSeries[]
  format: (n: number) => string
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
            <Chart title={title} series={series} format={format} />
          ) : (
            <SeriesTable series={series} format={format} />
          )}
        </BlockStack>
      </Card>
    </div>
  )
}

function Chart({
  title,
  series,
  format,
}: {
  title: string
  series: ChartSeries[]
  format: (n: number) => string
}) {
  const max = Math.max(0, ...series.flatMap((s) => s.points.map((p) => p.value)))
  const top = niceMax(max)
  const points = series[0]?.points ?? []
  const innerW = W - PAD.left - PAD.right
  const innerH = H - PAD.top - PAD.bottom
  const last = series.map((s) => `${s.name} ${format(s.points.at(-1)?.value ?? 0)}`).join('、')
  const label = `${title}のグラフ（${points.length}日分、最大 ${format(max)}、最終日 ${last}）`
  return (
    <BlockStack gap="200">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} style={{ width: '100%', height: 'auto' }}>
        <g transform={`translate(${PAD.left},${PAD.top})`}>
          {yTicks(top).map((f) => (
            <g key={f}>
              <line x1={0} x2={innerW} y1={innerH * (1 - f)} y2={innerH * (1 - f)} stroke="#e3e3e3" />
              <text x={-8} y={innerH * (1 - f) + 4} fontSize="11" textAnchor="end" fill="#616161">
                {format(top * f)}
              </text>
            </g>
          ))}
          {tickIndexes(points.length).map((i) => (
            <text
              key={i}
              x={points.length > 1 ? (i * innerW) / (points.length - 1) : 0}
              y={innerH + 16}
              fontSize="11"
              textAnchor="middle"
              fill="#616161"
            >
              {shortDate(points[i]!.date)}
            </text>
          ))}
          {series.map((s, i) => (
            <polyline
              key={s.name}
              points={linePoints(s.points, top, innerW, innerH)}
              fill="none"
              stroke={COLORS[i % COLORS.length]}
              strokeWidth={2}
            />
          ))}
        </g>
      </svg>
      {series.length > 1 && (
        <InlineStack gap="400">
          {series.map((s, i) => (
            <InlineStack key={s.name} gap="100" blockAlign="center">
              <span
                style={{
                  width: 12,
                  height: 3,
                  background: COLORS[i % COLORS.length],
                  display: 'inline-block',
                }}
              />
              <Text as="span" variant="bodySm">
                {s.name}
              </Text>
            </InlineStack>
          ))}
        </InlineStack>
      )}
    </BlockStack>
  )
}

/** 0, the middle and the top, the middle only when it is a whole number (counts are). */
const yTicks = (top: number) => (Number.isInteger(top / 2) ? [0, 0.5, 1] : [0, 1])

function SeriesTable({ series, format }: { series: ChartSeries[]; format: (n: number) => string }) {
  const dates = series[0]?.points.map((p) => p.date) ?? []
  const rows = dates.map((date, i) => [
    formatDateJa(date),
    ...series.map((s) => format(s.points[i]?.value ?? 0)),
  ])
  return (
    <div style={{ maxHeight: 320, overflowY: 'auto' }}>
      <DataTable
        columnContentTypes={['text', ...series.map(() => 'numeric' as const)]}
        headings={['日付', ...series.map((s) => s.name)]}
        rows={rows}
      />
    </div>
  )
}
