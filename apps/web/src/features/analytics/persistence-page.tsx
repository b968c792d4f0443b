import { BlockStack, Card, DataTable, InlineStack, Page, Select, Text } from '@shopify/polaris'
import type { PersistenceRate } from '@teiki/contract'
import { ALL_TIME_START, cohortMonths, formatNumber, toZonedDate } from '@teiki/domain'
import { useMemo, useState } from 'react'
import { Loaded } from '../../app/load-state.tsx'
import { OrderHistoryNotice } from '../../app/order-history-notice.tsx'
import { useLoader } from '../../app/use-api.ts'
import { analyticsApi } from './analytics-api.ts'

const ZONE = 'Asia/Tokyo'
const monthLabel = (month: string) => `${Number(month.slice(0, 4))}年${Number(month.slice(5, 7))}月`

/**
 * 継続率: for contracts that started in each month from the base month, the share that reached
 * order 1…12 (docs/analytics.md, cohort rule), optionally one selling plan group, or the
 * contracts one traffic source brought.
 */
export default function PersistencePage() {
  const today = toZonedDate(new Date(), ZONE)
  const months = useMemo(() => cohortMonths(ALL_TIME_START, today, 200).reverse(), [today])
  const [base, setBase] = useState(months[Math.min(11, months.length - 1)] ?? today)
  const [group, setGroup] = useState('')
  const [source, setSource] = useState('')
  const options = useLoader(['persistence-options'], async () => {
    const [groups, conditions] = await Promise.all([analyticsApi.groups(), analyticsApi.trafficConditions()])
    return { groups, sources: conditions.source }
  })
  const query = {
    baseDate: base,
    ...(group ? { sellingPlanGroupId: group } : {}),
    ...(source ? { source } : {}),
  }
  const state = useLoader(['persistence', query], () => analyticsApi.persistence(query))
  const loaded = options.data ?? { groups: [], sources: [] }
  return (
    <Page
      title="継続率"
      subtitle="開始月ごとに、何回目の注文まで続いたか（テスト注文・キャンセルされた注文は数えません）"
    >
      <BlockStack gap="400">
        <Card>
          <InlineStack gap="400" wrap>
            <Select
              label="基準月（この月以降に始まった契約）"
              options={months.map((m) => ({ label: monthLabel(m), value: m }))}
              value={base}
              onChange={setBase}
            />
            <Select
              label="販売プラン"
              options={[
                { label: 'すべて', value: '' },
                ...loaded.groups.map((g) => ({ label: g.name, value: g.id })),
              ]}
              value={group}
              onChange={setGroup}
            />
            <Select
              label="流入元"
              options={[
                { label: 'すべて', value: '' },
                { label: '直接・不明', value: '(direct)' },
                ...loaded.sources.map((s) => ({ label: s, value: s })),
              ]}
              value={source}
              onChange={setSource}
            />
          </InlineStack>
        </Card>
        {/* A cohort's order counts are complete only for contracts whose orders the app holds. */}
        <OrderHistoryNotice shownFrom={base} />
        <Loaded state={state} errorTitle="継続率を読み込めませんでした" lines={10} card>
          {(rate) => <PersistenceTable rate={rate} />}
        </Loaded>
      </BlockStack>
    </Page>
  )
}

function PersistenceTable({ rate }: { rate: PersistenceRate }) {
  const counts = Array.from({ length: 12 }, (_, i) => `${i + 1}回目`)
  const rows = rate.rows.map((row) => [
    monthLabel(row.targetDate),
    `${formatNumber(row.contracts)}件`,
    ...row.entries.map((e) => (
      <BlockStack key={e.orderCount} gap="0" inlineAlign="end">
        <Text as="span" fontWeight="semibold">
          {e.percent}
        </Text>
        <Text as="span" variant="bodySm" tone="subdued">
          {formatNumber(e.count)}件
        </Text>
      </BlockStack>
    )),
  ])
  return (
    <Card padding="0">
      <DataTable
        columnContentTypes={['text', 'numeric', ...counts.map(() => 'numeric' as const)]}
        headings={['開始月', '契約数', ...counts]}
        rows={rows}
        stickyHeader
      />
    </Card>
  )
}
