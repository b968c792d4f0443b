import { Banner, BlockStack, Box, Card, EmptyState, Page, Text, TextField } from '@shopify/polaris'
import { SearchIcon } from '@shopify/polaris-icons'
import { classifySearchInput } from '@teiki/domain'
import { type FormEvent, useMemo, useState } from 'react'
import { EMPTY_STATE_IMAGE } from '../../app/empty-state-image.ts'
import { LoadErrorBanner } from '../../app/load-error-banner.tsx'
import { ExportButton } from './export/export-modal.tsx'
import {
  buildSearchRequest,
  dateRangeError,
  describeSearch,
  PAGE_SIZE,
  rangeLabel,
  type SearchFilters,
} from './search-request.ts'
import { SubscriptionFilters } from './subscription-filters.tsx'
import { SubscriptionPagination } from './subscription-pagination.tsx'
import { SubscriptionTable } from './subscription-table.tsx'
import { useDebouncedSearch } from './use-debounced-search.ts'
import { type SearchState, useSubscriptionSearch } from './use-subscription-search.ts'

const SEARCH_PLACEHOLDER = 'メールアドレス・電話番号・お名前・契約ID・バリエーションID（14桁）で検索'

/** Reserved height of the results (header + 10 rows), so the footer never jumps. */
const RESULTS_MIN_HEIGHT = '28rem'

const NO_FILTERS: SearchFilters = { statuses: [], nextBillingDateFrom: '', nextBillingDateTo: '' }

export function SubscriptionListPage() {
  const search = useDebouncedSearch()
  const [filters, setFilters] = useState<SearchFilters>(NO_FILTERS)
  const [page, setPage] = useState({ key: '', offset: 0 })

  const classified = useMemo(() => classifySearchInput(search.committed), [search.committed])
  const dateError = dateRangeError(filters.nextBillingDateFrom, filters.nextBillingDateTo)

  // A new search or filter starts again from the first page.
  const queryKey = JSON.stringify([search.committed.trim(), filters])
  const offset = page.key === queryKey ? page.offset : 0

  const request = useMemo(
    () => (dateError ? null : buildSearchRequest(search.committed, classified, filters, { offset })),
    [dateError, search.committed, classified, filters, offset],
  )
  const { state, retry } = useSubscriptionSearch(request)
  const hint = describeSearch(search.committed, classified)

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    search.commitNow()
  }

  return (
    <Page title="定期購買契約" secondaryActions={<ExportButton />}>
      <Card padding="0">
        <Box padding="400">
          <BlockStack gap="300">
            <form onSubmit={onSubmit}>
              <div data-testid="subscription-search">
                <TextField
                  id="subscription-search"
                  label="契約を検索"
                  labelHidden
                  type="search"
                  autoComplete="off"
                  prefix={
                    <SearchIcon width={20} height={20} aria-hidden="true" style={{ display: 'block' }} />
                  }
                  placeholder={SEARCH_PLACEHOLDER}
                  value={search.value}
                  onChange={search.change}
                  clearButton
                  onClearButtonClick={search.clear}
                />
              </div>
            </form>
            <SubscriptionFilters filters={filters} dateError={dateError} onChange={setFilters} />
            <div style={{ minHeight: '1.25rem' }}>
              {hint ? (
                <Text as="p" variant="bodySm" tone="subdued">
                  {hint}
                </Text>
              ) : null}
            </div>
          </BlockStack>
        </Box>
        <div style={{ minHeight: RESULTS_MIN_HEIGHT }}>
          <Results state={state} onRetry={retry} />
        </div>
        <SubscriptionPagination
          {...paginationProps(state)}
          onPrevious={() => setPage({ key: queryKey, offset: Math.max(0, offset - PAGE_SIZE) })}
          onNext={() => setPage({ key: queryKey, offset: offset + PAGE_SIZE })}
        />
      </Card>
    </Page>
  )
}

function Results({ state, onRetry }: { state: SearchState; onRetry: () => void }) {
  if (state.status === 'error') {
    return (
      <Box padding="400">
        <LoadErrorBanner title="契約を読み込めませんでした" message={state.message} onRetry={onRetry} />
      </Box>
    )
  }
  const rows = state.status === 'success' ? state.data.subscriptions : (state.previous?.subscriptions ?? null)
  if (state.status === 'success' && rows?.length === 0) {
    return (
      <EmptyState heading="該当する契約はありません" image={EMPTY_STATE_IMAGE}>
        <p>検索語句やステータス、次回請求日の条件を変えてお試しください。</p>
      </EmptyState>
    )
  }
  return <SubscriptionTable rows={rows} isRefreshing={state.status === 'loading' && rows !== null} />
}

function paginationProps(state: SearchState) {
  const data = state.status === 'success' ? state.data : state.status === 'loading' ? state.previous : null
  const isIdle = state.status === 'success'
  return {
    label: data ? rangeLabel(data.offset, data.subscriptions.length) : null,
    hasPrevious: isIdle && (data?.pageInfo.hasPreviousPage ?? false),
    hasNext: isIdle && (data?.pageInfo.hasNextPage ?? false),
  }
}
