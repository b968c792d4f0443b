import { describe, expect, it } from 'vitest'
import {
  type BoxProblems,
  type BoxSettings,
  boxProblems,
  newBoxSettings,
  unfilledBoxFields,
} from '../src/index.ts'

const box = (patch: Partial<BoxSettings> = {}): BoxSettings => ({
  name: '選べるコーヒー3種',
  minSelection: 2,
  maxSelection: 3,
  sellingPlanGroupId: '4200000001',
  ...patch,
})

describe('boxProblems (spec §5: all four required, null or empty unfilled; min ≤ max ≤ products)', () => {
  it.each<[string, BoxSettings, number | null, BoxProblems]>([
    ['complete', box(), 5, {}],
    ['max = product count (boundary)', box({ maxSelection: 5 }), 5, {}],
    [
      'max one above the product count',
      box({ maxSelection: 6 }),
      5,
      { maxSelection: '最大選択数は販売プランの商品数（5件）以下にしてください' },
    ],
    ['min = max (boundary)', box({ minSelection: 3, maxSelection: 3 }), 5, {}],
    [
      'min one above max',
      box({ minSelection: 4, maxSelection: 3 }),
      5,
      { maxSelection: '最大選択数は最小選択数（4）以上にしてください' },
    ],
    ['min 1 (boundary)', box({ minSelection: 1 }), 5, {}],
    ['min 0', box({ minSelection: 0 }), 5, { minSelection: '最小選択数は1以上の整数で入力してください' }],
    ['max 2.5', box({ maxSelection: 2.5 }), 5, { maxSelection: '最大選択数は1以上の整数で入力してください' }],
    ['name null', box({ name: null }), 5, { name: 'ボックス名を入力してください' }],
    ['name empty', box({ name: '' }), 5, { name: 'ボックス名を入力してください' }],
    ['name blank', box({ name: '   ' }), 5, { name: 'ボックス名を入力してください' }],
    ['min null', box({ minSelection: null }), 5, { minSelection: '最小選択数を入力してください' }],
    ['max null', box({ maxSelection: null }), 5, { maxSelection: '最大選択数を入力してください' }],
    [
      'group null',
      box({ sellingPlanGroupId: null }),
      null,
      { sellingPlanGroupId: '販売プランを選んでください' },
    ],
    [
      'group empty',
      box({ sellingPlanGroupId: '' }),
      null,
      { sellingPlanGroupId: '販売プランを選んでください' },
    ],
    ['product count unknown: max not judged against it', box({ maxSelection: 50 }), null, {}],
    [
      'a group with no products',
      box({ minSelection: 1, maxSelection: 1 }),
      0,
      { maxSelection: '最大選択数は販売プランの商品数（0件）以下にしてください' },
    ],
    [
      'the defaults are unfilled where the merchant must choose',
      newBoxSettings(),
      null,
      { maxSelection: '最大選択数を入力してください', sellingPlanGroupId: '販売プランを選んでください' },
    ],
  ])('%s', (_name, settings, count, expected) => {
    expect(boxProblems(settings, count)).toEqual(expected)
  })

  it('lists the unfilled fields in the editor order', () => {
    expect(unfilledBoxFields(box({ name: ' ', sellingPlanGroupId: null }))).toEqual([
      'name',
      'sellingPlanGroupId',
    ])
    expect(unfilledBoxFields(box())).toEqual([])
  })
})
