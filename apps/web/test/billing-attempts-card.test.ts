import { AppProvider } from '@shopify/polaris'
import ja from '@shopify/polaris/locales/ja.json'
import type { SubscriptionDetail } from '@teiki/contract'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { BillingAttemptsCard } from '../src/features/subscriptions/detail/history-cards.tsx'

type Attempt = SubscriptionDetail['billingAttempts'][number]
const attempt = (overrides: Partial<Attempt>): Attempt => ({
  id: '90000000001',
  createdAt: '2026-11-25T01:00:00Z',
  outcome: 'success',
  ready: true,
  errorCode: null,
  errorMessage: null,
  orderId: '5900000000001',
  ...overrides,
})

const render = (attempts: Attempt[]) =>
  renderToStaticMarkup(
    createElement(AppProvider, { i18n: ja }, createElement(BillingAttemptsCard, { attempts })),
  )

/** Each attempt's text from its date (Japan time) to the next attempt's date. */
const blocks = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .split(/(?=2026年11月\d+日 \d+:\d+)/)
    .slice(1)

describe('決済履歴', () => {
  it('shows a challenged attempt as 本人認証待ち with what it means, and a failed one with the reason in Japanese', () => {
    const html = render([
      attempt({ id: '3', outcome: 'challenged', orderId: null, createdAt: '2026-11-25T01:00:00Z' }),
      attempt({
        id: '2',
        createdAt: '2026-11-24T01:00:00Z',
        outcome: 'failed',
        errorCode: 'AUTHENTICATION_ERROR',
        errorMessage: 'The card requires authentication (3-D Secure).',
        orderId: null,
      }),
      attempt({ id: '1', createdAt: '2026-11-23T01:00:00Z' }),
    ])
    const found = blocks(html)
    expect(found).toHaveLength(3)
    const [challenged, failed, paid] = found
    expect(challenged).toContain('本人認証待ち')
    expect(challenged).toContain('お客様に認証用のリンクをメールでお送りしました')
    expect(challenged).not.toContain('失敗')
    expect(failed).toContain('失敗')
    expect(failed).toContain('カードの本人認証（3Dセキュア）でエラーが発生しました。')
    expect(failed).not.toContain('本人認証待ち')
    expect(paid).toContain('成功')
    expect(paid).not.toContain('本人認証')
    expect(html).toMatch(/Polaris-Badge--toneAttention[^>]*>.*本人認証待ち/)
  })
})
