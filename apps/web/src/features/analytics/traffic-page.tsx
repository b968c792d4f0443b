import { Banner, BlockStack, Card, DataTable, InlineStack, Page, Select } from '@shopify/polaris'
import type { TrafficRow } from '@teiki/contract'
import { formatDateJa, formatNumber, type ReportPeriodKey, reportPeriods } from '@teiki/domain'
import { useMemo, useState } from 'react'
import { EmptyListState, Loaded } from '../../app/load-state.tsx'
import { useApi, useLoader } from '../../app/use-api.ts'
import { analyticsApi } from './analytics-api.ts'
import { PixelCard } from './pixel-card.tsx'
import { generatedHistoryNote } from './pixel-model.ts'

const ZONE = 'Asia/Tokyo'
const DIMENSIONS = [
  { key: 'source', label: '流入元' },
  { key: 'medium', label: 'メディア' },
  { key: 'campaign', label: 'キャンペーン' },
  { key: 'content', label: 'コンテンツ' },
] as const
type Dimension = (typeof DIMENSIONS)[number]['key']

/** 流入元: page views and the subscriptions they brought, per utm source/medium/campaign/content. */
export default function TrafficPage() {
  const periods = useMemo(() => reportPeriods(new Date(), ZONE), [])
  const [key, setKey] = useState<ReportPeriodKey>('past3Months')
  const [filters, setFilters] = useState<Record<Dimension, string>>({
    source: '',
    medium: '',
    campaign: '',
    content: '',
  })
  const period = periods.find((p) => p.key === key) ?? periods[0]!
  const range = { from: period.from, to: period.to }
  const conditions = useApi('GET /traffic-actuation/condition')
  const active = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== ''))
  const state = useLoader(['traffic', range, active], () => analyticsApi.traffic(range, active))
  const values = conditions.data ?? null
  return (
    <Page title="流入元" subtitle={`${formatDateJa(range.from)}〜${formatDateJa(range.to)}（日本時間）`}>
      <BlockStack gap="400">
        <Card>
          <InlineStack gap="400" wrap>
            <Select
              label="期間"
              options={periods.map((p) => ({ label: p.label, value: p.key }))}
              value={key}
              onChange={(v) => setKey(v as ReportPeriodKey)}
            />
            {DIMENSIONS.map((d) => (
              <Select
                key={d.key}
                label={d.label}
                options={[
                  { label: 'すべて', value: '' },
                  ...(values?.[d.key] ?? []).map((v) => ({ label: v, value: v })),
                ]}
                value={filters[d.key]}
                onChange={(v) => setFilters((f) => ({ ...f, [d.key]: v }))}
              />
            ))}
          </InlineStack>
        </Card>
        <Loaded state={state} errorTitle="流入元レポートを読み込めませんでした" lines={8} card>
          {(report) => (
            <>
              <GeneratedNote note={generatedHistoryNote(report.generatedThrough, range.from)} />
              <TrafficTable rows={report.rows} />
            </>
          )}
        </Loaded>
        <PixelCard />
      </BlockStack>
    </Page>
  )
}

function GeneratedNote({ note }: { note: string | null }) {
  if (!note) return null
  return (
    <div data-testid="generated-history">
      <Banner tone="info" title="デモ用の生成データを含みます">
        <p>{note}</p>
      </Banner>
    </div>
  )
}

const label = (value: string, dimension: Dimension) =>
  value !== '' ? value : dimension === 'source' ? '（直接）' : '—'

function TrafficTable({ rows }: { rows: TrafficRow[] }) {
  if (rows.length === 0)
    return (
      <Card>
        <EmptyListState heading="この期間のアクセスはありません">
          <p>ウェブピクセルが有効になると、ストアへのアクセスと定期契約の獲得がここに表示されます。</p>
        </EmptyListState>
      </Card>
    )
  return (
    <Card padding="0">
      <DataTable
        columnContentTypes={['text', 'text', 'text', 'text', 'numeric', 'numeric', 'numeric']}
        headings={[
          '流入元',
          'メディア',
          'キャンペーン',
          'コンテンツ',
          'アクセス数',
          '成果数（定期契約）',
          '成果率',
        ]}
        rows={rows.map((r) => [
          label(r.source, 'source'),
          label(r.medium, 'medium'),
          label(r.campaign, 'campaign'),
          label(r.content, 'content'),
          formatNumber(r.accessCount),
          formatNumber(r.achievedCount),
          r.rate,
        ])}
      />
    </Card>
  )
}
