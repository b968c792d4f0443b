import { describe, expect, it } from 'vitest'
import {
  isValidSellingPlan,
  newPlanForm,
  type PlanProblems,
  type SellingPlanForm,
  sellingPlanProblems,
} from '../src/index.ts'

// Spec §5, every rule with its boundary: a plan is valid only if all hold.
const valid = (patch: Partial<SellingPlanForm> = {}): SellingPlanForm => ({
  ...newPlanForm('毎月お届け'),
  ...patch,
})
const fixed = (patch: Partial<SellingPlanForm> = {}) =>
  valid({ discountType: 'fixedDiscount', valueType: 'PERCENTAGE', initialValue: 10, ...patch })
const recurring = (patch: Partial<SellingPlanForm> = {}) =>
  valid({
    discountType: 'recurringDiscount',
    valueType: 'FIXED_AMOUNT',
    initialValue: 500,
    laterValue: 200,
    afterCycle: 1,
    ...patch,
  })
const multi = (patch: Partial<SellingPlanForm> = {}) =>
  valid({ discountType: 'recurringMultiDiscount', valueType: 'PERCENTAGE', ...patch })

describe('sellingPlanProblems (spec §5)', () => {
  it.each<[string, SellingPlanForm, PlanProblems]>([
    ['a monthly plan without discount', valid(), {}],
    // intervalCount: present and at least 0 (0 is the boundary the spec allows).
    ['intervalCount 0 (boundary)', valid({ intervalCount: 0 }), {}],
    ['intervalCount 1', valid({ intervalCount: 1 }), {}],
    [
      'intervalCount -1',
      valid({ intervalCount: -1 }),
      { intervalCount: 'お届け間隔は0以上で入力してください' },
    ],
    [
      'intervalCount missing',
      valid({ intervalCount: null }),
      { intervalCount: 'お届け間隔を入力してください' },
    ],
    [
      'intervalCount NaN',
      valid({ intervalCount: Number.NaN }),
      { intervalCount: 'お届け間隔を入力してください' },
    ],
    // minCycles: present and at least 1.
    ['minCycles 1 (boundary)', valid({ minCycles: 1 }), {}],
    ['minCycles 0', valid({ minCycles: 0 }), { minCycles: '最低継続回数は1以上で入力してください' }],
    ['minCycles missing', valid({ minCycles: null }), { minCycles: '最低継続回数を入力してください' }],
    // name and discountType: present.
    ['name missing', valid({ name: null }), { name: 'プラン名を入力してください' }],
    ['name blank', valid({ name: '　 ' }), { name: 'プラン名を入力してください' }],
    ['name of one character', valid({ name: '月' }), {}],
    ['discountType missing', valid({ discountType: null }), { discountType: '割引の種類を選んでください' }],
    // Fixed: initial value at least 0 and a value type.
    ['fixed 10%', fixed(), {}],
    ['fixed 0 (boundary)', fixed({ initialValue: 0 }), {}],
    ['fixed -0.01', fixed({ initialValue: -0.01 }), { initialValue: '割引の値は0以上で入力してください' }],
    ['fixed without value', fixed({ initialValue: null }), { initialValue: '割引の値を入力してください' }],
    [
      'fixed without value type',
      fixed({ valueType: null }),
      { valueType: '割引の単位（％オフ・円引きなど）を選んでください' },
    ],
    // Recurring: initial and later at least 0, afterCycle at least 1, a value type.
    ['recurring ¥500 then ¥200 after cycle 1', recurring(), {}],
    ['recurring 0 and 0 (boundaries)', recurring({ initialValue: 0, laterValue: 0 }), {}],
    ['recurring afterCycle 1 (boundary)', recurring({ afterCycle: 1 }), {}],
    [
      'recurring afterCycle 0',
      recurring({ afterCycle: 0 }),
      { afterCycle: '割引を切り替える回数は1以上で入力してください' },
    ],
    [
      'recurring afterCycle missing',
      recurring({ afterCycle: null }),
      { afterCycle: '割引を切り替える回数を入力してください' },
    ],
    [
      'recurring initial -1',
      recurring({ initialValue: -1 }),
      { initialValue: '初回の割引の値は0以上で入力してください' },
    ],
    [
      'recurring later -1',
      recurring({ laterValue: -1 }),
      { laterValue: '2回目以降の割引の値は0以上で入力してください' },
    ],
    [
      'recurring later missing',
      recurring({ laterValue: null }),
      { laterValue: '2回目以降の割引の値を入力してください' },
    ],
    [
      'recurring without value type',
      recurring({ valueType: null }),
      { valueType: '割引の単位（％オフ・円引きなど）を選んでください' },
    ],
    // Recurring multi: a value type (its rules are the custom cycle discounts' own check).
    ['multi with a value type', multi(), {}],
    [
      'multi without value type',
      multi({ valueType: null }),
      { valueType: '割引の単位（％オフ・円引きなど）を選んでください' },
    ],
    // None: the discount fields are not looked at.
    ['none ignores a negative value', valid({ initialValue: -5, valueType: null }), {}],
    [
      'several problems at once',
      recurring({ name: '', intervalCount: null, minCycles: 0, laterValue: -1 }),
      {
        name: 'プラン名を入力してください',
        intervalCount: 'お届け間隔を入力してください',
        minCycles: '最低継続回数は1以上で入力してください',
        laterValue: '2回目以降の割引の値は0以上で入力してください',
      },
    ],
  ])('%s', (_name, form, expected) => {
    expect(sellingPlanProblems(form)).toEqual(expected)
    expect(isValidSellingPlan(form)).toBe(Object.keys(expected).length === 0)
  })

  it('does not judge what §5 leaves to the platform (maxCycles below minCycles, anchors)', () => {
    const form = valid({
      minCycles: 5,
      maxCycles: 2,
      anchors: [{ type: 'MONTHDAY', day: 31, month: null }],
    })
    expect(sellingPlanProblems(form)).toEqual({})
  })
})
