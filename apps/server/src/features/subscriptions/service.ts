import {
  isPlatformId,
  type LatestSubscription,
  type SearchSubscriptionsResponse,
  type SearchTotal,
  type SubscriptionRow,
  type SubscriptionStatus,
} from '@teiki/contract'
import { classifySearchInput } from '@teiki/domain'
import type { Db } from '../../db/pool.ts'
import { AppError, merchantDayRange } from '../../http/app-error.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { nameKey, phoneRev } from '../../sync/search-keys.ts'
import { createCountCache } from './count-cache.ts'
import {
  type ContractListRow,
  type CustomerFilter,
  countContracts,
  type ListFilter,
  listContracts,
} from './repo.ts'

type Page = { offset: number; limit: number }
type DateRange = { nextBillingDateFrom?: string; nextBillingDateTo?: string }

export type SearchParams = Page &
  DateRange & { statuses: SubscriptionStatus[]; contractId?: string; customerQuery?: string }

/** Where the total stops counting (tests lower it; the routes use SEARCH_COUNT_LIMIT). */
export type SearchOptions = { countLimit?: number }

/** GET /subscriptions/search: all contracts, or by contract id, or by customer input. */
export async function searchSubscriptions(
  db: Db,
  shop: ShopRow,
  params: SearchParams,
  opts: SearchOptions = {},
): Promise<SearchSubscriptionsResponse> {
  const filter = baseFilter(shop, params)
  if (params.contractId) filter.contractId = params.contractId
  if (params.customerQuery) {
    const customer = customerFilter(params.customerQuery)
    // Input that classifies as something other than a customer (e.g. digits) is answered by
    // the matching kind so the endpoint never silently returns everything.
    if ('contractId' in customer) filter.contractId = customer.contractId
    else if ('variantId' in customer) filter.variantId = customer.variantId
    else if (customer.filter) filter.customer = customer.filter
  }
  return page(db, filter, params, opts.countLimit ?? SEARCH_COUNT_LIMIT)
}

/** GET /subscriptions/search-variant-id: contracts with a line of this variant. */
export async function searchSubscriptionsByVariant(
  db: Db,
  shop: ShopRow,
  params: Page & { variantId: string; statuses: SubscriptionStatus[] },
  opts: SearchOptions = {},
): Promise<SearchSubscriptionsResponse> {
  const filter = baseFilter(shop, params)
  filter.variantId = params.variantId
  return page(db, filter, params, opts.countLimit ?? SEARCH_COUNT_LIMIT)
}

/**
 * GET /subscriptions/latest: the newest contract (spec §7; the platform's contract list is
 * newest first), as the list shows its rows; null when the shop has none (of these statuses).
 */
export async function latestSubscription(
  db: Db,
  shop: ShopRow,
  params: { statuses: SubscriptionStatus[] },
): Promise<LatestSubscription> {
  const filter = { ...baseFilter(shop, { ...params, offset: 0, limit: 1 }), fetch: 1 }
  const [row] = await listContracts(db, filter)
  return { subscription: row ? listRow(row) : null }
}

function baseFilter(
  shop: ShopRow,
  params: Page & DateRange & { statuses: SubscriptionStatus[] },
): ListFilter {
  const { nextBillingDateFrom: from, nextBillingDateTo: to } = params
  const reversed = '次回請求日の開始日は終了日以前の日付を指定してください。'
  const range = merchantDayRange(from, to, shop.iana_timezone, reversed)
  return {
    shopId: shop.id,
    statuses: params.statuses,
    nextBillingFrom: range.start,
    nextBillingBefore: range.endExclusive,
    order: range.start || range.endExclusive ? 'nextBilling' : 'newest',
    offset: params.offset,
    fetch: params.limit + 1,
  }
}

