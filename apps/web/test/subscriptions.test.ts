import { describe, expect, it } from 'vitest'
import {
  buildSearchRequest,
  dateRangeError,
  describeSearch,
  filterDateErrors,
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
    ['', { kind: 'all' } as const, null, null],
    [
      '123',
      { kind: 'contract', contractId: '123' } as const,
      '契約ID「123」で検索しています',
      '契約ID「123」の検索結果です',
    ],
    [
      '09012345678',
      { kind: 'customer', mode: 'phone', phone: '9012345678' } as const,
      '電話番号「09012345678」の顧客を検索しています',
      '電話番号「09012345678」の顧客の契約です',
    ],
    [
      ' 山田 ',
      { kind: 'customer', mode: 'any', term: '山田' } as const,
      '「山田」に一致する顧客（メールアドレス・電話番号・お名前）を検索しています',
      '「山田」に一致する顧客（メールアドレス・電話番号・お名前）の契約です',
    ],
  ])('%j: while searching, then once answered', (raw, input, searching, answered) => {
    expect(describeSearch(raw, input, true)).toBe(searching)
    // Issue 22: the hint said 「…を検索しています」 after the answer was on screen.
    expect(describeSearch(raw, input, false)).toBe(answered)
    if (answered) expect(answered).not.toContain('検索しています')
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

describe('filterDateErrors: a bad filter date is refused, never dropped', () => {
  const filters = (from: string, to: string) => ({
    statuses: [],
    nextBillingDateFrom: from,
    nextBillingDateTo: to,
  })
  it.each<[string, string, ReturnType<typeof filterDateErrors>]>([
    ['', '', {}],
    ['2026-12-01', '2026-12-31', {}],
    ['2026/13/45', '', { from: '2026年13月45日は存在しない日付です' }],
    ['', '2027-02-29', { to: '2027年2月29日は存在しない日付です' }],
    ['あした', '', { from: '日付は「2027年1月15日」のように入力してください' }],
    ['2026-12-31', '2026-12-01', { to: '終了日は開始日以降の日付を指定してください' }],
  ])('%j..%j', (from, to, expected) => {
    expect(filterDateErrors(filters(from, to))).toEqual(expected)
  })
})
