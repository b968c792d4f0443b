import {
  Badge,
  BlockStack,
  Box,
  Card,
  EmptyState,
  IndexTable,
  Link,
  Page,
  SkeletonBodyText,
  Text,
} from '@shopify/polaris'
import type { SegmentList } from '@teiki/contract'
import { formatDateJa } from '@teiki/domain'
import { EMPTY_STATE_IMAGE } from '../../app/empty-state-image.ts'
import { LoadErrorBanner } from '../../app/load-error-banner.tsx'
import { useAppNavigate } from '../../app/use-app-navigate.ts'
import { customersApi } from './customers-api.ts'
import { type Load, useLoad } from './use-load.ts'

/** セグメント: the shop's saved customer segments, grouped, with their conditions. */
export default function SegmentListPage() {
  const navigate = useAppNavigate()
  const [state, reload] = useLoad(() => customersApi.segments(), 'segments')
  return (
    <Page
      title="セグメント"
      subtitle="条件を保存して、該当するお客様の一覧・タグ付け・CSV送信ができます。"
      primaryAction={{ content: 'セグメントを作成', onAction: () => navigate('/segments/new') }}
      secondaryActions={[{ content: 'LTV（顧客生涯価値）', onAction: () => navigate('/ltv') }]}
    >
      <Card padding="0">
        <SegmentListBody state={state} onRetry={reload} onCreate={() => navigate('/segments/new')} />
      </Card>
    </Page>
  )
}

function SegmentListBody({
  state,
  onRetry,
  onCreate,
}: {
  state: Load<SegmentList>
  onRetry: () => void
  onCreate: () => void
}) {
  if (state.status === 'loading')
    return (
      <Box padding="400">
        <SkeletonBodyText lines={6} />
      </Box>
    )
  if (state.status === 'error')
    return (
      <Box padding="400">
        <LoadErrorBanner title="セグメントを読み込めませんでした" message={state.message} onRetry={onRetry} />
      </Box>
    )
  if (state.data.segments.length === 0)
    return (
      <EmptyState
        heading="セグメントがまだありません"
        image={EMPTY_STATE_IMAGE}
        action={{ content: 'セグメントを作成', onAction: onCreate }}
      >
        <p>流入元・購入回数・LTV・タグなどの条件で、お客様のグループを作れます。</p>
      </EmptyState>
    )
  return (
    <IndexTable
      resourceName={{ singular: 'セグメント', plural: 'セグメント' }}
      itemCount={state.data.segments.length}
      headings={[{ title: 'セグメント' }, { title: 'グループ' }, { title: '条件' }, { title: '更新日' }]}
      selectable={false}
    >
      {state.data.segments.map((s, index) => (
        <IndexTable.Row id={`segment-${s.id}`} key={s.id} position={index}>
          <IndexTable.Cell>
            <Link url={`/segments/${s.id}`} removeUnderline monochrome>
              <Text as="span" fontWeight="semibold">
                {s.name}
              </Text>
            </Link>
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
          <IndexTable.Cell>
            <Text as="span" tone="subdued">
              {formatDateJa(s.updatedAt)}
            </Text>
          </IndexTable.Cell>
        </IndexTable.Row>
      ))}
    </IndexTable>
  )
}
