import { describe, expect, it } from 'vitest'
import {
  type CycleDiscount,
  type CycleLine,
  cycleRangeLabel,
  cycleSchedule,
  linePriceForCycle,
  linePriceRanges,
  priceInRanges,
  storefrontPlanPrices,
  storefrontPlanTiers,
} from '../src/index.ts'

// Issue 22: one function prices a contract line for any cycle, and its prices read as labelled
// ranges (1回目 / 2〜3回目 / 4回目以降).

const pct = (value: string, afterCycle = 0): CycleDiscount => ({
  adjustmentType: 'PERCENTAGE',
  adjustmentValue: value,
  afterCycle,
})

/** 回数割定期便 bought at ¥3,240: the platform holds its cycle-1 30% off; the app the rest. */
const multi: CycleLine = {
  currentPrice: '2268.0',
  pricingPolicy: { basePrice: '3240.0', cycleDiscounts: [pct('30')] },
  planRules: [
    { cycle: 1, adjustmentType: 'PERCENTAGE', adjustmentValue: '30' },
    { cycle: 2, adjustmentType: 'PERCENTAGE', adjustmentValue: '20' },
    { cycle: 4, adjustmentType: 'PERCENTAGE', adjustmentValue: '10' },
  ],
}
/** 初回20%オフ on ¥2,480: 20% on the first order, 10% from the second. */
const firstOrder: CycleLine = {
  currentPrice: '1984.0',
  pricingPolicy: { basePrice: '2480.0', cycleDiscounts: [pct('20'), pct('10', 1)] },
}
const jpy = { currencyCode: 'JPY' }
const labelled = (line: CycleLine, from = 1, manualPrices = false) =>
  linePriceRanges(line, { currencyCode: 'JPY', manualPrices }, from).map(
    (r) => `${cycleRangeLabel(r)} ¥${Number(r.price).toLocaleString('en-US')}`,
  )

describe('linePriceForCycle', () => {
  it('prices 回数割 by the app’s rules over the line’s policy, for any cycle', () => {
    expect([1, 2, 3, 4, 5, 12].map((n) => linePriceForCycle(multi, n, jpy))).toEqual([
      '2268',
      '2592',
      '2592',
      '2916',
      '2916',
      '2916',
    ])
  })

  it('prices fixed and recurring lines by their policy alone', () => {
    expect([1, 2, 3].map((n) => linePriceForCycle(firstOrder, n, jpy))).toEqual(['1984', '2232', '2232'])
    const fixed: CycleLine = {
      currentPrice: '1782',
      pricingPolicy: { basePrice: '1980', cycleDiscounts: [pct('10')] },
    }
    expect(linePriceForCycle(fixed, 7, jpy)).toBe('1782')
  })

  it('keeps the current price on every cycle for hand-set prices and lines without a policy', () => {
    expect(linePriceForCycle(multi, 2, { currencyCode: 'JPY', manualPrices: true })).toBe('2268')
    expect(linePriceForCycle({ currentPrice: '500.0', pricingPolicy: null }, 9, jpy)).toBe('500')
  })

  it('refuses a cycle below 1', () => {
    expect(() => linePriceForCycle(multi, 0, jpy)).toThrow(RangeError)
  })
})

describe('cycleSchedule', () => {
  it('cuts the cycles where a discount starts, one range per discount in force', () => {
    expect(cycleSchedule([pct('20'), pct('10', 1)])).toEqual([
      { from: 1, to: 1, discount: pct('20') },
      { from: 2, to: null, discount: pct('10', 1) },
    ])
    // Before the first discount: the base price; neighbours with the same discount are one range.
    expect(cycleSchedule([pct('10', 2), pct('10.0', 4)])).toEqual([
      { from: 1, to: 2, discount: null },
      { from: 3, to: null, discount: pct('10', 2) },
    ])
    expect(cycleSchedule([])).toEqual([{ from: 1, to: null, discount: null }])
  })
})

