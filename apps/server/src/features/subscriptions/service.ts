import { isPlatformId, type SearchSubscriptionsResponse, type SubscriptionStatus } from '@teiki/contract'
import { classifySearchInput, zonedDayRange } from '@teiki/domain'
import type { Db } from '../../db/pool.ts'
import { AppError } from '../../http/app-error.ts'
import { nameKey, phoneRev } from '../customers/search-keys.ts'
import type { ShopRow } from '../shops/repo.ts'
import { type ContractListRow, type CustomerFilter, type ListFilter, listContracts } from './repo.ts'

type Page = { offset: number; limit: number }
type DateRange = { nextBillingDateFrom?: string; nextBillingDateTo?: string }

export type SearchParams = Page &
  DateRange & { statuses: SubscriptionStatus[]; contractId?: string; customerQuery?: string }

/** GET /subscriptions/search: all contracts, or by contract id, or by customer input. */
export async function searchSubscriptions(
  db: Db,
  shop: ShopRow,
  params: SearchParams,
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
  return page(await listContracts(db, filter), params)
}

/** GET /subscriptions/search-variant-id: contracts with a line of this variant. */
export async function searchSubscriptionsByVariant(
  db: Db,
  shop: ShopRow,
  params: Page & { variantId: string; statuses: SubscriptionStatus[] },
): Promise<SearchSubscriptionsResponse> {
  const filter = baseFilter(shop, params)
  filter.variantId = params.variantId
  return page(await listContracts(db, filter), params)
}

function baseFilter(
  shop: ShopRow,
  params: Page & DateRange & { statuses: SubscriptionStatus[] },
): ListFilter {
  if (
    params.nextBillingDateFrom &&
    params.nextBillingDateTo &&
    params.nextBillingDateFrom > params.nextBillingDateTo
  ) {
    throw new AppError('INVALID_INPUT', '次回請求日の開始日は終了日以前の日付を指定してください。')
  }
  let range: ReturnType<typeof zonedDayRange>
  try {
    range = zonedDayRange(params.nextBillingDateFrom, params.nextBillingDateTo, shop.iana_timezone)
  } catch {
    throw new AppError('INVALID_INPUT', '存在しない日付が指定されました。')
  }
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

function page(rows: ContractListRow[], params: Page): SearchSubscriptionsResponse {
  const hasNextPage = rows.length > params.limit
  const visible = hasNextPage ? rows.slice(0, params.limit) : rows
  return {
    subscriptions: visible.map((row) => {
      const nextBillingDate = row.next_billing_date ? row.next_billing_date.toISOString() : null
      return {
        status: row.status,
        customerId: row.customer_id,
        displayName: row.customer_display_name,
        contractId: row.id,
        nextBillingDate,
        cursor: Buffer.from(`${nextBillingDate ?? ''}|${row.id}`).toString('base64url'),
      }
    }),
    pageInfo: { hasNextPage, hasPreviousPage: params.offset > 0 },
    offset: params.offset,
    limit: params.limit,
  }
}
