import { Badge, BlockStack, Card, InlineGrid, Layout, Page, Select, Text } from '@shopify/polaris'
import {
  formatDateJa,
  formatMoney,
  formatNumber,
  previousRange,
  type ReportPeriodKey,
  reportPeriods,
} from '@teiki/domain'
import { useEffect, useMemo, useState } from 'react'
import { Loaded } from '../../app/load-state.tsx'
import { OrderHistoryNotice } from '../../app/order-history-notice.tsx'
import { useLoader } from '../../app/use-api.ts'
import { LineChartCard, preloadChart } from './chart-card.tsx'
import {
  changeLabel,
  type Dashboard,
  dashboardCharts,
  loadDashboard,
  MEASURES,
  salesTotals,
} from './dashboard-model.ts'

const ZONE = 'Asia/Tokyo'

/** 分析: the period's figures against the previous period, a chart per measure, sales per currency. */
export default function AnalyticsPage() {
  const periods = useMemo(() => reportPeriods(new Date(), ZONE), [])
  const [key, setKey] = useState<ReportPeriodKey>('thisMonth')
  const period = periods.find((p) => p.key === key) ?? periods[0]!
  const range = { from: period.from, to: period.to }
  const state = useLoader(['dashboard', range.from, range.to], () => loadDashboard(range))
  useEffect(preloadChart, [])
  return (
    <Page title="分析" subtitle={`${formatDateJa(range.from)}〜${formatDateJa(range.to)}（日本時間）`}>
      <BlockStack gap="400">
        <Card>
          <Select
            label="期間"
            labelInline
            options={periods.map((p) => ({ label: p.label, value: p.key }))}
            value={key}
            onChange={(value) => setKey(value as ReportPeriodKey)}
          />
        </Card>
        {/* The cards compare with the period before: its sales are counted from orders too. */}
        <OrderHistoryNotice shownFrom={previousRange(range.from, range.to).from} />
        <Loaded state={state} errorTitle="分析データを読み込めませんでした" lines={8} card>
          {(dash) => <DashboardView dash={dash} />}
        </Loaded>
      </BlockStack>
    </Page>
  )
}

function DashboardView({ dash }: { dash: Dashboard }) {
  const totals = salesTotals(dash.sales)
  const previous = salesTotals(dash.previousSales)
  const charts = dashboardCharts(dash)
  return (
    <Layout>
      <Layout.Section>
        <InlineGrid columns={{ xs: 1, sm: 2, md: 3 }} gap="400">
          {MEASURES.map((m) => (
            <FigureCard
              key={m.key}
              label={m.kind === 'level' ? `${m.label}（期間末）` : m.label}
              value={formatNumber(dash.totals[m.key] ?? 0)}
              current={dash.totals[m.key] ?? 0}
              previous={dash.previousTotals[m.key] ?? 0}
              upIsGood={m.upIsGood}
              testId={`figure-${m.key}`}
            />
          ))}
          {[...totals].map(([currency, amount]) => (
            <FigureCard
              key={currency}
              label={`売上（${currency}）`}
              value={formatMoney(amount, currency)}
              current={amount}
              previous={previous.get(currency) ?? 0}
            />
          ))}
        </InlineGrid>
      </Layout.Section>
      {charts.map((c) => (
        <Layout.Section key={c.key} variant={c.wide ? undefined : 'oneHalf'}>
          <LineChartCard
            title={c.title}
            series={c.series}
            format={c.format}
            integersOnly={c.integersOnly}
            bucket={c.bucket}
            testId={c.testId}
          />
        </Layout.Section>
      ))}
    </Layout>
  )
}

function FigureCard(props: {
  label: string
  value: string
  current: number
  previous: number
  upIsGood?: boolean
  testId?: string
}) {
  const change = changeLabel(props.current, props.previous, props.upIsGood ?? true)
  return (
    <div data-testid={props.testId}>
      <Card>
        <BlockStack gap="200">
          <Text as="h3" variant="headingSm" tone="subdued">
            {props.label}
          </Text>
          <Text as="p" variant="heading2xl">
            {props.value}
          </Text>
          <Badge tone={change.tone}>{change.text}</Badge>
        </BlockStack>
      </Card>
    </div>
  )
}
