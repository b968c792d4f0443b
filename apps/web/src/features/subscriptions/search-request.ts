import type { SearchTotal, SubscriptionStatus } from '@teiki/contract'
import { type classifySearchInput, formatNumber } from '@teiki/domain'
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

export type SearchRequest = { path: string; params: QueryParams }

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

/** Tells the merchant how the input is being searched, or null for the full list. */
export function describeSearch(rawInput: string, input: SearchInput): string | null {
  switch (input.kind) {
    case 'all':
      return null
    case 'variant':
      return `バリエーションID「${input.variantId}」を含む契約を表示しています（次回請求日の絞り込みは適用されません）`
    case 'contract':
      return `契約ID「${input.contractId}」で検索しています`
    case 'customer':
      return input.mode === 'phone'
        ? `電話番号「${rawInput.trim()}」で顧客を検索しています`
        : `「${input.term}」に一致する顧客（メールアドレス・電話番号・お名前）を検索しています`
  }
}

/** Japanese error for an inverted date range, or null when the range is usable. */
export function dateRangeError(from: string, to: string): string | null {
  if (from && to && from > to) return '終了日は開始日以降の日付を指定してください'
  return null
}

/**
 * 「11〜20件 / 全123件」 for the rows shown and the total the server counted (「全10,000件以上」 when it
 * stopped counting), or null when there are no rows.
 */
export function rangeLabel(offset: number, rowCount: number, total: SearchTotal): string | null {
  if (rowCount <= 0) return null
  const all = `全${formatNumber(total.count)}件${total.precision === 'AT_LEAST' ? '以上' : ''}`
  return `${formatNumber(offset + 1)}〜${formatNumber(offset + rowCount)}件 / ${all}`
}
