import { Banner, BlockStack, Box, Button, Card, Page, Text } from '@shopify/polaris'
import { classifySearchInput } from '@teiki/domain'
import { type FormEvent, useCallback, useEffect, useMemo } from 'react'
import { useLocation } from 'react-router-dom'
import { ListPagination } from '../../app/list-pagination.tsx'
import { EmptyListState, LoadErrorState } from '../../app/load-state.tsx'
import { SearchField } from '../../app/search-field.tsx'
import { useAppNavigate } from '../../app/use-app-navigate.ts'
import { ExportButton } from './export/export-button.tsx'
import { type ListQuery, listPath, parseListQuery, rememberListPath, withSearch } from './list-query.ts'
import {
  buildSearchRequest,
  describeSearch,
  type FilterDateErrors,
  filterDateErrors,
  PAGE_SIZE,
} from './search-request.ts'
import { SubscriptionFilters } from './subscription-filters.tsx'
import { SubscriptionTable } from './subscription-table.tsx'
import { useDebouncedSearch } from './use-debounced-search.ts'
import { type SearchState, useSubscriptionSearch } from './use-subscription-search.ts'

const SEARCH_PLACEHOLDER = 'メールアドレス・電話番号・お名前・契約ID・バリエーションID（14桁）で検索'

/** Reserved height of the results (header + 10 rows), so the footer never jumps. */
const RESULTS_MIN_HEIGHT = '28rem'

/**
 * 定期購買契約: the search, its filters and the page live in the URL (list-query.ts), so Back
 * from a contract, a reload or a shared link shows the same list.
 */
export function SubscriptionListPage() {
  const location = useLocation()
  const navigate = useAppNavigate()
  const query = useMemo(() => parseListQuery(location.search), [location.search])
  const path = listPath(query)
  // Filter and page changes replace the entry: Back leaves the list rather than undoing them.
  const show = useCallback((next: ListQuery) => navigate(listPath(next), { replace: true }), [navigate])
  useEffect(() => rememberListPath(path), [path])

  const search = useDebouncedSearch(query.text, (text) => {
    // Enter on the text already searched keeps the page.
    if (text.trim() !== query.text.trim()) show(withSearch(query, { text }))
  })
  const classified = useMemo(() => classifySearchInput(query.text), [query.text])
  const { filters, offset } = query
  const dateErrors = useMemo(() => filterDateErrors(filters), [filters])
  const refused = dateErrors.from !== undefined || dateErrors.to !== undefined

  const request = useMemo(
    () => (refused ? null : buildSearchRequest(query.text, classified, filters, { offset })),
    [refused, query.text, classified, filters, offset],
  )
  const state = useSubscriptionSearch(request)
  const hint = refused ? null : describeSearch(query.text, classified, state.isValidating)

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    search.commitNow()
  }

  return (
    <Page title="定期購買契約" secondaryActions={<ExportButton filters={filters} searchText={query.text} />}>
      <Card padding="0">
        <Box padding="400">
          <BlockStack gap="300">
            <form onSubmit={onSubmit}>
              <SearchField
                id="subscription-search"
                testId="subscription-search"
                label="契約を検索"
                placeholder={SEARCH_PLACEHOLDER}
                search={search}
              />
            </form>
            <SubscriptionFilters
              filters={filters}
              dateErrors={dateErrors}
              onChange={(next) => show(withSearch(query, { filters: next }))}
            />
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
          {refused ? (
            <RefusedFilter errors={dateErrors} />
          ) : (
            <Results state={state} onFirstPage={() => show({ ...query, offset: 0 })} />
          )}
        </div>
        <ListPagination
          testId="subscription-pagination"
          {...(refused ? { range: null, hasPrevious: false, hasNext: false } : paginationProps(state))}
          onPrevious={() => show({ ...query, offset: Math.max(0, offset - PAGE_SIZE) })}
          onNext={() => show({ ...query, offset: offset + PAGE_SIZE })}
        />
      </Card>
    </Page>
  )
}

/**
 * A date filter that cannot be used: the list is not searched, and says why, rather than
 * showing every contract (or the previous answer) as if the filter had been applied.
 */
function RefusedFilter({ errors }: { errors: FilterDateErrors }) {
  return (
    <Box padding="400">
      <div data-testid="filter-refused">
        <Banner tone="critical" title="次回請求日の絞り込みを確認してください">
          <BlockStack gap="100">
            {errors.from ? <p>次回請求日（から）: {errors.from}</p> : null}
            {errors.to ? <p>次回請求日（まで）: {errors.to}</p> : null}
          </BlockStack>
        </Banner>
      </div>
    </Box>
  )
}

function Results({ state, onFirstPage }: { state: SearchState; onFirstPage: () => void }) {
  if (state.error && !state.isValidating) {
    return <LoadErrorState title="契約を読み込めませんでした" error={state.error} onRetry={state.retry} />
  }
  // While the next page or search loads, the previous answer stays (dimmed by the table).
  const rows = state.data?.subscriptions ?? null
  const settled = state.data !== undefined && !state.isValidating
  if (settled && state.data && rows?.length === 0) {
    // A page past the end (an old link, contracts gone since): the list itself is not empty.
    if (state.data.offset > 0 && state.data.total.count > 0) {
      return (
        <Box padding="400">
          <BlockStack gap="200" inlineAlign="start">
            <Text as="p">このページに表示する契約はありません。</Text>
            <Button onClick={onFirstPage}>最初のページへ</Button>
          </BlockStack>
        </Box>
      )
    }
    return (
      <EmptyListState heading="該当する契約はありません">
        <p>検索語句やステータス、次回請求日の条件を変えてお試しください。</p>
      </EmptyListState>
    )
  }
  return <SubscriptionTable rows={rows} isRefreshing={state.isValidating && rows !== null} />
}

function paginationProps(state: SearchState) {
  const data = state.data ?? null
  const isIdle = data !== null && !state.isValidating
  return {
    range: data
      ? {
          offset: data.offset,
          shown: data.subscriptions.length,
          total: data.total.count,
          totalIsLowerBound: data.total.precision === 'AT_LEAST',
        }
      : null,
    hasPrevious: isIdle && (data?.pageInfo.hasPreviousPage ?? false),
    hasNext: isIdle && (data?.pageInfo.hasNextPage ?? false),
  }
}
