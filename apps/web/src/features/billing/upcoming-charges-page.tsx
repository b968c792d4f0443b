import {
  Badge,
  BlockStack,
  Box,
  Button,
  Card,
  IndexTable,
  InlineStack,
  Page,
  Select,
  SkeletonBodyText,
  SkeletonDisplayText,
  Text,
} from '@shopify/polaris'
import type { UpcomingChargesResponse } from '@teiki/contract'
import { formatDateTimeJa, formatMoney } from '@teiki/domain'
import { useRef, useState } from 'react'
import { ListPagination } from '../../app/list-pagination.tsx'
import { EmptyListState, LoadErrorState } from '../../app/load-state.tsx'
import { RowLink } from '../../app/row-link.tsx'
import { useTestIds } from '../../app/use-test-ids.ts'
import { detailPath } from '../subscriptions/subscription-table.tsx'
import { UPCOMING_PAGE_SIZE } from './billing-api.ts'
import { RecentRunsCard } from './recent-runs-card.tsx'
import type { RunsState } from './runs-format.ts'
import {
  authenticationLabel,
  cycleLabel,
  DAYS_OPTIONS,
  emptyMessage,
  paginationOf,
  parseDays,
  periodLabel,
  shownData,
  totalLabel,
  type UpcomingDays,
  type UpcomingState,
} from './upcoming-format.ts'
import { useBillingRuns } from './use-billing-runs.ts'
import { useUpcomingCharges } from './use-upcoming-charges.ts'

type Charge = UpcomingChargesResponse['charges'][number]

const HEADINGS: [{ title: string }, ...{ title: string; alignment?: 'end' }[]] = [
  { title: '請求日時' },
  { title: '顧客名' },
  { title: '契約ID' },
  { title: '回数' },
  { title: '金額', alignment: 'end' },
]

const RESOURCE_NAME = { singular: '請求予定', plural: '請求予定' }

/** 今後の請求予定: contracts the billing run will charge in the next days, with totals. */
export default function UpcomingChargesPage() {
  const [query, setQuery] = useState<{ days: UpcomingDays; offset: number }>({ days: 7, offset: 0 })
  const { state, retry } = useUpcomingCharges(query.days, query.offset)
  const runs = useBillingRuns()
  return (
    <UpcomingChargesView
      days={query.days}
      offset={query.offset}
      state={state}
      runs={runs.state}
      onRunsRetry={runs.retry}
      // Another window starts again from the first page.
      onDaysChange={(days) => setQuery({ days, offset: 0 })}
      onOffsetChange={(offset) => setQuery((current) => ({ ...current, offset }))}
      onRetry={retry}
    />
  )
}

type ViewProps = {
  days: UpcomingDays
  offset: number
  state: UpcomingState
  onDaysChange: (days: UpcomingDays) => void
  onOffsetChange: (offset: number) => void
  onRetry: () => void
  /** The latest billing runs, shown below the charges (omitted: no card). */
  runs?: RunsState
  onRunsRetry?: () => void
}

export function UpcomingChargesView({
  days,
  offset,
  state,
  onDaysChange,
  onOffsetChange,
  onRetry,
  runs,
  onRunsRetry,
}: ViewProps) {
  const data = shownData(state)
  const pagination = paginationOf(state, offset)
  return (
    <Page title="今後の請求予定">
      <BlockStack gap="400">
        <Card>
          <BlockStack gap="300">
            <InlineStack gap="400" align="space-between" blockAlign="center">
              <div data-testid="upcoming-days-select">
                <Select
                  label="期間"
                  labelInline
                  options={DAYS_OPTIONS}
                  value={String(days)}
                  onChange={(value) => onDaysChange(parseDays(value))}
                />
              </div>
              {data ? (
                <Text as="p" tone="subdued">
                  {periodLabel(data)}（日本時間）
                </Text>
              ) : null}
            </InlineStack>
            <Totals state={state} />
          </BlockStack>
        </Card>
        <Card padding="0">
          <Results
            days={days}
            offset={offset}
            state={state}
            onRetry={onRetry}
            onFirstPage={() => onOffsetChange(0)}
          />
          {data && data.charges.length > 0 ? (
            <ListPagination
              testId="upcoming-pagination"
              range={pagination.range}
              hasPrevious={pagination.hasPrevious}
              onPrevious={() => onOffsetChange(Math.max(0, offset - UPCOMING_PAGE_SIZE))}
              hasNext={pagination.hasNext}
              onNext={() => onOffsetChange(offset + UPCOMING_PAGE_SIZE)}
            />
          ) : null}
        </Card>
        {runs ? <RecentRunsCard state={runs} onRetry={onRunsRetry ?? (() => {})} /> : null}
      </BlockStack>
    </Page>
  )
}

