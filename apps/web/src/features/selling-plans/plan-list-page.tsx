import {
  Badge,
  BlockStack,
  Box,
  Card,
  EmptyState,
  IndexTable,
  InlineStack,
  Link,
  Page,
  SkeletonBodyText,
  Text,
  TextField,
} from '@shopify/polaris'
import { SearchIcon } from '@shopify/polaris-icons'
import { SELLING_PLAN_GROUP_PAGE_SIZE, type SellingPlanGroupSummary } from '@teiki/contract'
import { formatDateJa } from '@teiki/domain'
import { useCallback, useMemo } from 'react'
import { useLocation } from 'react-router-dom'
import { EMPTY_STATE_IMAGE } from '../../app/empty-state-image.ts'
import { ListPagination } from '../../app/list-pagination.tsx'
import { LoadErrorBanner } from '../../app/load-error-banner.tsx'
import { useAppNavigate } from '../../app/use-app-navigate.ts'
import { useDebouncedSearch } from '../subscriptions/use-debounced-search.ts'
import { countsLabel, discountTone, discountTypeLabel } from './plan-display.ts'
import { httpPlansApi } from './plans-api.ts'
import { type PlanListState, parsePlanListQuery, planListPath, usePlanList } from './use-plan-list.ts'

const HEADINGS: [{ title: string }, ...{ title: string }[]] = [
  { title: '販売プラン' },
  { title: 'プランと割引' },
  { title: '商品' },
  { title: '作成日' },
]

/** 販売プラン: the shop's selling plan groups, 10 a page, searchable by name. */
export default function PlanListPage() {
  const location = useLocation()
  const navigate = useAppNavigate()
  const { query, page } = useMemo(() => parsePlanListQuery(location.search), [location.search])
  const show = useCallback(
    (next: { query: string; page: number }) => navigate(planListPath(next), { replace: true }),
    [navigate],
  )
  const search = useDebouncedSearch(query, (text) => show({ query: text, page: 1 }))
  const { state, retry } = usePlanList(httpPlansApi, query, page)
  const data = state.status === 'ready' ? state.data : state.status === 'loading' ? state.previous : null

  return (
    <Page
      title="販売プラン"
      subtitle="定期便の配送・請求の周期と割引を設定します。"
      primaryAction={{ content: '販売プランを作成', url: '/selling-plans/new' }}
    >
      <Card padding="0">
        <Box padding="400">
          <div data-testid="plan-search">
            <TextField
              label="販売プランを検索"
              labelHidden
              type="search"
              autoComplete="off"
              placeholder="販売プラン名で検索"
              prefix={<SearchIcon width={20} height={20} aria-hidden="true" style={{ display: 'block' }} />}
              value={search.value}
              onChange={search.change}
              clearButton
              onClearButtonClick={search.clear}
            />
          </div>
        </Box>
        <PlanListBody state={state} query={query} onRetry={retry} />
        {data && data.total > 0 ? (
          <ListPagination
            testId="plan-list-pagination"
            range={{
              offset: (page - 1) * SELLING_PLAN_GROUP_PAGE_SIZE,
              shown: data.groups.length,
              total: data.total,
            }}
            hasPrevious={state.status === 'ready' && page > 1}
            onPrevious={() => show({ query, page: page - 1 })}
            hasNext={state.status === 'ready' && page * SELLING_PLAN_GROUP_PAGE_SIZE < data.total}
            onNext={() => show({ query, page: page + 1 })}
          />
        ) : null}
      </Card>
    </Page>
  )
}

export function PlanListBody({
  state,
  query,
  onRetry,
}: {
  state: PlanListState
  query: string
  onRetry: () => void
}) {
  if (state.status === 'error')
    return (
      <Box padding="400">
        <LoadErrorBanner title="販売プランを読み込めませんでした" message={state.message} onRetry={onRetry} />
      </Box>
    )
  const groups = state.status === 'ready' ? state.data.groups : state.previous?.groups
  if (!groups)
    return (
      <Box padding="400">
        <SkeletonBodyText lines={8} />
      </Box>
    )
  if (groups.length === 0)
    return query ? (
      <EmptyState heading="該当する販売プランはありません" image={EMPTY_STATE_IMAGE}>
        <p>販売プラン名の一部で検索してください。</p>
      </EmptyState>
    ) : (
      <EmptyState
        heading="販売プランがまだありません"
        image={EMPTY_STATE_IMAGE}
        action={{ content: '販売プランを作成', url: '/selling-plans/new' }}
      >
        <p>お届けの周期と割引を決めて、商品を定期便で販売できるようにしましょう。</p>
      </EmptyState>
    )
  return (
    <IndexTable
      resourceName={{ singular: '販売プラン', plural: '販売プラン' }}
      itemCount={groups.length}
      headings={HEADINGS}
      selectable={false}
      loading={state.status === 'loading'}
    >
      {groups.map((group, index) => (
        <GroupRow key={group.id} group={group} position={index} />
      ))}
    </IndexTable>
  )
}

function GroupRow({ group, position }: { group: SellingPlanGroupSummary; position: number }) {
  return (
    <IndexTable.Row id={`plan-group-${group.id}`} position={position}>
      <IndexTable.Cell>
        <BlockStack gap="050">
          <Link url={`/selling-plans/${group.id}`} removeUnderline monochrome>
            <Text as="span" fontWeight="semibold">
              {group.name}
            </Text>
          </Link>
          {group.merchantCode && group.merchantCode !== group.name ? (
            <Text as="span" variant="bodySm" tone="subdued">
              {group.merchantCode}
            </Text>
          ) : null}
        </BlockStack>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <BlockStack gap="100">
          {group.plans.map((plan) => (
            <InlineStack key={plan.id} gap="200" blockAlign="center" wrap={false}>
              <Text as="span">{plan.name}</Text>
              <Badge tone={discountTone[plan.discountType]}>{discountTypeLabel[plan.discountType]}</Badge>
            </InlineStack>
          ))}
        </BlockStack>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Text as="span">{countsLabel(group)}</Text>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Text as="span" tone="subdued">
          {group.createdAt ? formatDateJa(group.createdAt, 'Asia/Tokyo') : '—'}
        </Text>
      </IndexTable.Cell>
    </IndexTable.Row>
  )
}
