import { AppProvider } from '@shopify/polaris'
import ja from '@shopify/polaris/locales/ja.json'
import type { PixelConnection, PixelSettings } from '@teiki/contract'
import { createElement, type ReactElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { PixelCardView } from '../src/features/analytics/pixel-card.tsx'
import { generatedHistoryNote, pixelView } from '../src/features/analytics/pixel-model.ts'

const connection = (c: Partial<PixelConnection>): PixelConnection => ({
  status: 'missing',
  webPixelId: null,
  connectedAt: null,
  checkedAt: null,
  error: null,
  ...c,
})
const settings = (c: Partial<PixelConnection>): PixelSettings => ({
  accountID: 'k'.repeat(24),
  ingestUrl: 'https://teiki.example.com/pixel/events?shop=teiki-demo.myshopify.com',
  conversionTags: '[]',
  connection: connection(c),
})
const render = (element: ReactElement) =>
  renderToStaticMarkup(createElement(AppProvider, { i18n: ja }, element))
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')
const card = (data: PixelSettings | null, failure: string | null = null, connecting = false) =>
  render(createElement(PixelCardView, { data, connecting, failure, onConnect: () => {} }))
const buttons = (html: string) =>
  [...html.matchAll(/<button[^>]*>([\s\S]*?)<\/button>/g)].map((m) => text(m[1]!).trim())

describe('流入元: the web pixel badge and button', () => {
  it('connected: 接続済み with the date (Japan time), no button', () => {
    const view = pixelView(
      connection({
        status: 'connected',
        webPixelId: 'gid://shopify/WebPixel/1',
        connectedAt: '2026-11-23T16:00:00Z',
      }),
    )
    expect(view).toEqual({
      badge: { label: '接続済み', tone: 'success' },
      note: '2026年11月24日に接続しました',
      action: null,
    })
    const html = card(settings({ status: 'connected', connectedAt: '2026-11-23T16:00:00Z' }))
    expect(text(html)).toContain('接続済み')
    expect(buttons(html)).toEqual([])
  })

  it('missing: 未接続 and 接続する', () => {
    expect(pixelView(connection({}))).toEqual({
      badge: { label: '未接続', tone: 'attention' },
      note: null,
      action: '接続する',
    })
    expect(buttons(card(settings({})))).toEqual(['接続する'])
  })

  it('failed: 未接続, when it was tried, the reason with the platform words, and 再接続する', () => {
    const error =
      'Shopify がウェブピクセルの接続を受け付けませんでした：設定値が合いません。\n詳細: Settings accountID is too short.'
    const html = text(card(settings({ status: 'failed', checkedAt: '2026-11-24T01:00:00Z', error })))
    expect(html).toContain('未接続')
    expect(html).toContain('2026年11月24日に接続できませんでした')
    expect(html).toContain('Shopify がウェブピクセルの接続を受け付けませんでした：設定値が合いません。')
    expect(html).toContain('詳細: Settings accountID is too short.')
    expect(buttons(card(settings({ status: 'failed', error })))).toEqual(['再接続する'])
  })

  it("the button's own failure is shown, and the button waits while connecting", () => {
    const html = card(
      settings({}),
      'Shopify に接続できなかったため、ウェブピクセルの接続ができませんでした。',
      true,
    )
    expect(text(html)).toContain('Shopify に接続できなかったため')
    expect(html).toMatch(/<button[^>]*aria-busy="true"/)
  })

  it('loading: a skeleton and no button', () => {
    const html = card(null)
    expect(html).toContain('Polaris-SkeletonBodyText')
    expect(buttons(html)).toEqual([])
  })
})

describe('流入元: a generated history is labelled as such', () => {
  it('a period that starts on or before its last day says those figures are generated, not measured', () => {
    const note = generatedHistoryNote('2026-11-27', '2026-09-01')
    expect(note).toContain('2026年11月27日までのアクセス数と流入元は、デモ用に生成したデータです')
    expect(note).toContain('ウェブピクセルの計測ではありません')
    expect(generatedHistoryNote('2026-11-27', '2026-11-27')).not.toBeNull()
  })

  it('a period after it, or a shop without one, has no note: every figure is measured', () => {
    expect(generatedHistoryNote('2026-11-27', '2026-11-28')).toBeNull()
    expect(generatedHistoryNote(null, '2022-11-01')).toBeNull()
  })
})
