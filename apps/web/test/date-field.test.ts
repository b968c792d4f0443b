import { AppProvider, type AppProviderProps, DatePicker } from '@shopify/polaris'
import ja from '@shopify/polaris/locales/ja.json'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import {
  type DateBounds,
  dateText,
  fromPickerDate,
  japanToday,
  monthTitle,
  openingMonth,
  readTypedDate,
  toPickerDate,
} from '../src/app/date-field-model.ts'
import { POLARIS_JA_OVERRIDES } from '../src/app/polaris-ja.ts'

describe('days between the field and the picker', () => {
  it.each(['2026-11-24', '2027-01-01', '2028-02-29', '2026-12-31', '0099-03-04'])(
    '%s round-trips through the picker Date',
    (day) => {
      const date = toPickerDate(day)
      // DatePicker compares local days: the Date is that day's local midnight.
      expect([date.getFullYear(), date.getMonth() + 1, date.getDate(), date.getHours()]).toEqual([
        ...day.split('-').map(Number),
        0,
      ])
      expect(fromPickerDate(date)).toBe(day)
    },
  )

  it('today is the Japan day, whatever the zone', () => {
    expect(japanToday(new Date('2026-11-23T15:30:00Z'))).toBe('2026-11-24') // 0:30 in Tokyo
    expect(japanToday(new Date('2026-11-23T14:59:59Z'))).toBe('2026-11-23')
  })
})

describe('what the field shows', () => {
  it('the heading reads year then month', () => {
    expect(monthTitle(2026, 10)).toBe('2026年11月')
    expect(monthTitle(2027, 0)).toBe('2027年1月')
  })

  it('a day as 年月日; anything else as typed', () => {
    expect(dateText('2027-01-15')).toBe('2027年1月15日')
    expect(dateText('')).toBe('')
    expect(dateText('2027/1')).toBe('2027/1')
  })

  it.each<[string, string | undefined, { year: number; month: number }]>([
    ['2027-01-15', undefined, { year: 2027, month: 0 }], // the chosen day
    ['', '2026-12-03', { year: 2026, month: 11 }], // nothing chosen: the first allowed day
    ['', '2026-10-01', { year: 2026, month: 10 }], // an earlier bound: today
    ['', undefined, { year: 2026, month: 10 }],
    ['2027/1', undefined, { year: 2026, month: 10 }], // half typed: today
  ])('opens on the month of %j (min %j)', (value, min, month) => {
    expect(openingMonth(value, min, '2026-11-24')).toEqual(month)
  })
})

describe('readTypedDate', () => {
  it.each<[string, DateBounds, ReturnType<typeof readTypedDate>]>([
    ['', {}, { kind: 'empty' }],
    ['  ', {}, { kind: 'empty' }],
    ['2027/1/15', {}, { kind: 'date', date: '2027-01-15' }],
    ['2027年1月15日', { min: '2027-01-15' }, { kind: 'date', date: '2027-01-15' }], // the bound itself
    // A real day outside the bounds is handed on as the day, with why it is refused.
    [
      '2027年1月14日',
      { min: '2027-01-15' },
      { kind: 'outOfBounds', date: '2027-01-14', message: '2027年1月15日以降の日付を指定してください' },
    ],
    [
      '2027-02-01',
      { max: '2027-01-31' },
      { kind: 'outOfBounds', date: '2027-02-01', message: '2027年1月31日以前の日付を指定してください' },
    ],
    // Issue 22: a past 次回請求日 said 「…のように入力してください」, a message about the format.
    [
      '2020/1/1',
      { min: '2026-11-24', label: '次回請求日', minMeaning: '今日' },
      { kind: 'outOfBounds', date: '2020-01-01', message: '次回請求日には今日以降の日付を指定してください' },
    ],
    // Issue 22: a day that does not exist is named as such.
    ['2026/13/45', {}, { kind: 'invalid', message: '2026年13月45日は存在しない日付です' }],
    ['2027年2月30日', {}, { kind: 'invalid', message: '2027年2月30日は存在しない日付です' }],
    ['あした', {}, { kind: 'invalid', message: '日付は「2027年1月15日」のように入力してください' }],
  ])('%j %o', (text, bounds, expected) => {
    expect(readTypedDate(text, bounds)).toEqual(expected)
  })
})

describe('the calendar in Japanese', () => {
  const render = (i18n: AppProviderProps['i18n']) =>
    renderToStaticMarkup(
      createElement(
        AppProvider,
        { i18n },
        createElement(DatePicker, {
          month: 10,
          year: 2026,
          selected: toPickerDate('2026-11-24'),
          disableDatesBefore: toPickerDate('2026-11-22'),
        }),
      ),
    )

  it('one-character weekday headings over Polaris ja.json, full names for screen readers', () => {
    const html = render([POLARIS_JA_OVERRIDES, ja])
    const headings = [...html.matchAll(/<th aria-label="([^"]+)"[^>]*>.*?>([^<]+)<\/span><\/th>/g)]
    expect(headings.map((m) => m[2])).toEqual(['日', '月', '火', '水', '木', '金', '土'])
    expect(headings.map((m) => m[1])).toEqual([
      '日曜日',
      '月曜日',
      '火曜日',
      '水曜日',
      '木曜日',
      '金曜日',
      '土曜日',
    ])
    // ja.json alone crowds the grid with 月曜日.
    expect(render(ja)).toContain('>月曜日</span></th>')
  })

  it('greys out the days before the first allowed one', () => {
    const html = render([POLARIS_JA_OVERRIDES, ja])
    const disabled = [...html.matchAll(/<button[^>]*aria-disabled="true"[^>]*>.*?>(\d+)<\/span>/g)].map(
      (m) => m[1],
    )
    // November 2026: the 1st to the 21st, not the 22nd.
    expect(disabled).toEqual(Array.from({ length: 21 }, (_, i) => String(i + 1)))
  })
})
