import { AppProvider } from '@shopify/polaris'
import ja from '@shopify/polaris/locales/ja.json'
import type { UpcomingChargesResponse } from '@teiki/contract'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { httpBillingApi, UPCOMING_PAGE_SIZE } from '../src/features/billing/billing-api.ts'
import { UpcomingChargesView } from '../src/features/billing/upcoming-charges-page.tsx'
import {
  authenticationLabel,
  DAYS_OPTIONS,
  paginationOf,
  parseDays,
  totalLabel,
  type UpcomingDays,
  type UpcomingState,
} from '../src/features/billing/upcoming-format.ts'
import { json, mockFetch } from './support/fetch-mock.ts'

const YEN = '\u00a5'

type Charge = UpcomingChargesResponse['charges'][number]
const charge = (overrides: Partial<Charge>): Charge => ({
  contractId: '42',
  customerId: '7',
  displayName: '山田 太郎',
  nextBillingDate: '2026-11-21T15:30:00Z',
  amount: { amount: '1980.0', currencyCode: 'JPY' },
  cycle: 3,
  isRetry: false,
  authenticationDeadline: null,
  ...overrides,
})

const response: UpcomingChargesResponse = {
  from: '2026-11-22',
  to: '2026-11-28',
  totals: [
    { currencyCode: 'JPY', amount: '123456', count: 45 },
    { currencyCode: 'USD', amount: '12.5', count: 2 },
  ],
  charges: [
    charge({}),
    charge({
      contractId: '43',
      displayName: '佐藤 花子',
      nextBillingDate: '2026-11-23T01:00:00Z',
      cycle: 1,
      isRetry: true,
      amount: { amount: '3200', currencyCode: 'JPY' },
    }),
    charge({ contractId: '44', displayName: '', cycle: 12, amount: { amount: '12.5', currencyCode: 'USD' } }),
  ],
  total: 47,
}

const http = mockFetch()

beforeEach(() => {
  // The table sets its row test ids in a layout effect, which React warns about on the server.
  const error = console.error
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    if (String(args[0]).includes('useLayoutEffect does nothing on the server')) return
    error(...args)
  })
})
afterEach(() => vi.restoreAllMocks())

const noop = () => {}
const render = (
  state: UpcomingState,
  { days = 7, offset = 0 }: { days?: UpcomingDays; offset?: number } = {},
) =>
  renderToStaticMarkup(
    createElement(
      AppProvider,
      { i18n: ja },
      createElement(UpcomingChargesView, {
        days,
        offset,
        state,
        onDaysChange: noop,
        onOffsetChange: noop,
        onRetry: noop,
      }),
    ),
  )
