import type { SubscriptionDetail } from '@teiki/contract'
import { useCallback, useRef, useState } from 'react'
import { ApiError, errorMessage } from '../../../app/api.ts'
import { useUiState } from '../../../app/ui-state.tsx'

/** What an edit tells the merchant when its request went through. */
export type EditToast = { message: string; error?: boolean }

/** One validated edit, ready to send. */
export type EditPlan = {
  /** Sends the request(s) and says what to tell the merchant. Throws `ApiError` on failure. */
  run: () => Promise<EditToast>
  /** Put before the server's message when the edit fails (e.g. 商品を追加できませんでした). */
  failure?: string
  /** Reload the detail after success (default true; false for e-mails that change nothing). */
  reload?: boolean
}

/** A form checked on the client: the plan, or the first problem in Japanese (and its field). */
export type Planned = { ok: true; plan: EditPlan } | { ok: false; error: string; field?: string }

export type EditUi = {
  showToast: (message: string, options?: { error?: boolean }) => void
  reload: () => void
}

/** done: sent; conflict: 409, the contract changed meanwhile; failed: nothing changed. */
export type EditOutcome = 'done' | 'conflict' | 'failed'

/**
 * Sends an edit and reports it: a toast, then a reload of the detail after success. A 409 means
 * someone else changed the contract since the screen was loaded: the server's message is shown
 * and the detail reloaded so the merchant sees (and can redo the edit on) the current contract.
 * Other failures show the server's message and keep the form open.
 */
export async function runContractEdit(ui: EditUi, plan: EditPlan): Promise<EditOutcome> {
  try {
    const toast = await plan.run()
    ui.showToast(toast.message, toast.error ? { error: true } : undefined)
    if (plan.reload !== false) ui.reload()
    return 'done'
  } catch (error) {
    const message = errorMessage(error)
    ui.showToast(plan.failure ? `${plan.failure}：${message}` : message, { error: true })
    if (error instanceof ApiError && error.status === 409) {
      ui.reload()
      return 'conflict'
    }
    return 'failed'
  }
}

/**
 * The state of one edit form: `submit` shows a client-side problem inline (no request), or sends
 * the plan once at a time (`busy` disables and spins the buttons) and closes the form unless the
 * request failed without changing anything.
 */
export function useContractEdit(reload: () => void, onClose: () => void) {
  const { showToast } = useUiState()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<{ message: string; field?: string } | null>(null)
  const inFlight = useRef(false)

  const submit = useCallback(
    async (planned: Planned) => {
      if (inFlight.current) return
      if (!planned.ok) {
        setError({ message: planned.error, field: planned.field })
        return
      }
      setError(null)
      inFlight.current = true
      setBusy(true)
      const outcome = await runContractEdit({ showToast, reload }, planned.plan)
      inFlight.current = false
      setBusy(false)
      if (outcome !== 'failed') onClose()
    },
    [showToast, reload, onClose],
  )

  /** The inline message for `field` (or for the whole form when no field is given). */
  const errorFor = useCallback(
    (field?: string) => (error && error.field === field ? error.message : undefined),
    [error],
  )

  /** What every edit modal hands EditModal: close, submit the plan `plan()` makes, busy. */
  const modal = (plan: () => Planned) => ({ onClose, onSubmit: () => void submit(plan()), busy })

  return { busy, error, errorFor, submit, modal, clearError: useCallback(() => setError(null), []) }
}

/** What every edit modal of the detail page is given. */
/** What each editable card of the detail page is handed (its edits reload the contract). */
export type DetailCardProps = {
  detail: SubscriptionDetail
  reload: () => void
  /** False for contracts that cannot change any more. */
  editable: boolean
  /** True while the page reloads or another edit runs. */
  disabled: boolean
}

export type EditModalProps = {
  detail: SubscriptionDetail
  reload: () => void
  onClose: () => void
}
