import type { CancellationReason, CancellationReasonsGroupedBy } from '@teiki/contract'
import { ApiError, api, errorMessage } from '../../app/api.ts'
import { invalidate } from '../../app/use-api.ts'
import type { ReducerDeps } from '../../app/use-reducer-state.ts'
import { type ReasonsAction, type ReasonsState, validateReason } from './reasons-state.ts'

/** The endpoints the page uses (an interface so the flows can be tested without a server). */
export type ReasonsApi = {
  list: () => Promise<CancellationReason[]>
  create: (reason: string) => Promise<CancellationReason>
  update: (id: string, reason: string) => Promise<CancellationReason>
  remove: (id: string) => Promise<void>
  groupedBy: () => Promise<CancellationReasonsGroupedBy>
}

/** Each edit refetches the cached reasons (the churn form offers them) and their offers (one row each). */
const edited = <T>(answer: T): T => {
  void invalidate('GET /cancellation-reasons', 'GET /retention-offers')
  return answer
}

export const httpReasonsApi: ReasonsApi = {
  list: async () => (await api('GET /cancellation-reasons')).reasons,
  create: async (reason) => edited(await api('POST /cancellation-reasons', { body: { reason } })),
  update: async (id, reason) =>
    edited(await api('PUT /cancellation-reasons/:id', { params: { id }, body: { reason } })),
  remove: async (id) => {
    edited(await api('DELETE /cancellation-reasons/:id', { params: { id } }))
  },
  groupedBy: () => api('GET /subscription-contracts/cancellation-reasons-grouped-by', { query: {} }),
}

export type ReasonsDeps = ReducerDeps<ReasonsState, ReasonsAction> & {
  api: ReasonsApi
  /** Reloads the reasons (after a failure that may mean the list is stale). */
  reload: () => void
  /** Reloads the per-reason counts (their labels follow renames and deletes). */
  onChanged: () => void
}

/** The server's answer belongs under the field (bad input, duplicate), not in a toast. */
const isFieldError = (error: unknown): error is ApiError =>
  error instanceof ApiError && (error.status === 400 || error.status === 409)

/** Add, rename and delete, with toasts and the confirmation modal. One request at a time. */
export function createReasonsActions(deps: ReasonsDeps) {
  const { api, ui, dispatch, getState } = deps

  async function add(): Promise<void> {
    const state = getState()
    if (state.busy) return
    const checked = validateReason(state.draft, state.reasons)
    if (!checked.ok) return dispatch({ type: 'addFailed', message: checked.message })
    dispatch({ type: 'addStarted' })
    try {
      const reason = await api.create(checked.reason)
      dispatch({ type: 'addSucceeded', reason })
      ui.showToast('解約理由を追加しました')
    } catch (error) {
      if (isFieldError(error)) return dispatch({ type: 'addFailed', message: error.message })
      dispatch({ type: 'addFailed', message: null })
      ui.showToast(errorMessage(error), { error: true })
    }
  }

  async function save(): Promise<void> {
    const state = getState()
    const editing = state.editing
    if (state.busy || !editing) return
    const current = state.reasons.find((r) => r.id === editing.id)
    const checked = validateReason(editing.text, state.reasons, editing.id)
    if (!checked.ok) return dispatch({ type: 'saveFailed', message: checked.message })
    if (current && current.reason === checked.reason) return dispatch({ type: 'editCancelled' })
    dispatch({ type: 'saveStarted', id: editing.id })
    try {
      const reason = await api.update(editing.id, checked.reason)
      dispatch({ type: 'saveSucceeded', reason })
      ui.showToast('解約理由を更新しました')
      deps.onChanged()
    } catch (error) {
      if (isFieldError(error)) return dispatch({ type: 'saveFailed', message: error.message })
      dispatch({ type: 'saveFailed', message: null })
      ui.showToast(errorMessage(error), { error: true })
      if (error instanceof ApiError && error.status === 404) deps.reload()
    }
  }

  /** Opens the confirmation; the reason is deleted only when the merchant confirms. */
  function confirmDelete(reason: CancellationReason): void {
    if (getState().busy) return
    let inFlight = false
    const cancel = { content: 'キャンセル', onAction: ui.closeModal }
    const primary = { content: '削除する', destructive: true, onAction: () => void run() }

    async function run() {
      if (inFlight || getState().busy) return
      inFlight = true
      ui.updateModal({
        primaryAction: { ...primary, loading: true, disabled: true },
        secondaryActions: [{ ...cancel, disabled: true }],
      })
      dispatch({ type: 'deleteStarted', id: reason.id })
      try {
        await api.remove(reason.id)
        ui.closeModal()
        dispatch({ type: 'deleteSucceeded', id: reason.id })
        ui.showToast('解約理由を削除しました')
        deps.onChanged()
      } catch (error) {
        ui.closeModal()
        dispatch({ type: 'deleteFailed' })
        ui.showToast(errorMessage(error), { error: true })
        if (error instanceof ApiError && error.status === 404) deps.reload()
      }
    }

    ui.openModal({
      title: '解約理由を削除しますか？',
      body: `「${reason.reason}」を一覧から削除します。この理由で記録済みの解約には、理由がそのまま残ります。`,
      primaryAction: primary,
      secondaryActions: [cancel],
    })
  }

  return { add, save, confirmDelete }
}