describe('linePriceRanges and cycleRangeLabel (the defects of issue 22)', () => {
  it('回数割 on ¥3,240 reads 1回目 ¥2,268 / 2〜3回目 ¥2,592 / 4回目以降 ¥2,916, not 毎回 ¥2,268', () => {
    expect(labelled(multi)).toEqual(['1回目 ¥2,268', '2〜3回目 ¥2,592', '4回目以降 ¥2,916'])
  })

  it('初回20%オフ labels the first order’s price 1回目, not 1回目以降', () => {
    expect(labelled(firstOrder)).toEqual(['1回目 ¥1,984', '2回目以降 ¥2,232'])
  })

  it('from the next order on (契約詳細): the ranges start at that order', () => {
    expect(labelled(multi, 2)).toEqual(['2〜3回目 ¥2,592', '4回目以降 ¥2,916'])
    expect(labelled(multi, 3)).toEqual(['3回目 ¥2,592', '4回目以降 ¥2,916'])
    expect(labelled(multi, 6)).toEqual(['6回目以降 ¥2,916'])
    expect(labelled(firstOrder, 2)).toEqual(['2回目以降 ¥2,232'])
  })

  it('one price for every order reads 毎回; hand-set prices read from the next order on', () => {
    const fixed: CycleLine = {
      currentPrice: '1782',
      pricingPolicy: { basePrice: '1980', cycleDiscounts: [pct('10')] },
    }
    expect(labelled(fixed)).toEqual(['毎回 ¥1,782'])
    expect(labelled(multi, 2, true)).toEqual(['2回目以降 ¥2,268'])
  })

  it('merges neighbouring ranges that cost the same (10% off then ¥198 off on ¥1,980)', () => {
    const line: CycleLine = {
      currentPrice: '1782',
      pricingPolicy: {
        basePrice: '1980',
        cycleDiscounts: [
          pct('10'),
          { adjustmentType: 'FIXED_AMOUNT', adjustmentValue: '198', afterCycle: 1 },
        ],
      },
    }
    expect(labelled(line)).toEqual(['毎回 ¥1,782'])
  })

  it('each range’s price is linePriceForCycle of every cycle in it', () => {
    const ranges = linePriceRanges(multi, jpy)
    for (let n = 1; n <= 10; n++) expect(priceInRanges(ranges, n)).toBe(linePriceForCycle(multi, n, jpy))
  })
})

describe('storefront tiers (teiki.plan_prices)', () => {
  it('回数割: three tiers in integers, 30% off as 7/10', () => {
    const platform = [pct('30')]
    expect(storefrontPlanTiers(platform, multi.planRules!)).toEqual([
      { from: 1, to: 1, kind: 'percentage', keep: 7, per: 10 },
      { from: 2, to: 3, kind: 'percentage', keep: 4, per: 5 },
      { from: 4, to: 0, kind: 'percentage', keep: 9, per: 10 },
    ])
  })

  it('amounts in Liquid’s hundredths, percentages with decimals reduced, the platform’s policy before the rules', () => {
    const tiers = storefrontPlanTiers(
      [pct('12.5')],
      [
        { cycle: 3, adjustmentType: 'FIXED_AMOUNT', adjustmentValue: '300' },
        { cycle: 5, adjustmentType: 'PRICE', adjustmentValue: '980' },
      ],
    )
    expect(tiers).toEqual([
      { from: 1, to: 2, kind: 'percentage', keep: 7, per: 8 },
      { from: 3, to: 4, kind: 'off', subunits: 30000 },
      { from: 5, to: 0, kind: 'price', subunits: 98000 },
    ])
  })

  it('lists only plans with app rules; the rounding unit follows the currency', () => {
    const value = storefrontPlanPrices(
      [
        { id: '11', platformDiscounts: [pct('10')], rules: [] },
        {
          id: '12',
          platformDiscounts: [],
          rules: [{ cycle: 2, adjustmentType: 'PERCENTAGE', adjustmentValue: '5' }],
        },
      ],
      'JPY',
    )
    expect(value).toEqual({
      unit: 100,
      plans: {
        '12': [
          { from: 1, to: 1, kind: 'base' },
          { from: 2, to: 0, kind: 'percentage', keep: 19, per: 20 },
        ],
      },
    })
    expect(storefrontPlanPrices([], 'USD').unit).toBe(1)
  })
})
