import { AppProvider } from '@shopify/polaris'
import ja from '@shopify/polaris/locales/ja.json'
import type { RetentionOffers } from '@teiki/contract'
import { createElement, type ReactElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { OfferFields } from '../src/features/cancellation-reasons/offer-modal.tsx'
import {
  type OfferDraft,
  saveRetentionOffer,
  toOfferBody,
  toOfferDraft,
} from '../src/features/cancellation-reasons/retention-offers.ts'
import { RetentionOffersView } from '../src/features/cancellation-reasons/retention-offers-card.tsx'
import { failure, json, mockFetch } from './support/fetch-mock.ts'

const http = mockFetch()

/** Two reasons: one with a 10% offer (2 asked, 2 shown, 1 kept), one without. */
const offers: RetentionOffers = {
  reasons: [
    {
      reasonId: '1',
      reason: '価格が高い',
      offer: { kind: 'percent', percent: 10, orders: 1 },
      offerLabel: '次回10%オフ',
      asked: 2,
      offered: 2,
      kept: 1,
      revenueKept: 3582,
    },
    {
      reasonId: '2',
      reason: '品質に不満',
      offer: null,
      offerLabel: null,
      asked: 1,
      offered: 0,
      kept: 0,
      revenueKept: 0,
    },
  ],
  totals: { asked: 3, offered: 2, kept: 1, revenueKept: 3582 },
}

const withPolaris = (element: ReactElement) =>
  renderToStaticMarkup(createElement(AppProvider, { i18n: ja }, element))
const noop = () => {}
const text = (html: string) => html.replace(/<[^>]+>/g, '')
/** Each table row's cells as text (header, body and totals rows alike). */
const rows = (html: string) =>
  [...html.matchAll(/<tr[^>]*>(.*?)<\/tr>/g)].map((tr) =>
    [...tr[1]!.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((cell) => text(cell[1]!)),
  )
const view = (state: Parameters<typeof RetentionOffersView>[0]['state']) =>
  withPolaris(createElement(RetentionOffersView, { state, onEdit: noop, onRetry: noop }))
const fields = (draft: OfferDraft) => text(withPolaris(createElement(OfferFields, { draft, change: noop })))

describe('解約防止オファー card', () => {
  it('lists each reason’s offer and results, and the totals', () => {
    const html = view({ status: 'done', data: offers })
    expect(html).toContain('解約防止オファー')
    const table = rows(html)
    expect(table).toContainEqual([
      '解約理由',
      'オファー',
      '申請',
      'オファー提示',
      '継続',
      '継続率',
      '継続による売上',
      '',
    ])
    expect(table).toContainEqual([
      '価格が高い',
      '次回10%オフ',
      '2件',
      '2件',
      '1件',
      '50.0%',
      '¥3,582',
      'オファーを設定',
    ])
    // No offer, none shown: the rate is a dash, not 0%.
    expect(table).toContainEqual(['品質に不満', 'なし', '1件', '0件', '0件', '—', '¥0', 'オファーを設定'])
    expect(table).toContainEqual(['合計', '', '3件', '2件', '1件', '50.0%', '¥3,582', ''])
    expect(html).toContain('aria-label="「価格が高い」のオファーを設定"')
  })

  it('says what to do without reasons, shows a skeleton while loading and the message on failure', () => {
    expect(view({ status: 'done', data: { reasons: [], totals: offers.totals } })).toContain(
      '解約理由を登録すると、理由ごとにオファーを設定できます。',
    )
    expect(view({ status: 'loading' })).not.toContain('<table')
    const failed = view({ status: 'error', message: 'サーバーに接続できませんでした' })
    expect(failed).toContain('サーバーに接続できませんでした')
    expect(failed).toContain('再試行')
  })
})

describe('オファーを設定', () => {
  const none = toOfferDraft(null)

  it('PUTs the reason’s offer and answers every reason as the server now has them', async () => {
    const updated: RetentionOffers = {
      ...offers,
      reasons: [
        offers.reasons[0]!,
        {
          ...offers.reasons[1]!,
          offer: { kind: 'amount', amount: 300, orders: 2 },
          offerLabel: '次回から2回 ¥300引き',
        },
      ],
    }
    http.answer(json(200, updated))
    const result = await saveRetentionOffer('2', { ...none, kind: 'amount', amount: '300', orders: ' 2' })
    expect(http.calls()).toEqual([
      expect.objectContaining({
        url: '/app-admin/retention-offers/2',
        method: 'PUT',
        body: { offer: { kind: 'amount', amount: 300, orders: 2 } },
      }),
    ])
    expect(result).toEqual({ saved: updated })
  })

  it.each<[string, OfferDraft, unknown]>([
    ['なし', { ...none, percent: '50' }, null],
    ['skip', { ...none, kind: 'skip' }, { kind: 'skip' }],
    ['pause', { ...none, kind: 'pause', cycles: '2' }, { kind: 'pause', cycles: 2 }],
    [
      'percent',
      { ...none, kind: 'percent', percent: '15', orders: '3' },
      { kind: 'percent', percent: 15, orders: 3 },
    ],
    // The server takes the variant's title from the shop's catalogue.
    ['swap', { ...none, kind: 'swap', variantId: ' 4711 ' }, { kind: 'swap', variantId: '4711', title: '' }],
  ])('%s is sent as %j', (_, draft, offer) => {
    expect(toOfferBody(draft)).toEqual({ body: { offer } })
  })

  it('shows the server’s 400 message', async () => {
    const message = '割引率は1〜100%の整数で指定してください'
    http.answer(failure(400, 'VALIDATION', message))
    expect(await saveRetentionOffer('1', { ...none, kind: 'percent', percent: '10' })).toEqual({
      problem: message,
    })
  })

  it.each<[OfferDraft, string]>([
    [{ ...none, kind: 'percent', percent: '150' }, '割引率は1〜100%の整数で指定してください'],
    [{ ...none, kind: 'pause', cycles: '4' }, 'お休みの回数は1〜3回で指定してください'],
    [{ ...none, kind: 'amount', amount: '' }, '割引額は1円以上の整数で指定してください'],
    [{ ...none, kind: 'swap', variantId: '' }, '変更先の商品を選んでください'],
  ])('%j is refused before any request: %s', async (draft, problem) => {
    expect(await saveRetentionOffer('1', draft)).toEqual({ problem })
    expect(http.calls()).toEqual([])
  })

  it('opens on the reason’s current offer', () => {
    expect(toOfferDraft(offers.reasons[0]!.offer)).toMatchObject({
      kind: 'percent',
      percent: '10',
      orders: '1',
    })
    expect(toOfferDraft({ kind: 'swap', variantId: '9', title: '珈琲' })).toMatchObject({
      kind: 'swap',
      variantId: '9',
    })
    expect(toOfferDraft(null).kind).toBe('none')
  })

  it('shows the kinds, the fields of the chosen one and the offer as the subscriber reads it', () => {
    const kinds = fields(none)
    for (const label of [
      'なし',
      '次回のお届けをスキップ',
      'お休み（1〜3回）',
      '割引率（%）と回数',
      '割引額（円）と回数',
      '商品の変更（バリエーションID）',
    ]) {
      expect(kinds, label).toContain(label)
    }
    expect(kinds).not.toContain('割引する回数')
    const percent = fields({ ...none, kind: 'percent', percent: '10', orders: '3' })
    expect(percent).toContain('割引率')
    expect(percent).toContain('割引する回数')
    expect(percent).toContain('お客様への表示: 次回から3回10%オフ')
    expect(fields({ ...none, kind: 'pause', cycles: '2' })).toContain('お休みする回数')
    expect(fields({ ...none, kind: 'swap' })).toContain('変更先のバリエーションID')
  })
})
