import type { SubscriptionStatus } from '@teiki/contract'
import { type classifySearchInput, dateProblem, isValidCalendarDate } from '@teiki/domain'
import type { QueryParams } from '../../app/api.ts'

export type SearchInput = ReturnType<typeof classifySearchInput>

/** Default search page size (spec section 9). */
export const PAGE_SIZE = 10

export type SearchFilters = {
  statuses: readonly SubscriptionStatus[]
  /** `YYYY-MM-DD` or '' */
  nextBillingDateFrom: string
  /** `YYYY-MM-DD` or '' */
  nextBillingDateTo: string
}

/** The search route (after `GET `) and its query. */
export type SearchRequest = {
  path: '/subscriptions/search' | '/subscriptions/search-variant-id'
  params: QueryParams
}

/**
 * Maps a classified search input to the endpoint and query that answer it:
 * variant → search-variant-id; contract → search with contractId; customer → search with the
 * original trimmed input (the server classifies phone vs. free text again); all → search.
 */
export function buildSearchRequest(
  rawInput: string,
  input: SearchInput,
  filters: SearchFilters,
  page: { offset: number; limit?: number },
): SearchRequest {
  const paging = { offset: page.offset, limit: page.limit ?? PAGE_SIZE }
  const statuses = filters.statuses.length > 0 ? filters.statuses.join(',') : undefined

  if (input.kind === 'variant') {
    // The variant endpoint has no date filter.
    return {
      path: '/subscriptions/search-variant-id',
      params: { variantId: input.variantId, statuses, ...paging },
    }
  }

  const params: QueryParams = {
    nextBillingDateFrom: filters.nextBillingDateFrom || undefined,
    nextBillingDateTo: filters.nextBillingDateTo || undefined,
    statuses,
    ...paging,
  }
  if (input.kind === 'contract') params.contractId = input.contractId
  if (input.kind === 'customer') params.customerQuery = rawInput.trim()
  return { path: '/subscriptions/search', params }
}

/**
 * Tells the merchant how the input is searched, or null for the full list: while the answer is
 * awaited 「…を検索しています」, once it is there what the list shows (「…の契約です」), so
 * the line never says a search is running after it has ended.
 */
export function describeSearch(rawInput: string, input: SearchInput, searching: boolean): string | null {
  const term = rawInput.trim()
  switch (input.kind) {
    case 'all':
      return null
    case 'variant':
      return `バリエーションID「${input.variantId}」を含む契約を表示しています（次回請求日の絞り込みは適用されません）`
    case 'contract':
      return searching
        ? `契約ID「${input.contractId}」で検索しています`
        : `契約ID「${input.contractId}」の検索結果です`
    case 'customer': {
      const who =
        input.mode === 'phone'
          ? `電話番号「${term}」の顧客`
          : `「${input.term}」に一致する顧客（メールアドレス・電話番号・お名前）`
      return searching ? `${who}を検索しています` : `${who}の契約です`
    }
  }
}

/** Japanese error for an inverted date range, or null when the range is usable. */
export function dateRangeError(from: string, to: string): string | null {
  if (from && to && from > to) return '終了日は開始日以降の日付を指定してください'
  return null
}

export type FilterDateErrors = { from?: string; to?: string }

/**
 * Why the list cannot be filtered by these dates, per field (empty when it can): a date that is
 * not a day (「2026年13月45日は存在しない日付です」), else an inverted range. A list with such a
 * filter is refused, not shown unfiltered.
 */
export function filterDateErrors(filters: SearchFilters): FilterDateErrors {
  const problem = (value: string) => (value === '' || isValidCalendarDate(value) ? null : dateProblem(value))
  const from = problem(filters.nextBillingDateFrom)
  const to = problem(filters.nextBillingDateTo)
  if (from || to) return { ...(from ? { from } : {}), ...(to ? { to } : {}) }
  const range = dateRangeError(filters.nextBillingDateFrom, filters.nextBillingDateTo)
  return range ? { to: range } : {}
}
