import type { Box, UpdateBoxRequest } from '@teiki/contract'
import { type BoxField, type BoxSettings, boxFieldLabel, boxSaveOrder, boxSaveProblem } from '@teiki/domain'
import { errorMessage } from '../../app/api.ts'
import type { BoxesApi } from './boxes-api.ts'

/** The box editor's fields as typed (counts as text until they are saved). */
export type BoxDraft = {
  name: string
  minSelection: string
  maxSelection: string
  sellingPlanGroupId: string
}

export const boxDraftOf = (box: Box): BoxDraft => ({
  name: box.name ?? '',
  minSelection: box.minSelection === null ? '' : String(box.minSelection),
  maxSelection: box.maxSelection === null ? '' : String(box.maxSelection),
  sellingPlanGroupId: box.sellingPlanGroupId ?? '',
})

const count = (text: string): number | null => {
  const half = text.trim().replace(/[０-９]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
  if (half === '') return null
  return /^-?\d+(\.\d+)?$/.test(half) ? Number(half) : Number.NaN
}

export const settingsOfDraft = (draft: BoxDraft): BoxSettings => ({
  name: draft.name.trim() === '' ? null : draft.name,
  minSelection: count(draft.minSelection),
  maxSelection: count(draft.maxSelection),
  sellingPlanGroupId: draft.sellingPlanGroupId === '' ? null : draft.sellingPlanGroupId,
})

export const settingsOfBox = (box: Box): BoxSettings => ({
  name: box.name,
  minSelection: box.minSelection,
  maxSelection: box.maxSelection,
  sellingPlanGroupId: box.sellingPlanGroupId,
})

/** The fields of the draft that differ from the stored box, in the order they can be saved one by one. */
export const changedFields = (box: Box, draft: BoxDraft): BoxField[] =>
  boxSaveOrder(settingsOfBox(box), settingsOfDraft(draft))

export type FieldSave = { saved: BoxField[]; errors: Partial<Record<BoxField, string>>; box: Box }

/**
 * Saves the changed fields one at a time (spec §4: a box's settings are saved per field), each
 * checked first with the rule the server applies; a field that fails keeps its error and the
 * others are still saved. `productsCount`: the chosen group's products (max ≤ it).
 */
export async function saveFields(
  api: Pick<BoxesApi, 'update'>,
  box: Box,
  draft: BoxDraft,
  productsCount: number | null,
): Promise<FieldSave> {
  const wanted = settingsOfDraft(draft)
  let current = box
  const saved: BoxField[] = []
  const errors: Partial<Record<BoxField, string>> = {}
  for (const field of changedFields(box, draft)) {
    const patch = { [field]: wanted[field] } as Partial<BoxSettings>
    const count = field === 'sellingPlanGroupId' ? null : productsCount
    const problem = boxSaveProblem(settingsOfBox(current), patch, count)
    if (problem) {
      errors[field] = problem.message
      continue
    }
    try {
      current = await api.update(box.id, patch as UpdateBoxRequest)
      saved.push(field)
    } catch (error) {
      errors[field] = errorMessage(error)
    }
  }
  return { saved, errors, box: current }
}

/** 「ボックス名・最大選択数を保存しました」. */
export const savedMessage = (fields: readonly BoxField[]) =>
  `${fields.map((f) => boxFieldLabel[f]).join('・')}を保存しました`