const success = (data: UpcomingChargesResponse = response): UpcomingState => ({ status: 'success', data })
/** The table's body rows (`<tr id="upcoming-…">`, which get data-testid="upcoming-row" in the browser). */
const rows = (html: string) =>
  [...html.matchAll(/<tr id="upcoming-[^"]*"[^>]*>(.*?)<\/tr>/g)].map((m) => m[1]!)
const cells = (row: string) =>
  [...row.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((m) =>
    m[1]!.replace(/<span class="[^"]*visuallyHidden">[^<]*<\/span>/g, '').replace(/<[^>]+>/g, ''),
  )
const totals = (html: string) =>
  [...html.matchAll(/data-testid="upcoming-total"[^>]*>(.*?)<\/div>/g)].map((m) =>
    m[1]!.replace(/<[^>]+>/g, ''),
  )

describe('request', () => {
  it('GETs /app-admin/billing/upcoming with days, offset and a page of 20', async () => {
    http.fetch.mockResolvedValueOnce(json(200, response))
    const data = await httpBillingApi.upcoming({ days: 14, offset: 20 })
    expect(http.fetch).toHaveBeenCalledTimes(1)
    const [url, init] = http.fetch.mock.calls[0]!
    expect(url).toBe('/app-admin/billing/upcoming?days=14&offset=20&limit=20')
    expect(init?.method).toBe('GET')
    expect(data).toEqual(response)
    expect(UPCOMING_PAGE_SIZE).toBe(20)
  })

  it('passes the server’s message on, and refuses an answer of the wrong shape', async () => {
    http.fetch.mockResolvedValueOnce(
      json(400, { error: { code: 'VALIDATION', message: '日数は31以下で指定してください' } }),
    )
    await expect(httpBillingApi.upcoming({ days: 7, offset: 0 })).rejects.toThrow(
      '日数は31以下で指定してください',
    )
    http.fetch.mockResolvedValueOnce(json(200, { charges: [] }))
    await expect(httpBillingApi.upcoming({ days: 7, offset: 0 })).rejects.toThrow(
      'サーバーの応答を読み取れませんでした',
    )
  })

  it('offers 7, 14 and 31 days; anything else falls back to 7', () => {
    expect(DAYS_OPTIONS).toEqual([
      { label: '今後7日間', value: '7' },
      { label: '今後14日間', value: '14' },
      { label: '今後31日間', value: '31' },
    ])
    expect(parseDays('14')).toBe(14)
    expect(parseDays('31')).toBe(31)
    expect(parseDays('30')).toBe(7)
  })
})

describe('totals', () => {
  it('shows one total per currency, the yen with its sign, and the period', () => {
    const html = render(success())
    expect(totals(html)).toEqual([`合計 ${YEN}123,456（45件）`, '合計 $12.50（2件）'])
    expect(html).toContain('2026年11月22日〜2026年11月28日')
  })

  it.each([
    [{ currencyCode: 'JPY', amount: '1980.0', count: 1 }, `合計 ${YEN}1,980（1件）`],
    [{ currencyCode: 'JPY', amount: '1234567', count: 1200 }, `合計 ${YEN}1,234,567（1,200件）`],
    [{ currencyCode: 'EUR', amount: '10', count: 3 }, '合計 10.00 (EUR)（3件）'],
  ])('%j reads %s', (total, label) => {
    expect(totalLabel(total)).toBe(label)
  })
})

describe('table', () => {
  it('shows date and time in Japan, name, contract link, cycle and amount per row', () => {
    const html = render(success())
    const found = rows(html)
    expect(found).toHaveLength(3)
    expect(cells(found[0]!)).toEqual(['2026年11月22日 0:30', '山田 太郎', '42', '3回目', `${YEN}1,980`])
    expect(cells(found[2]!)).toEqual(['2026年11月22日 0:30', '（名前未登録）', '44', '12回目', '$12.50'])
    expect(found[0]).toContain('href="/subscriptions/42"')
    expect(found[1]).toContain('href="/subscriptions/43"')
  })

  it('a retry row shows the 再試行 badge, the others do not', () => {
    const [first, retry, third] = rows(render(success()))
    expect(cells(retry!)).toEqual(['2026年11月23日 10:00', '佐藤 花子', '43', '1回目再試行', `${YEN}3,200`])
    expect(retry).toMatch(/Polaris-Badge[^"]*"[^>]*>.*再試行/)
    for (const plain of [first!, third!]) {
      expect(plain).not.toContain('再試行')
      expect(plain).not.toContain('Polaris-Badge')
    }
  })

  it('a charge awaiting 3-D Secure shows 本人認証待ち and its deadline in Japan time; the others neither', () => {
    const waiting = charge({
      contractId: '45',
      displayName: '鈴木 一郎',
      nextBillingDate: '2026-11-25T01:00:00Z',
      authenticationDeadline: '2026-11-28T01:00:00Z',
    })
    const html = render(success({ ...response, charges: [waiting, ...response.charges] }))
    const [first, ...others] = rows(html)
    expect(cells(first!)).toEqual([
      '2026年11月25日 10:00認証期限 2026年11月28日 10:00',
      '鈴木 一郎',
      '45',
      '3回目本人認証待ち',
      `${YEN}1,980`,
    ])
    expect(first).toMatch(/Polaris-Badge[^"]*"[^>]*>.*本人認証待ち/)
    for (const row of others) {
      expect(row).not.toContain('本人認証待ち')
      expect(row).not.toContain('認証期限')
    }
    expect(authenticationLabel(waiting)).toBe('認証期限 2026年11月28日 10:00')
    expect(authenticationLabel(charge({}))).toBeNull()
  })

  it('pages by 20 within the total the server reported', () => {
    expect(paginationOf(success(), 0)).toEqual({
      range: { offset: 0, shown: 3, total: 47 },
      hasPrevious: false,
      hasNext: true,
    })
    expect(paginationOf(success(), 44)).toEqual({
      range: { offset: 44, shown: 3, total: 47 },
      hasPrevious: true,
      hasNext: false,
    })
    // While the next page loads, the old rows stay but neither button can be pressed again.
    expect(paginationOf({ status: 'loading', previous: response }, 20)).toMatchObject({
      hasPrevious: false,
      hasNext: false,
    })
    // The counter every paged list shows (issue 22: this page said 「21〜23件目」).
    const html = render(success(), { offset: 20 })
    expect(html).toContain('21〜23件 / 全47件')
    expect(html).not.toContain('件目')
  })
})

describe('states', () => {
  it('loading: a skeleton, no rows, no empty message', () => {
    const html = render({ status: 'loading', previous: null })
    expect(html).toContain('Polaris-SkeletonBodyText')
    expect(rows(html)).toEqual([])
    expect(html).not.toContain('請求予定はありません')
    expect(totals(html)).toEqual([])
  })

  it('loading the next window keeps the previous rows and totals on screen', () => {
    const html = render({ status: 'loading', previous: response }, { days: 14 })
    expect(rows(html)).toHaveLength(3)
    expect(totals(html)).toHaveLength(2)
    expect(html).toContain('aria-busy="true"')
  })

  it.each([7, 14, 31] as const)('nothing due in %i days: the empty state names the window', (days) => {
    const empty = { ...response, totals: [], charges: [], total: 0 }
    const html = render(success(empty), { days })
    expect(html).toContain(`今後${days}日間の請求予定はありません`)
    expect(rows(html)).toEqual([])
    expect(totals(html)).toEqual([])
    expect(html).not.toContain('data-testid="upcoming-pagination"')
  })

  it('a page past the end offers the first page instead of saying there is nothing', () => {
    const html = render(success({ ...response, charges: [] }), { offset: 60 })
    expect(html).not.toContain('今後7日間の請求予定はありません')
    expect(html).toContain('このページに表示する請求予定はありません。')
    expect(html).toMatch(/<button[^>]*>(<[^>]+>)*最初のページへ/)
  })

  it('an error: a banner with the message and a 再試行 button', () => {
    const html = render({ status: 'error', message: 'サーバーに接続できませんでした' })
    expect(html).toContain('請求予定を読み込めませんでした')
    expect(html).toContain('サーバーに接続できませんでした')
    expect(html).toMatch(/<button[^>]*>(<[^>]+>)*再試行/)
    expect(rows(html)).toEqual([])
  })
})
