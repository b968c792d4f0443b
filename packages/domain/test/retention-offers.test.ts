import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  offerDiscountTitle,
  offerLabel,
  offerProblem,
  type RetentionOffer,
  revenueKept,
} from '../src/index.ts'

// 解約防止オファー (issue 26): what a merchant may set, how the subscriber reads it, and the
// revenue an accepted offer keeps as 解約理由 reports it.

describe('offerProblem', () => {
  it('accepts the five kinds within their bounds', () => {
    const ok: RetentionOffer[] = [
      { kind: 'skip' },
      { kind: 'pause', cycles: 3 },
      { kind: 'percent', percent: 10, orders: 1 },
      { kind: 'amount', amount: 500, orders: 12 },
      { kind: 'swap', variantId: '44001', title: 'お試しサイズ' },
    ]
    for (const offer of ok) expect(offerProblem(offer), offer.kind).toBeNull()
  })

  it.each([
    [{ kind: 'pause', cycles: 4 }, 'お休みの回数は1〜3回で指定してください'],
    [{ kind: 'percent', percent: 0, orders: 1 }, '割引率は1〜100%の整数で指定してください'],
    [{ kind: 'percent', percent: 101, orders: 1 }, '割引率は1〜100%の整数で指定してください'],
    [{ kind: 'percent', percent: 10, orders: 13 }, '割引する回数は1〜12回で指定してください'],
    [{ kind: 'amount', amount: 0.5, orders: 1 }, '割引額は1円以上の整数で指定してください'],
    [{ kind: 'swap', variantId: 'gid://x', title: '' }, '変更先の商品を選んでください'],
  ] as Array<[RetentionOffer, string]>)('refuses %j in Japanese', (offer, message) => {
    expect(offerProblem(offer)).toBe(message)
  })
})

describe('offerLabel', () => {
  it('reads as the subscriber reads it, yen with its sign', () => {
    expect(offerLabel({ kind: 'percent', percent: 10, orders: 1 })).toBe('次回10%オフ')
    expect(offerLabel({ kind: 'amount', amount: 500, orders: 3 })).toBe('次回から3回 ¥500引き')
    expect(offerLabel({ kind: 'skip' })).toBe('次回のお届けをスキップ')
    expect(offerLabel({ kind: 'pause', cycles: 2 })).toBe('2回お休み')
    expect(offerLabel({ kind: 'swap', variantId: '1', title: 'お試しサイズ' })).toBe('「お試しサイズ」に変更')
    expect(offerDiscountTitle({ kind: 'percent', percent: 10, orders: 1 })).toBe(
      '解約防止オファー: 次回10%オフ',
    )
  })
})

describe('revenueKept', () => {
  it('is the committed orders at the price per order less the discount', () => {
    expect(revenueKept({ kind: 'percent', percent: 10, orders: 1 }, 3_980)).toBe(3_582)
    expect(revenueKept({ kind: 'amount', amount: 500, orders: 3 }, 1_980)).toBe(4_440)
    expect(revenueKept({ kind: 'skip' }, 1_980)).toBe(1_980)
    expect(revenueKept({ kind: 'amount', amount: 5_000, orders: 2 }, 1_980)).toBe(0)
  })

  it('never exceeds the undiscounted orders and is never negative (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 12 }),
        (amount, percent, orders) => {
          const kept = revenueKept({ kind: 'percent', percent, orders }, amount)
          expect(kept).toBeGreaterThanOrEqual(0)
          expect(kept).toBeLessThanOrEqual(amount * orders)
        },
      ),
    )
  })
})
