import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  type BoxProblems,
  type BoxSettings,
  boxProblems,
  boxSaveOrder,
  boxSaveProblem,
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

describe('boxSaveProblem: one field saved at a time, judged with what is stored', () => {
  const stored = box({ minSelection: 2, maxSelection: 3 })
  it.each<[string, Partial<BoxSettings>, number | null, { field: string; message: string } | null]>([
    ['a new name', { name: 'コーヒー福袋' }, 5, null],
    ['a blank name', { name: ' ' }, 5, { field: 'name', message: 'ボックス名を入力してください' }],
    ['null name', { name: null }, 5, { field: 'name', message: 'ボックス名を入力してください' }],
    [
      'the group cleared',
      { sellingPlanGroupId: null },
      null,
      { field: 'sellingPlanGroupId', message: '販売プランを選んでください' },
    ],
    ['min = stored max (boundary)', { minSelection: 3 }, 5, null],
    [
      'min above stored max',
      { minSelection: 4 },
      5,
      { field: 'minSelection', message: '最小選択数は最大選択数（3）以下にしてください' },
    ],
    ['max = stored min (boundary)', { maxSelection: 2 }, 5, null],
    [
      'max below stored min',
      { maxSelection: 1 },
      5,
      { field: 'maxSelection', message: '最大選択数は最小選択数（2）以上にしてください' },
    ],
    ['max = product count (boundary)', { maxSelection: 5 }, 5, null],
    [
      'max above product count',
      { maxSelection: 6 },
      5,
      { field: 'maxSelection', message: '最大選択数は販売プランの商品数（5件）以下にしてください' },
    ],
    ['both counts together', { minSelection: 4, maxSelection: 5 }, 5, null],
    [
      'max null',
      { maxSelection: null },
      5,
      { field: 'maxSelection', message: '最大選択数を入力してください' },
    ],
    [
      'min 0',
      { minSelection: 0 },
      5,
      { field: 'minSelection', message: '最小選択数は1以上の整数で入力してください' },
    ],
    // The group is saved even when the stored max no longer fits it: the box reads incomplete.
    ['a smaller group', { sellingPlanGroupId: '99' }, 2, null],
  ])('%s', (_name, patch, count, expected) => {
    expect(boxSaveProblem(stored, patch, count)).toEqual(expected)
  })

  it('a stored box with max unfilled takes any min', () => {
    expect(boxSaveProblem(newBoxSettings(), { minSelection: 8 }, null)).toBeNull()
  })
})

describe('boxSaveOrder: every field saved alone passes when the whole draft does', () => {
  it.each<[string, BoxSettings, BoxSettings, string[]]>([
    ['nothing changed', box(), box(), []],
    ['name and group', box(), box({ name: '新', sellingPlanGroupId: '7' }), ['name', 'sellingPlanGroupId']],
    [
      'min rises above the stored max: max first',
      box({ minSelection: 1, maxSelection: 2 }),
      box({ minSelection: 4, maxSelection: 5 }),
      ['maxSelection', 'minSelection'],
    ],
    [
      'max falls below the stored min: min first',
      box({ minSelection: 4, maxSelection: 5 }),
      box({ minSelection: 1, maxSelection: 2 }),
      ['minSelection', 'maxSelection'],
    ],
  ])('%s', (_name, stored, draft, order) => {
    expect(boxSaveOrder(stored, draft)).toEqual(order)
  })

  it('saving in that order never meets a problem for a valid draft (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        (a, b, c, d) => {
          const stored = box({ minSelection: Math.min(a, b), maxSelection: Math.max(a, b) })
          const draft = box({ minSelection: Math.min(c, d), maxSelection: Math.max(c, d) })
          let current = stored
          for (const field of boxSaveOrder(stored, draft)) {
            const patch = { [field]: draft[field] }
            expect(boxSaveProblem(current, patch, 9)).toBeNull()
            current = { ...current, ...patch }
          }
          expect(current).toEqual(draft)
        },
      ),
      { numRuns: 1000 },
    )
  })
})