function customerFilter(
  input: string,
): { contractId: string } | { variantId: string } | { filter: CustomerFilter | null } {
  const kind = classifySearchInput(input)
  switch (kind.kind) {
    case 'all':
      return { filter: null }
    case 'contract':
      return { contractId: platformId(kind.contractId, '契約ID') }
    case 'variant':
      return { variantId: platformId(kind.variantId, 'バリエーションID') }
    case 'customer': {
      if (kind.mode === 'phone')
        return { filter: { mode: 'phone', phoneRevPrefix: phoneRev(kind.phone) ?? '' } }
      const term = kind.term.normalize('NFKC').trim()
      const digits = term.replace(/\D+/g, '')
      return {
        filter: {
          mode: 'any',
          emailPrefix: term.toLowerCase(),
          nameKeyPrefix: nameKey(term),
          firstNamePrefix: term.toLowerCase(),
          // "+81 90-1234-5678" style input: match the phone too when it carries enough digits.
          phoneRevPrefix: digits.length >= 7 ? phoneRev(digits) : null,
        },
      }
    }
  }
}

/** An id read from the search box: beyond the platform's range it names nothing (400, not a SQL error). */
function platformId(id: string, label: string): string {
  if (isPlatformId(id)) return id
  throw new AppError('INVALID_INPUT', `検索語を${label}として読みましたが、${label}の範囲外です。`)
}

/**
 * Where the count of a search stops (ADR 0004): the platform's own counts stop too and say
 * AT_LEAST; counting every contract of a 100k-contract shop on each page would cost more than
 * the page. 10,000 index entries are a millisecond or two.
 */
export const SEARCH_COUNT_LIMIT = 10_000

// One per process; keys start with the filter's shop id, so shops never see each other's counts.
const recentCounts = createCountCache()

/**
 * The total of a search. A page that is not full (or the first page, when it is all there is)
 * already tells it, so the count query only runs for lists with more pages, or for a page past
 * the end.
 */
async function searchTotal(
  db: Db,
  filter: ListFilter,
  params: Page,
  rows: readonly ContractListRow[],
  limit: number,
): Promise<SearchTotal> {
  const hasNextPage = rows.length > params.limit
  if (!hasNextPage && (rows.length > 0 || params.offset === 0)) {
    return { count: params.offset + rows.length, precision: 'EXACT' }
  }
  // Deep pages (past the limit) are counted by where they are: at least this far.
  const seen = params.offset + rows.length
  if (seen > limit) return { count: seen, precision: 'AT_LEAST' }
  // Paging and order do not change the count: one cached total serves every page of a list.
  const { offset: _offset, fetch: _fetch, order: _order, ...matching } = filter
  const counted = await recentCounts.get(`${JSON.stringify(matching)}|${limit}`, () =>
    countContracts(db, filter, limit),
  )
  return counted > limit ? { count: limit, precision: 'AT_LEAST' } : { count: counted, precision: 'EXACT' }
}

/** A mirror row as the list answers it (spec §3 "Search list row"). */
function listRow(row: ContractListRow): SubscriptionRow {
  const nextBillingDate = row.next_billing_date ? row.next_billing_date.toISOString() : null
  return {
    status: row.status,
    customerId: row.customer_id,
    displayName: row.customer_display_name,
    contractId: row.id,
    nextBillingDate,
    cursor: Buffer.from(`${nextBillingDate ?? ''}|${row.id}`).toString('base64url'),
  }
}

async function page(
  db: Db,
  filter: ListFilter,
  params: Page,
  countLimit: number,
): Promise<SearchSubscriptionsResponse> {
  const rows = await listContracts(db, filter)
  const total = await searchTotal(db, filter, params, rows, countLimit)
  const hasNextPage = rows.length > params.limit
  const visible = hasNextPage ? rows.slice(0, params.limit) : rows
  return {
    subscriptions: visible.map(listRow),
    pageInfo: { hasNextPage, hasPreviousPage: params.offset > 0 },
    offset: params.offset,
    limit: params.limit,
    total,
  }
}
