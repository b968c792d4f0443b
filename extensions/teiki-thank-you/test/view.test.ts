import { describe, expect, it } from 'vitest'
import { type Answer, blockView, dateJa, type ViewNode } from '../src/view.ts'

// The thank-you block's content (ADR 0039): what a buyer reads for each state of the answer.

/** The block's words, in order, as the buyer reads them. */
const words = (nodes: ViewNode[]): string[] =>
  nodes.flatMap((n) => n.children.flatMap((c) => (typeof c === 'string' ? [c] : words([c]))))

const contract = (over: Partial<Answer['contracts'][number]> = {}): Answer['contracts'][number] => ({
  contractId: '1',
  planName: '毎月お届け',
  firstDeliveryDate: '2026-12-03',
  deliveryTime: '19時〜21時',
  nextBillingDate: '2026-12-24',
  nextDeliveryDate: '2026-12-27',
  ...over,
})

describe('blockView', () => {
  it('a subscription: its first and next delivery with the slot, the next payment, then the message', () => {
    const view = blockView({
      kind: 'answer',
      answer: {
        message: 'ご注文ありがとうございます。\n\n次回もお楽しみに。',
        pending: false,
        contracts: [contract()],
      },
    })
    expect(words(view)).toEqual([
      '定期便のご案内',
      '毎月お届け',
      '初回のお届け: 2026年12月3日（19時〜21時）',
      '次回のお届け予定: 2026年12月27日（19時〜21時）',
      '次回のお支払い: 2026年12月24日',
      'ご注文ありがとうございます。',
      '次回もお楽しみに。',
    ])
  })

  it('指定なし at the cart, and a contract with no next order (the plan has ended) shows only its first', () => {
    const view = blockView({
      kind: 'answer',
      answer: {
        message: '',
        pending: false,
        contracts: [
          contract({
            firstDeliveryDate: null,
            deliveryTime: null,
            nextBillingDate: null,
            nextDeliveryDate: null,
          }),
        ],
      },
    })
    expect(words(view)).toEqual(['定期便のご案内', '毎月お届け', '初回のお届け: 日付指定なし'])
  })

  it('loading, still pending, given up: the buyer is told what is happening; nothing at all for nothing to show', () => {
    expect(words(blockView({ kind: 'loading' }))).toEqual(['定期便のご案内', 'お届け予定を確認しています…'])
    const pending = { message: 'ありがとう', pending: true, contracts: [] }
    expect(words(blockView({ kind: 'answer', answer: pending }))).toEqual([
      '定期便のご案内',
      'お届け予定を確認しています…',
      'ありがとう',
    ])
    expect(words(blockView({ kind: 'gave-up', answer: pending }))).toEqual([
      '定期便のご案内',
      'お届け予定は、ご注文確認メールでご確認ください。',
      'ありがとう',
    ])
    expect(blockView({ kind: 'gave-up', answer: null })).toEqual([])
    expect(blockView({ kind: 'answer', answer: { message: '', pending: false, contracts: [] } })).toEqual([])
  })

  it('dates read as the shop’s calendar day, unpadded', () => {
    expect(dateJa('2027-01-05')).toBe('2027年1月5日')
  })
})
