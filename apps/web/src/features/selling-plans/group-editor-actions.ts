import { errorMessage } from '../../app/api.ts'
import type { PickerSelection } from '../../app/product-picker-model.ts'
import { loadInto } from '../../app/use-api.ts'
import type { ReducerDeps } from '../../app/use-reducer-state.ts'
import { draftProblems, requestOf } from './group-draft.ts'
import type { EditorAction, EditorState } from './group-editor-state.ts'
import type { PlansApi } from './plans-api.ts'

export type EditorDeps = ReducerDeps<EditorState, EditorAction> & {
  api: PlansApi
  /** The group's id, or null while it is being created. */
  groupId: string | null
  /** Where to go once a new group was created or the group deleted. */
  goTo: (path: string) => void
}

export const INVALID_DRAFT_MESSAGE = '入力内容を確認してください。赤字の項目に問題があります。'

/** The 販売プラン editor's flows: load, save (create or update), delete, products. */
export function createEditorActions(deps: EditorDeps) {
  const { api, ui, dispatch, getState, groupId } = deps

  function load(): () => void {
    if (groupId === null) return () => {}
    dispatch({ type: 'loading' })
    return loadInto(api.detail(groupId), {
      loaded: (detail) => dispatch({ type: 'loaded', detail }),
      failed: (message) => dispatch({ type: 'loadFailed', message }),
    })
  }

  /**
   * Checks the draft with spec §5's rules first (nothing is sent while a field is wrong), then
   * creates or updates; a new group's single variants are added once it exists.
   */
  async function save(): Promise<void> {
    const state = getState()
    if (state.saving || state.load.status !== 'ready') return
    if (draftProblems(state.draft).count > 0) {
      dispatch({ type: 'saveFailed' })
      ui.showToast(INVALID_DRAFT_MESSAGE, { error: true })
      return
    }
    dispatch({ type: 'saveStarted' })
    try {
      const body = requestOf(state.draft)
      if (groupId === null) {
        const created = await api.create(body)
        if (state.draft.variantIds.length > 0)
          await api.changeProducts(created.id, { addVariantIds: state.draft.variantIds })
        dispatch({ type: 'saved', detail: await api.detail(created.id) })
        ui.showToast('販売プランを作成しました')
        deps.goTo(`/selling-plans/${created.id}`)
      } else {
        await api.update(groupId, body)
        dispatch({ type: 'saved', detail: await api.detail(groupId) })
        ui.showToast('販売プランを保存しました')
      }
    } catch (error) {
      dispatch({ type: 'saveFailed' })
      ui.showToast(errorMessage(error), { error: true })
    }
  }

  const confirmDelete = () => confirmGroupDelete(deps)

  /** Adds or removes products of a saved group at once (the platform's group mutations). */
  async function changeProducts(change: { add?: PickerSelection; removeProductId?: string }): Promise<void> {
    if (groupId === null) return
    try {
      await api.changeProducts(groupId, {
        addProductIds: change.add?.productIds ?? [],
        addVariantIds: change.add?.variantIds ?? [],
        removeProductIds: change.removeProductId ? [change.removeProductId] : [],
      })
      dispatch({ type: 'detailChanged', detail: await api.detail(groupId) })
      ui.showToast(change.add ? '商品を追加しました' : '商品を外しました')
    } catch (error) {
      ui.showToast(errorMessage(error), { error: true })
    }
  }

  return { load, save, confirmDelete, changeProducts }
}

/** Opens the confirmation; the group is deleted on the platform only when the merchant confirms. */
function confirmGroupDelete(deps: EditorDeps): void {
  const { api, ui, dispatch, getState, groupId } = deps
  const detail = getState().detail
  if (!detail || groupId === null) return
  const cancel = { content: 'キャンセル', onAction: ui.closeModal }
  const primary = { content: '削除する', destructive: true, onAction: () => void run() }
  async function run() {
    ui.updateModal({
      primaryAction: { ...primary, loading: true, disabled: true },
      secondaryActions: [{ ...cancel, disabled: true }],
    })
    try {
      await api.remove(groupId!)
      ui.closeModal()
      ui.showToast('販売プランを削除しました')
      dispatch({ type: 'discarded' })
      deps.goTo('/selling-plans')
    } catch (error) {
      ui.closeModal()
      ui.showToast(errorMessage(error), { error: true })
    }
  }
  ui.openModal({
    title: '販売プランを削除しますか？',
    body: `「${detail.name}」とそのプランをストアから削除します。このプランで購入済みの契約はそのまま続きます。`,
    primaryAction: primary,
    secondaryActions: [cancel],
  })
}
