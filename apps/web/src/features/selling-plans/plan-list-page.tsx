import { Badge, BlockStack, Box, Card, IndexTable, InlineStack, Page, Text } from '@shopify/polaris'
import {
  SELLING_PLAN_GROUP_PAGE_SIZE,
  type SellingPlanGroupList,
  type SellingPlanGroupSummary,
} from '@teiki/contract'
import { useCallback, useMemo } from 'react'
import { useLocation } from 'react-router-dom'
import { DateCell } from '../../app/date-cell.tsx'
import { ListPagination } from '../../app/list-pagination.tsx'
import { EmptyListState, Loaded } from '../../app/load-state.tsx'
import { RowLink } from '../../app/row-link.tsx'
import { SearchField } from '../../app/search-field.tsx'
import { type ApiState, useApi } from '../../app/use-api.ts'
import { useAppNavigate } from '../../app/use-app-navigate.ts'
import { useDebouncedSearch } from '../subscriptions/use-debounced-search.ts'
import { countsLabel, discountTone, discountTypeLabel } from './plan-display.ts'
import { parsePlanListQuery, planListPath } from './plan-list-query.ts'

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
  const state = useApi(
    'GET /subscriptions/sellingPlanGroups',
    { query: { query, page } },
    { keepPrevious: true },
  )
  const data = state.data ?? null
  const settled = data !== null && !state.isValidating

  return (
    <Page
      title="販売プラン"
      subtitle="定期便の配送・請求の周期と割引を設定します。"
      primaryAction={{ content: '販売プランを作成', url: '/selling-plans/new' }}
    >
      <Card padding="0">
        <Box padding="400">
          <SearchField
            testId="plan-search"
            label="販売プランを検索"
            placeholder="販売プラン名で検索"
            search={search}
          />
        </Box>
        <PlanListBody state={state} query={query} />
        {data && data.total > 0 ? (
          <ListPagination
            testId="plan-list-pagination"
            range={{
              offset: (page - 1) * SELLING_PLAN_GROUP_PAGE_SIZE,
              shown: data.groups.length,
              total: data.total,
            }}
            hasPrevious={settled && page > 1}
            onPrevious={() => show({ query, page: page - 1 })}
            hasNext={settled && page * SELLING_PLAN_GROUP_PAGE_SIZE < data.total}
            onNext={() => show({ query, page: page + 1 })}
          />
        ) : null}
      </Card>
    </Page>
  )
}

export function PlanListBody({ state, query }: { state: ApiState<SellingPlanGroupList>; query: string }) {
  return (
    <Loaded state={state} errorTitle="販売プランを読み込めませんでした" lines={8}>
      {({ groups }) => <PlanListRows groups={groups} query={query} refreshing={state.isValidating} />}
    </Loaded>
  )
}

function PlanListRows({
  groups,
  query,
  refreshing,
}: {
  groups: SellingPlanGroupSummary[]
  query: string
  refreshing: boolean
}) {
  if (groups.length === 0)
    return query ? (
      <EmptyListState heading="該当する販売プランはありません">
        <p>販売プラン名の一部で検索してください。</p>
      </EmptyListState>
    ) : (
      <EmptyListState
        heading="販売プランがまだありません"
        action={{ content: '販売プランを作成', url: '/selling-plans/new' }}
      >
        <p>お届けの周期と割引を決めて、商品を定期便で販売できるようにしましょう。</p>
      </EmptyListState>
    )
  return (
    <IndexTable
      resourceName={{ singular: '販売プラン', plural: '販売プラン' }}
      itemCount={groups.length}
      headings={HEADINGS}
      selectable={false}
      loading={refreshing}
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
          <RowLink url={`/selling-plans/${group.id}`}>{group.name}</RowLink>
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
      <DateCell at={group.createdAt} zone="Asia/Tokyo" />
    </IndexTable.Row>
  )
}
