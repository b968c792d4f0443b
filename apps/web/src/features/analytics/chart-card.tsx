import { BlockStack, Button, ButtonGroup, Card, InlineStack, SkeletonBodyText, Text } from '@shopify/polaris'
import type { ReactNode } from 'react'

/** The chart's height in the card, also held by the skeleton so nothing moves when it loads. */
export const CHART_HEIGHT = 220

export type ChartView = 'chart' | 'table'

/**
 * A chart card without the chart library (グラフ / 表 and the body): the loaded card and its
 * skeleton share it, so the page keeps its layout while the library's chunk arrives.
 */
export function ChartCardFrame(props: {
  title: string
  view: ChartView
  onView?: (view: ChartView) => void
  testId?: string
  children: ReactNode
}) {
  const { view, onView } = props
  return (
    <div data-testid={props.testId}>
      <Card>
        <BlockStack gap="300">
          <InlineStack align="space-between" blockAlign="center">
            <Text as="h2" variant="headingMd">
              {props.title}
            </Text>
            <ButtonGroup variant="segmented">
              <Button
                pressed={view === 'chart'}
                onClick={() => onView?.('chart')}
                disabled={!onView}
                size="slim"
              >
                グラフ
              </Button>
              <Button
                pressed={view === 'table'}
                onClick={() => onView?.('table')}
                disabled={!onView}
                size="slim"
              >
                表
              </Button>
            </ButtonGroup>
          </InlineStack>
          {props.children}
        </BlockStack>
      </Card>
    </div>
  )
}

/** What a chart card shows while the chart library loads. */
export function ChartCardSkeleton({ title }: { title: string }) {
  return (
    <ChartCardFrame title={title} view="chart">
      <div style={{ height: CHART_HEIGHT }} aria-busy="true">
        <SkeletonBodyText lines={6} />
      </div>
    </ChartCardFrame>
  )
}
