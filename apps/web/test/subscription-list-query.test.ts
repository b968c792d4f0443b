import { describe, expect, it } from 'vitest'
import { buildAppHref } from '../src/app/navigation.ts'
import {
  carriedFiltersNote,
  EMPTY_EXPORT_FORM,
  exportFormFromList,
} from '../src/features/subscriptions/export/export-job.ts'
import {
  EMPTY_LIST_QUERY,
  type ListQuery,
  lastListPath,
  listPath,
  parseListQuery,
  rememberListPath,
  withSearch,
} from '../src/features/subscriptions/list-query.ts'

const page2: ListQuery = {
  text: '山田',
  filters: {
    statuses: ['ACTIVE', 'PAUSED'],
    nextBillingDateFrom: '2026-11-01',
    nextBillingDateTo: '2026-11-30',
  },
  offset: 10,
}

describe('the list in the URL', () => {
  it('round-trips every part: text, statuses, dates and page', () => {
    const path = listPath(page2)
    expect(path).toBe('/?q=%E5%B1%B1%E7%94%B0&status=ACTIVE%2CPAUSED&from=2026-11-01&to=2026-11-30&page=2')
    expect(parseListQuery(path.slice(1))).toEqual(page2)
  })

  it('the whole list is plain /', () => {
    expect(listPath(EMPTY_LIST_QUERY)).toBe('/')
    expect(parseListQuery('')).toEqual(EMPTY_LIST_QUERY)
  })

  it('ignores the carried shop and secret, and keeps them in links', () => {
    const search = '?shop=teiki-demo.myshopify.com&secret=s3&status=FAILED&page=3'
    expect(parseListQuery(search)).toEqual({
      ...EMPTY_LIST_QUERY,
      filters: { ...EMPTY_LIST_QUERY.filters, statuses: ['FAILED'] },
      offset: 20,
    })
    // The page's own link: shop/secret from the current URL plus the list's parameters.
    expect(buildAppHref(listPath(parseListQuery(search)), search)).toBe(
      '/?shop=teiki-demo.myshopify.com&secret=s3&status=FAILED&page=3',
    )
  })

  it.each<[string, Partial<ListQuery>]>([
    ['status=ACTIVE,bogus,active', { filters: { ...EMPTY_LIST_QUERY.filters, statuses: ['ACTIVE'] } }], // unknown dropped, duplicates once
    // A typed day is read as one; a day that does not exist is kept, for the screen to refuse
    // (issue 22: dropping it listed every contract under a filter the merchant had typed).
    ['from=2026%2F1%2F5', { filters: { ...EMPTY_LIST_QUERY.filters, nextBillingDateFrom: '2026-01-05' } }],
    [
      'from=2026-02-30&to=2026%2F13%2F45',
      {
        filters: {
          ...EMPTY_LIST_QUERY.filters,
          nextBillingDateFrom: '2026-02-30',
          nextBillingDateTo: '2026/13/45',
        },
      },
    ],
    ['page=0', {}],
    ['page=-3', {}],
    ['page=2.5', {}],
    ['page=abc', {}],
    ['page=999999999', { offset: 1_000_000 }], // capped at the server's largest offset
  ])('reads what it can of %s', (search, expected) => {
    expect(parseListQuery(search)).toEqual({ ...EMPTY_LIST_QUERY, ...expected })
  })

  it('a new search or filter starts from the first page', () => {
    expect(withSearch(page2, { text: '佐藤' })).toEqual({ ...page2, text: '佐藤', offset: 0 })
    expect(withSearch(page2, { filters: EMPTY_LIST_QUERY.filters })).toEqual({
      ...EMPTY_LIST_QUERY,
      text: '山田',
    })
  })
})

describe('the detail page goes back to the list it came from', () => {
  const memory = () => {
    const items = new Map<string, string>()
    return {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
    }
  }

  it('remembers the last list path', () => {
    const storage = memory()
    expect(lastListPath(storage)).toBe('/')
    rememberListPath(listPath(page2), storage)
    expect(lastListPath(storage)).toBe(listPath(page2))
  })

  it('never goes anywhere but a list path', () => {
    const storage = memory()
    for (const evil of ['//evil.example/?x', 'https://evil.example/', '/plans']) {
      rememberListPath(evil, storage)
      expect(lastListPath(storage)).toBe('/')
    }
  })

  it('works without storage', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied')
      },
      setItem: () => {
        throw new Error('denied')
      },
    }
    expect(() => rememberListPath('/?page=2', broken)).not.toThrow()
    expect(lastListPath(broken)).toBe('/')
    expect(lastListPath(null)).toBe('/')
  })
})

describe('the export dialog starts from the list', () => {
  it("takes the list's statuses and next-billing dates", () => {
    expect(exportFormFromList(page2.filters)).toEqual({
      ...EMPTY_EXPORT_FORM,
      statuses: ['ACTIVE', 'PAUSED'],
      nextBillingDateStartDate: '2026-11-01',
      nextBillingDateEndDate: '2026-11-30',
    })
    expect(exportFormFromList(EMPTY_LIST_QUERY.filters)).toEqual(EMPTY_EXPORT_FORM)
  })

  it('says what it carried over and that the search text is not a filter', () => {
    expect(carriedFiltersNote(page2.filters, '山田')).toBe(
      '一覧の絞り込み（ステータス・次回請求日）を引き継いでいます。検索語句「山田」はエクスポートの条件に含まれません。',
    )
    expect(carriedFiltersNote(page2.filters, '')).toBe(
      '一覧の絞り込み（ステータス・次回請求日）を引き継いでいます。',
    )
    expect(carriedFiltersNote(EMPTY_LIST_QUERY.filters, ' ')).toBeNull()
  })
})
