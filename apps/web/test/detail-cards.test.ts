import { AppProvider } from '@shopify/polaris'
import ja from '@shopify/polaris/locales/ja.json'
import type { SubscriptionDetail } from '@teiki/contract'
import { createElement, type ReactElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { ContractInfoCard } from '../src/features/subscriptions/detail/contract-info-card.tsx'
import { DeliveryCard, PaymentCard } from '../src/features/subscriptions/detail/customer-cards.tsx'
import { addressLines } from '../src/features/subscriptions/detail/detail-format.ts'
import { DiscountsCard } from '../src/features/subscriptions/detail/discount-card.tsx'
import { LinesCard } from '../src/features/subscriptions/detail/lines-card.tsx'
import { nextBillingText } from '../src/features/subscriptions/subscription-table.tsx'
import { detail } from './support/detail-fixture.ts'

const render = (element: ReactElement) =>
  renderToStaticMarkup(createElement(AppProvider, { i18n: ja }, element))
const props = (overrides: Partial<SubscriptionDetail> = {}, editable = true) => ({
  detail: { ...detail, ...overrides },
  reload: () => {},
  editable,
  disabled: false,
})

describe('cards (static render)', () => {
  it('contract info shows the delivery date, time slot, order count and the edit buttons', () => {
    const html = render(
      createElement(ContractInfoCard, props({ nextDeliveryDate: '2026-11-25', deliveryTime: '19-21' })),
    )
    expect(html).toContain('data-testid="contract-next-billing-date">2026年11月22日<')
    expect(html).toContain('data-testid="contract-next-delivery-date">2026年11月25日<')
    expect(html).toContain('data-testid="contract-delivery-time">19時〜21時<')
    expect(html).toContain('data-testid="contract-order-count">3回<')
    for (const field of [
      'next-billing-date',
      'next-delivery-date',
      'delivery-time',
      'interval',
      'order-count',
      'note',
    ]) {
      expect(html).toContain(`data-testid="edit-${field}"`)
    }
    expect(html).not.toContain('解約理由')
  })

  it('a cancelled contract shows its reason and only the order count stays editable', () => {
    const html = render(
      createElement(
        ContractInfoCard,
        props(
          {
            status: 'CANCELLED',
            cancellation: { reasonId: '3', reason: '価格が高い', cancelledAt: '2026-11-01T03:00:00Z' },
          },
          false,
        ),
      ),
    )
    expect(html).toContain('data-testid="contract-cancellation-reason"')
    expect(html).toContain('価格が高い')
    expect(html).toContain('2026年11月1日 12:00')
    expect(html).not.toContain('data-testid="edit-next-billing-date"')
    expect(html).toContain('data-testid="edit-order-count"')
  })

  it('lines: a row per line with its buttons, add-line, and the manual price badge', () => {
    const html = render(createElement(LinesCard, props({ priceManuallyChangedAt: '2026-11-01T03:00:00Z' })))
    expect(html).toContain('data-testid="line-row-line-1"')
    expect(html).toContain('data-testid="add-line"')
    expect(html).toContain('data-testid="remove-line"')
    expect(html).toContain('価格手動変更済み')
    const plain = render(createElement(LinesCard, props({}, false)))
    expect(plain).not.toContain('価格手動変更済み')
    expect(plain).not.toContain('data-testid="add-line"')
  })
})

describe('addressLines with a stored ISO province code', () => {
  it('shows the prefecture name', () => {
    const method = detail.deliveryMethod
    if (method.kind !== 'shipping') throw new Error('fixture')
    expect(addressLines({ ...method.address, province: 'JP-13' })[1]).toBe('東京都渋谷区神宮前1-2-3')
    expect(addressLines({ ...method.address, province: 'jp-01', city: '札幌市' })[1]).toBe(
      '北海道札幌市神宮前1-2-3',
    )
  })
})

describe('what 契約詳細 says (issue 22)', () => {
  /** Every button of the markup by its accessible name: aria-label, else its text. */
  const buttonNames = (html: string) =>
    [...html.matchAll(/<button\b([^>]*)>(.*?)<\/button>/g)].map(([, attributes, inner]) => {
      const label = /aria-label="([^"]*)"/.exec(attributes!)?.[1]
      return label ?? inner!.replace(/<[^>]+>/g, '').trim()
    })

  it('each edit button says which field it edits, and no two buttons share a name', () => {
    const html = [ContractInfoCard, DeliveryCard, PaymentCard, LinesCard, DiscountsCard]
      .map((card) => render(createElement(card, props({ nextDeliveryDate: '2026-11-25' }))))
      .join('')
    const names = buttonNames(html)
    expect(names).toEqual(
      expect.arrayContaining([
        '次回請求日を編集',
        '次回お届け予定日を編集',
        '配送時間帯を編集',
        '請求間隔を編集',
        '注文回数を編集',
        'メモを編集',
        '配送先を編集',
        '支払い方法を編集',
        'コーヒー豆（200g）の数量・価格を編集',
        'コーヒー豆（200g）を削除',
        '割引「WELCOME10」を削除',
      ]),
    )
    expect(names).not.toContain('編集')
    expect(new Set(names).size).toBe(names.length)
  })

  it.each(['CANCELLED', 'EXPIRED'] as const)('a %s contract shows no next dates', (status) => {
    const html = render(
      createElement(ContractInfoCard, props({ status, nextDeliveryDate: '2026-11-25' }, false)),
    )
    // The platform keeps the last planned dates on an ended contract: nothing happens on them.
    expect(html).toContain('data-testid="contract-next-billing-date">—<')
    expect(html).toContain('data-testid="contract-next-delivery-date">—<')
    expect(nextBillingText({ status, nextBillingDate: detail.nextBillingDate })).toBe('—')
    expect(nextBillingText({ status: 'PAUSED', nextBillingDate: detail.nextBillingDate })).toBe(
      '2026年11月22日',
    )
  })
})
