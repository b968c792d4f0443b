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

const BOX_FIELDS = ['name', 'sellingPlanGroupId', 'minSelection', 'maxSelection'] as const
const isCount = (n: number) => Number.isSafeInteger(n) && n >= 1
const isBlank = (v: string | null) => v === null || v.trim() === ''

/** The problem of one field on its own (filled, a whole count ≥ 1), or null. */
function ownProblem(field: BoxField, box: BoxSettings): string | null {
  if (field === 'name') return isBlank(box.name) ? 'ボックス名を入力してください' : null
  if (field === 'sellingPlanGroupId')
    return isBlank(box.sellingPlanGroupId) ? '販売プランを選んでください' : null
  const value = box[field]
  const label = boxFieldLabel[field]
  if (value === null || Number.isNaN(value)) return `${label}を入力してください`
  return isCount(value) ? null : `${label}は1以上の整数で入力してください`
}

/**
 * Every problem of a box's settings. `groupProductCount`: the number of products of the chosen
 * group, or null when unknown (no group, or a group the app no longer has): the max ≤ count rule
 * is then not judged. A count that is not a whole number ≥ 1 is refused on its field; min > max
 * is reported on maxSelection (the field a merchant raises).
 */
export function boxProblems(box: BoxSettings, groupProductCount: number | null): BoxProblems {
  const problems: BoxProblems = {}
  for (const field of BOX_FIELDS) {
    const problem = ownProblem(field, box)
    if (problem) problems[field] = problem
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

/**
 * Why saving `patch` over the stored box must be refused, on a field being saved, or null.
 * Each saved field must be filled (spec §5) and a whole count ≥ 1; a saved count must keep
 * min ≤ max with the other count (stored, or saved with it) and max ≤ the group's product count.
 * Fields not being saved are not judged: the box may stay incomplete while the merchant fills it.
 */
export function boxSaveProblem(
  stored: BoxSettings,
  patch: Partial<BoxSettings>,
  groupProductCount: number | null,
): { field: BoxField; message: string } | null {
  const merged: BoxSettings = { ...stored, ...patch }
  const saved = BOX_FIELDS.filter((f) => patch[f] !== undefined)
  for (const field of saved) {
    const own = ownProblem(field, merged)
    if (own) return { field, message: own }
  }
  const { minSelection: min, maxSelection: max } = merged
  const bothCounts = min !== null && max !== null && isCount(min) && isCount(max)
  if (bothCounts && min > max) {
    if (saved.includes('maxSelection'))
      return { field: 'maxSelection', message: `最大選択数は最小選択数（${min}）以上にしてください` }
    if (saved.includes('minSelection'))
      return { field: 'minSelection', message: `最小選択数は最大選択数（${max}）以下にしてください` }
  }
  if (saved.includes('maxSelection') && groupProductCount !== null && max! > groupProductCount)
    return {
      field: 'maxSelection',
      message: `最大選択数は販売プランの商品数（${groupProductCount}件）以下にしてください`,
    }
  return null
}

/**
 * The fields of `draft` that differ from `stored`, in the order that lets each be saved on its
 * own (`boxSaveProblem`): name, the group (max is judged against its products), then the two
 * counts, max first when the new min is above the stored max.
 */
export function boxSaveOrder(stored: BoxSettings, draft: BoxSettings): BoxField[] {
  const changed = BOX_FIELDS.filter((f) => draft[f] !== stored[f])
  const maxFirst =
    draft.minSelection !== null && stored.maxSelection !== null && draft.minSelection > stored.maxSelection
  const rank: Record<BoxField, number> = {
    name: 0,
    sellingPlanGroupId: 1,
    minSelection: maxFirst ? 3 : 2,
    maxSelection: maxFirst ? 2 : 3,
  }
  return changed.sort((a, b) => rank[a] - rank[b])
}
