import { describe, expect, it } from 'vitest'
import {
  customCycleDiscountProblem,
  type DiscountType,
  discountTypeLabel,
  planDiscountType,
} from '../src/index.ts'

describe('planDiscountType (spec §4: from the number of pricing policies; app rules make it multi)', () => {
  it.each<[number, number, DiscountType]>([
    [0, 0, 'noDiscount'],
    [1, 0, 'fixedDiscount'],
    [2, 0, 'recurringDiscount'],
    // Custom cycle discounts kept by the app: multi, whatever the platform holds.
    [0, 1, 'recurringMultiDiscount'],
    [1, 3, 'recurringMultiDiscount'],
    [2, 12, 'recurringMultiDiscount'],
  ])('%i policies, %i app rules → %s', (policies, rules, expected) => {
    expect(planDiscountType(policies, rules)).toBe(expected)
    expect(discountTypeLabel[expected]).toMatch(/割引/)
  })

  it.each([[3], [-1], [1.5]])('refuses %d policies', (count) => {
    expect(() => planDiscountType(count)).toThrow(RangeError)
  })

  it('refuses a negative rule count', () => {
    expect(() => planDiscountType(0, -1)).toThrow(RangeError)
  })
})

describe('customCycleDiscountProblem', () => {
  type Rule = { cycle: number | null; value: number | null }
  it.each<[string, 'PERCENTAGE' | 'FIXED_AMOUNT' | null, Rule[], string | null]>([
    [
      'three cycles of percentages',
      'PERCENTAGE',
      [
        { cycle: 1, value: 20 },
        { cycle: 2, value: 15 },
        { cycle: 3, value: 10 },
      ],
      null,
    ],
    ['100% (boundary)', 'PERCENTAGE', [{ cycle: 1, value: 100 }], null],
    ['100.01%', 'PERCENTAGE', [{ cycle: 1, value: 100.01 }], '1回目の割引は100％以下で入力してください'],
    ['an amount above 100 yen is fine', 'FIXED_AMOUNT', [{ cycle: 2, value: 500 }], null],
    ['value 0 (boundary)', 'FIXED_AMOUNT', [{ cycle: 4, value: 0 }], null],
    ['negative value', 'FIXED_AMOUNT', [{ cycle: 4, value: -1 }], '4回目の割引の値は0以上で入力してください'],
    ['missing value', 'FIXED_AMOUNT', [{ cycle: 4, value: null }], '4回目の割引の値を入力してください'],
    ['cycle 1 (boundary)', 'PERCENTAGE', [{ cycle: 1, value: 5 }], null],
    ['cycle 0', 'PERCENTAGE', [{ cycle: 0, value: 5 }], '回数は1以上の整数で入力してください'],
    ['cycle 1.5', 'PERCENTAGE', [{ cycle: 1.5, value: 5 }], '回数は1以上の整数で入力してください'],
    ['cycle missing', 'PERCENTAGE', [{ cycle: null, value: 5 }], '回数は1以上の整数で入力してください'],
    [
      'the same cycle twice',
      'PERCENTAGE',
      [
        { cycle: 2, value: 5 },
        { cycle: 2, value: 6 },
      ],
      '2回目の割引が重複しています',
    ],
    ['no rule', 'PERCENTAGE', [], '回数ごとの割引を1件以上入力してください'],
    ['no value type', null, [{ cycle: 1, value: 5 }], '割引の単位（％オフ・円引きなど）を選んでください'],
  ])('%s', (_name, type, rules, expected) => {
    expect(customCycleDiscountProblem(type, rules)).toBe(expected)
  })
})
