/**
 * A box (spec §3): a selection of products from one selling plan group, of which the shopper
 * picks between `minSelection` and `maxSelection`. Spec §5: name, minSelection, maxSelection
 * and the selling plan group are required, null or empty counting as unfilled; and (issue 13)
 * min ≤ max ≤ the group's product count.
 */
export type BoxSettings = {
  name: string | null
  minSelection: number | null
  maxSelection: number | null
  sellingPlanGroupId: string | null
}

export type BoxField = keyof BoxSettings

/** Field → Japanese message; `{}` when the box is complete and consistent. */
export type BoxProblems = Partial<Record<BoxField, string>>

/** The settings a new box starts with before the merchant saves each field (spec §4). */
export const DEFAULT_BOX_NAME = '新しいボックス'
export const newBoxSettings = (): BoxSettings => ({
  name: DEFAULT_BOX_NAME,
  minSelection: 1,
  maxSelection: null,
  sellingPlanGroupId: null,
})

/** Japanese label of each field, as the editor shows it. */
export const boxFieldLabel: Record<BoxField, string> = {
  name: 'ボックス名',
  minSelection: '最小選択数',
  maxSelection: '最大選択数',
  sellingPlanGroupId: '販売プラン',
}

const isCount = (n: number) => Number.isSafeInteger(n) && n >= 1

/**
 * Every problem of a box's settings. `groupProductCount`: the number of products of the chosen
 * group, or null when unknown (no group, or a group the app no longer has): the max ≤ count rule
 * is then not judged. A count that is not a whole number ≥ 1 is refused on its field; min > max
 * is reported on maxSelection (the field a merchant raises).
 */
export function boxProblems(box: BoxSettings, groupProductCount: number | null): BoxProblems {
  const problems: BoxProblems = {}
  if (box.name === null || box.name.trim() === '') problems.name = 'ボックス名を入力してください'
  if (box.sellingPlanGroupId === null || box.sellingPlanGroupId.trim() === '')
    problems.sellingPlanGroupId = '販売プランを選んでください'
  for (const field of ['minSelection', 'maxSelection'] as const) {
    const value = box[field]
    const label = boxFieldLabel[field]
    if (value === null || Number.isNaN(value)) problems[field] = `${label}を入力してください`
    else if (!isCount(value)) problems[field] = `${label}は1以上の整数で入力してください`
  }
  const { minSelection: min, maxSelection: max } = box
  if (!problems.minSelection && !problems.maxSelection && min! > max!)
    problems.maxSelection = `最大選択数は最小選択数（${min}）以上にしてください`
  if (!problems.maxSelection && groupProductCount !== null && max! > groupProductCount)
    problems.maxSelection = `最大選択数は販売プランの商品数（${groupProductCount}件）以下にしてください`
  return problems
}

/** The fields still unfilled (null or empty), in the editor's order. */
export function unfilledBoxFields(box: BoxSettings): BoxField[] {
  return (['name', 'minSelection', 'maxSelection', 'sellingPlanGroupId'] as const).filter((f) => {
    const v = box[f]
    return v === null || (typeof v === 'string' && v.trim() === '')
  })
}