function Totals({ state }: { state: UpcomingState }) {
  const data = shownData(state)
  if (!data) {
    return state.status === 'loading' ? <SkeletonDisplayText size="medium" /> : null
  }
  if (data.totals.length === 0) return null
  return (
    <BlockStack gap="100">
      {data.totals.map((total) => (
        <div key={total.currencyCode} data-testid="upcoming-total">
          <Text as="p" variant="headingLg" tone={state.status === 'loading' ? 'subdued' : undefined}>
            {totalLabel(total)}
          </Text>
        </div>
      ))}
    </BlockStack>
  )
}

function Results({
  days,
  offset,
  state,
  onRetry,
  onFirstPage,
}: {
  days: number
  offset: number
  state: UpcomingState
  onRetry: () => void
  onFirstPage: () => void
}) {
  if (state.status === 'error') {
    return (
      <Box padding="400">
        <LoadErrorState title="請求予定を読み込めませんでした" message={state.message} onRetry={onRetry} />
      </Box>
    )
  }
  const data = shownData(state)
  if (!data) {
    return (
      <Box padding="400">
        <SkeletonBodyText lines={6} />
      </Box>
    )
  }
  if (state.status === 'success' && data.charges.length === 0) {
    // Past the end (charges were billed since the page was opened): back to the first page.
    if (offset > 0 && data.total > 0) {
      return (
        <Box padding="400">
          <BlockStack gap="200" inlineAlign="start">
            <Text as="p">このページに表示する請求予定はありません。</Text>
            <Button onClick={onFirstPage}>最初のページへ</Button>
          </BlockStack>
        </Box>
      )
    }
    return (
      <EmptyListState heading={emptyMessage(days)}>
        <p>請求日が近づいた契約がここに表示されます。</p>
      </EmptyListState>
    )
  }
  return <UpcomingTable charges={data.charges} isRefreshing={state.status === 'loading'} />
}

export function UpcomingTable({
  charges,
  isRefreshing,
}: {
  charges: readonly Charge[]
  isRefreshing: boolean
}) {
  const ref = useRef<HTMLDivElement>(null)
  useTestIds(ref, { 'tbody tr[id^="upcoming-"]': 'upcoming-row' })
  return (
    <div ref={ref} aria-busy={isRefreshing}>
      <IndexTable
        resourceName={RESOURCE_NAME}
        itemCount={charges.length}
        headings={HEADINGS}
        selectable={false}
        loading={isRefreshing}
      >
        {charges.map((charge, index) => (
          <ChargeRow
            key={`${charge.contractId}-${charge.nextBillingDate}`}
            charge={charge}
            position={index}
          />
        ))}
      </IndexTable>
    </div>
  )
}

function ChargeRow({ charge, position }: { charge: Charge; position: number }) {
  const deadline = authenticationLabel(charge)
  return (
    <IndexTable.Row id={`upcoming-${charge.contractId}-${position}`} position={position}>
      <IndexTable.Cell>
        <BlockStack gap="050">
          <Text as="span">{formatDateTimeJa(charge.nextBillingDate, 'Asia/Tokyo')}</Text>
          {deadline ? (
            <Text as="span" variant="bodySm" tone="subdued">
              {deadline}
            </Text>
          ) : null}
        </BlockStack>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Text as="span" fontWeight="medium">
          {charge.displayName || '（名前未登録）'}
        </Text>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <RowLink url={detailPath(charge.contractId)} primary numeric>
          {charge.contractId}
        </RowLink>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <InlineStack gap="200" blockAlign="center" wrap={false}>
          <Text as="span" numeric>
            {cycleLabel(charge.cycle)}
          </Text>
          {charge.isRetry ? <Badge tone="warning">再試行</Badge> : null}
          {deadline ? <Badge tone="attention">本人認証待ち</Badge> : null}
        </InlineStack>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Text as="span" alignment="end" numeric>
          {formatMoney(charge.amount.amount, charge.amount.currencyCode)}
        </Text>
      </IndexTable.Cell>
    </IndexTable.Row>
  )
}
