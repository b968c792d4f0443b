import { AppProvider } from '@shopify/polaris'
import ja from '@shopify/polaris/locales/ja.json'
import type { OrderHistoryResponse } from '@teiki/contract'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { OrderHistoryBanner } from '../src/app/order-history-notice.tsx'

const partial: OrderHistoryResponse = {
  complete: false,
  completeFrom: '2026-09-28',
  message: '2026年9月28日以降の注文に基づく集計です',
  detail: 'アプリに全期間の注文の読み取り（read_all_orders）が許可されていないため…',
  readingOlderOrders: false,
}
const complete: OrderHistoryResponse = {
  complete: true,
  completeFrom: null,
  message: null,
  detail: null,
  readingOlderOrders: false,
}
const banner = (history: OrderHistoryResponse | null, shownFrom: string | null) =>
  renderToStaticMarkup(
    createElement(AppProvider, { i18n: ja }, createElement(OrderHistoryBanner, { history, shownFrom })),
  )
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')

describe('the order history banner of 分析, 継続率, LTV and 顧客詳細', () => {
  it('says from which date the figures are complete, and why, where a screen counts days before it', () => {
    const html = text(banner(partial, '2026-09-01'))
    expect(html).toContain('2026年9月28日以降の注文に基づく集計です')
    expect(html).toContain('read_all_orders')
    // Lifetime figures (顧客詳細) always reach before it.
    expect(text(banner(partial, null))).toContain('2026年9月28日以降の注文に基づく集計です')
  })

  it('says nothing when the screen counts only complete days, every order is held, or it is not known yet', () => {
    expect(text(banner(partial, '2026-09-28'))).not.toContain('集計です')
    expect(text(banner(complete, '2022-11-01'))).not.toContain('集計です')
    expect(text(banner(null, null))).not.toContain('集計です')
  })
})
