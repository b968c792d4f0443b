import { Layout } from '@shopify/polaris'
import type { DashboardChart } from './dashboard-model.ts'
import { ChartsProvider, LineChartCard } from './line-chart.tsx'

/** The dashboard's charts; loaded lazily by the analytics page (the chart library's chunk). */
export default function DashboardCharts({ charts }: { charts: DashboardChart[] }) {
  return (
    <ChartsProvider>
      {charts.map((c) => (
        <Layout.Section key={c.key} variant={c.wide ? undefined : 'oneHalf'}>
          <LineChartCard
            title={c.title}
            series={c.series}
            format={c.format}
            integersOnly={c.integersOnly}
            testId={c.testId}
          />
        </Layout.Section>
      ))}
    </ChartsProvider>
  )
}
