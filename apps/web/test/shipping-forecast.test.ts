import { AppProvider } from '@shopify/polaris'
import ja from '@shopify/polaris/locales/ja.json'
import type { ShippingForecast } from '@teiki/contract'
import { createElement, type ReactElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { DaysTable, Summary } from '../src/features/shipping/shipping-forecast-page.tsx'
import {
  dayLabel,
  parseDays,
  periodLabel,
  prefecturesText,
  slotsText,
  totalsLabel,
  unitsText,
} from '../src/features/shipping/shipping-format.ts'

const forecast: ShippingForecast = {
  from: '2026-11-28',
  to: '2026-11-29',
  carrier: 'ヤマト運輸',
  prepDays: 3,
  orders: 1234,
  units: 2500,
  days: [
    {
      date: '2026-11-28',
      orders: 1234,
      units: [
        { sku: 'GRANOLA-500-FIRST', quantity: 1200 },
        { sku: 'LEAFLET', quantity: 1200 },
        { sku: 'TEA-20', quantity: 60 },
        { sku: 'CUP', quantity: 40 },
      ],
      slots: [
        { slot: '19時〜21時', code: '1921', orders: 1000 },
        { slot: '指定なし', code: '', orders: 234 },
      ],
      prefectures: [
        { code: 'JP-13', name: '東京都', orders: 1200 },
        { code: 'JP-47', name: '沖縄県', orders: 34 },
      ],
    },
    { date: '2026-11-29', orders: 0, units: [], slots: [], prefectures: [] },
  ],
}

const render = (element: ReactElement) =>
  renderToStaticMarkup(createElement(AppProvider, { i18n: ja }, element))

describe('出荷予定 screen', () => {
  it('writes dates with the weekday, counts grouped, lists cut with ほか', () => {
    expect(dayLabel('2026-12-01')).toBe('2026年12月1日（火）')
    expect(periodLabel(forecast)).toBe('2026年11月28日（土）〜2026年11月29日（日）')
    expect(totalsLabel(forecast)).toBe('注文 1,234件・商品 2,500点')
    const day = forecast.days[0]!
    expect(unitsText(day)).toBe('GRANOLA-500-FIRST×1,200、LEAFLET×1,200、TEA-20×60、ほか1種')
    expect(slotsText(day)).toBe('19時〜21時（1921） 1,000件、指定なし 234件')
    expect(prefecturesText(day)).toBe('東京都 1,200件、沖縄県 34件')
    expect(unitsText(forecast.days[1]!)).toBe('—')
    expect(parseDays('31')).toBe(31)
    expect(parseDays('10')).toBe(7)
  })

  it('renders one row per day, an empty day with dashes, and the carrier and prep days', () => {
    const html = render(createElement(DaysTable, { forecast }))
    expect(html).toContain('2026年11月28日（土）')
    expect(html).toContain('1,234件')
    expect(html).toContain('19時〜21時（1921） 1,000件')
    expect(html).toContain('お届けなし')
    expect(html).toContain('2026年11月29日（日）')
    const summary = render(createElement(Summary, { forecast }))
    expect(summary).toContain('注文 1,234件・商品 2,500点')
    expect(summary).toContain('配送業者：ヤマト運輸')
    expect(summary).toContain('請求日から3日後にお届け')
  })
})
