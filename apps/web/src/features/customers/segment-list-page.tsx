import { Badge, BlockStack, Card, IndexTable, Page, Text } from '@shopify/polaris'
import type { SegmentList } from '@teiki/contract'
import { DateCell } from '../../app/date-cell.tsx'
import { EmptyListState, Loaded } from '../../app/load-state.tsx'
import { RowLink } from '../../app/row-link.tsx'
import { useApi } from '../../app/use-api.ts'
import { useAppNavigate } from '../../app/use-app-navigate.ts'

/** セグメント: the shop's saved customer segments, grouped, with their conditions. */
export default function SegmentListPage() {
  const navigate = useAppNavigate()
  const state = useApi('GET /cdp-segment-list')
  return (
    <Page
      title="セグメント"
      subtitle="条件を保存して、該当するお客様の一覧・タグ付け・CSV送信ができます。"
      primaryAction={{ content: 'セグメントを作成', onAction: () => navigate('/segments/new') }}
      secondaryActions={[{ content: 'LTV（顧客生涯価値）', onAction: () => navigate('/ltv') }]}
    >
      <Card padding="0">
        <Loaded state={state} errorTitle="セグメントを読み込めませんでした">
          {(data) => <SegmentListBody data={data} onCreate={() => navigate('/segments/new')} />}
        </Loaded>
      </Card>
    </Page>
  )
}

function SegmentListBody({ data, onCreate }: { data: SegmentList; onCreate: () => void }) {
  if (data.segments.length === 0)
    return (
      <EmptyListState
        heading="セグメントがまだありません"
        action={{ content: 'セグメントを作成', onAction: onCreate }}
      >
        <p>流入元・購入回数・LTV・タグなどの条件で、お客様のグループを作れます。</p>
      </EmptyListState>
    )
  return (
    <IndexTable
      resourceName={{ singular: 'セグメント', plural: 'セグメント' }}
      itemCount={data.segments.length}
      headings={[{ title: 'セグメント' }, { title: 'グループ' }, { title: '条件' }, { title: '更新日' }]}
      selectable={false}
    >
      {data.segments.map((s, index) => (
        <IndexTable.Row id={`segment-${s.id}`} key={s.id} position={index}>
          <IndexTable.Cell>
            <RowLink url={`/segments/${s.id}`}>{s.name}</RowLink>
          </IndexTable.Cell>
          <IndexTable.Cell>{s.groupName ?? '—'}</IndexTable.Cell>
          <IndexTable.Cell>
            <BlockStack gap="050">
              {s.description.map((d) => (
                <Text as="span" key={d} variant="bodySm">
                  {d}
                </Text>
              ))}
              {s.error ? <Badge tone="critical">{s.error}</Badge> : null}
            </BlockStack>
          </IndexTable.Cell>
          <DateCell at={s.updatedAt} />
        </IndexTable.Row>
      ))}
    </IndexTable>
  )
}
