import { describe, expect, it } from 'vitest'
import {
  buildSearchRequest,
  dateRangeError,
  describeSearch,
  rangeLabel,
  type SearchFilters,
} from '../src/features/subscriptions/search-request.ts'

const noFilters: SearchFilters = { statuses: [], nextBillingDateFrom: '', nextBillingDateTo: '' }
const filters: SearchFilters = {
  statuses: ['ACTIVE', 'PAUSED'],
  nextBillingDateFrom: '2026-11-01',
  nextBillingDateTo: '2026-11-30',
}

describe('buildSearchRequest', () => {
  it('all: the plain search with filters and paging', () => {
    expect(buildSearchRequest('', { kind: 'all' }, filters, { offset: 20 })).toEqual({
      path: '/subscriptions/search',
      params: {
        nextBillingDateFrom: '2026-11-01',
        nextBillingDateTo: '2026-11-30',
        statuses: 'ACTIVE,PAUSED',
        offset: 20,
        limit: 10,
      },
    })
  })

  it('no filters: dates and statuses are left out', () => {
    const { params } = buildSearchRequest('', { kind: 'all' }, noFilters, { offset: 0 })
    expect(params).toEqual({
      nextBillingDateFrom: undefined,
      nextBillingDateTo: undefined,
      statuses: undefined,
      offset: 0,
      limit: 10,
    })
  })

  it('variant: the variant endpoint, statuses kept, dates dropped', () => {
    const variantId = '12345678901234'
    expect(
      buildSearchRequest(` ${variantId} `, { kind: 'variant', variantId }, filters, { offset: 0 }),
    ).toEqual({
      path: '/subscriptions/search-variant-id',
      params: { variantId, statuses: 'ACTIVE,PAUSED', offset: 0, limit: 10 },
    })
  })

  it('contract: search with contractId', () => {
    const request = buildSearchRequest('123', { kind: 'contract', contractId: '123' }, noFilters, {
      offset: 0,
    })
    expect(request.path).toBe('/subscriptions/search')
    expect(request.params.contractId).toBe('123')
    expect(request.params.customerQuery).toBeUndefined()
  })

  it('customer: the original trimmed input, not the classified phone', () => {
    const request = buildSearchRequest(
      '  090-1234-5678 ',
      { kind: 'customer', mode: 'phone', phone: '9012345678' },
      noFilters,
      { offset: 10, limit: 10 },
    )
    expect(request.params.customerQuery).toBe('090-1234-5678')
    expect(request.params.offset).toBe(10)
  })
})

describe('describeSearch', () => {
  it.each([
    ['', { kind: 'all' } as const, null],
    ['123', { kind: 'contract', contractId: '123' } as const, '契約ID「123」で検索しています'],
    [
      '09012345678',
      { kind: 'customer', mode: 'phone', phone: '9012345678' } as const,
      '電話番号「09012345678」で顧客を検索しています',
    ],
  ])('%s', (raw, input, expected) => {
    expect(describeSearch(raw, input)).toBe(expected)
  })
})

describe('dateRangeError', () => {
  it.each([
    ['', '', null],
    ['2026-11-01', '', null],
    ['2026-11-01', '2026-11-01', null], // one-day range is fine
    ['2026-11-02', '2026-11-01', '終了日は開始日以降の日付を指定してください'],
  ])('%s..%s', (from, to, expected) => {
    expect(dateRangeError(from, to)).toBe(expected)
  })
})

describe('rangeLabel', () => {
  it.each<[number, number, { count: number; precision: 'EXACT' | 'AT_LEAST' }, string | null]>([
    [0, 10, { count: 123, precision: 'EXACT' }, '1〜10件 / 全123件'],
    [120, 3, { count: 123, precision: 'EXACT' }, '121〜123件 / 全123件'],
    [990, 10, { count: 1234, precision: 'EXACT' }, '991〜1,000件 / 全1,234件'], // thousands separators
    [0, 10, { count: 10000, precision: 'AT_LEAST' }, '1〜10件 / 全10,000件以上'], // the count stopped
    [0, 0, { count: 0, precision: 'EXACT' }, null],
  ])('offset %i, %i rows, %o', (offset, rows, total, expected) => {
    expect(rangeLabel(offset, rows, total)).toBe(expected)
  })
})
