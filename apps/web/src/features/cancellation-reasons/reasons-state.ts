import {
  type CancellationReason,
  type CancellationReasonsGroupedBy,
  ZCancellationReasonBody,
} from '@teiki/contract'
import { formatPercent } from '@teiki/domain'

/** What the 解約理由 page shows and edits; changed only through `reasonsReducer`. */
export type ReasonsState = {
  load: { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready' }
  reasons: CancellationReason[]
  /** The add field's text and its error (client validation or the server's 400/409 message). */
  draft: string
  addError: string | null
  /** The reason being edited inline (one at a time). */
  editing: { id: string; text: string; error: string | null } | null
  /** The request in flight: every button that changes something is disabled meanwhile. */
  busy: { kind: 'add' } | { kind: 'save'; id: string } | { kind: 'delete'; id: string } | null
}

export type ReasonsAction =
  | { type: 'loading' }
  | { type: 'loaded'; reasons: CancellationReason[] }
  | { type: 'loadFailed'; message: string }
  | { type: 'draftChanged'; text: string }
  | { type: 'addStarted' }
  | { type: 'addSucceeded'; reason: CancellationReason }
  | { type: 'addFailed'; message: string | null }
  | { type: 'editStarted'; id: string }
  | { type: 'editChanged'; text: string }
  | { type: 'editCancelled' }
  | { type: 'saveStarted'; id: string }
  | { type: 'saveSucceeded'; reason: CancellationReason }
  | { type: 'saveFailed'; message: string | null }
  | { type: 'deleteStarted'; id: string }
  | { type: 'deleteSucceeded'; id: string }
  | { type: 'deleteFailed' }

export const initialReasonsState: ReasonsState = {
  load: { status: 'loading' },
  reasons: [],
  draft: '',
  addError: null,
  editing: null,
  busy: null,
}

const byPosition = (a: CancellationReason, b: CancellationReason) =>
  a.position - b.position || Number(a.id) - Number(b.id)

export function reasonsReducer(state: ReasonsState, action: ReasonsAction): ReasonsState {
  switch (action.type) {
    case 'loading':
      return { ...state, load: { status: 'loading' } }
    case 'loaded':
      return { ...state, load: { status: 'ready' }, reasons: [...action.reasons].sort(byPosition) }
    case 'loadFailed':
      return { ...state, load: { status: 'error', message: action.message } }
    case 'draftChanged':
      return { ...state, draft: action.text, addError: null }
    case 'addStarted':
      return { ...state, busy: { kind: 'add' }, addError: null }
    case 'addSucceeded':
      return {
        ...state,
        busy: null,
        draft: '',
        addError: null,
        reasons: [...state.reasons.filter((r) => r.id !== action.reason.id), action.reason].sort(byPosition),
      }
    case 'addFailed':
      return { ...state, busy: null, addError: action.message }
    case 'editStarted': {
      const reason = state.reasons.find((r) => r.id === action.id)
      return reason ? { ...state, editing: { id: reason.id, text: reason.reason, error: null } } : state
    }
    case 'editChanged':
      return state.editing
        ? { ...state, editing: { ...state.editing, text: action.text, error: null } }
        : state
    case 'editCancelled':
      return { ...state, editing: null }
    case 'saveStarted':
      return { ...state, busy: { kind: 'save', id: action.id } }
    case 'saveSucceeded':
      return {
        ...state,
        busy: null,
        editing: null,
        reasons: state.reasons.map((r) => (r.id === action.reason.id ? action.reason : r)),
      }
    case 'saveFailed':
      return {
        ...state,
        busy: null,
        editing: state.editing ? { ...state.editing, error: action.message } : null,
      }
    case 'deleteStarted':
      return { ...state, busy: { kind: 'delete', id: action.id } }
    case 'deleteSucceeded':
      return {
        ...state,
        busy: null,
        editing: state.editing?.id === action.id ? null : state.editing,
        reasons: state.reasons.filter((r) => r.id !== action.id),
      }
    case 'deleteFailed':
      return { ...state, busy: null }
  }
}

/** Text typed and not yet saved: a new reason, or a rename that differs from the stored one. */
export function hasUnsavedText(state: ReasonsState): boolean {
  if (state.draft.trim() !== '') return true
  if (state.editing === null) return false
  const stored = state.reasons.find((r) => r.id === state.editing?.id)?.reason
  return stored !== undefined && state.editing.text.trim() !== stored
}

export const DUPLICATE_MESSAGE = '同じ解約理由がすでに登録されています'

/**
 * The trimmed reason, or the Japanese message the server would answer with (same schema), so
 * obvious mistakes never cost a request. `exceptId`: the reason being renamed.
 */
export function validateReason(
  text: string,
  reasons: CancellationReason[],
  exceptId?: string,
): { ok: true; reason: string } | { ok: false; message: string } {
  const parsed = ZCancellationReasonBody.safeParse({ reason: text })
  if (!parsed.success) {
    return { ok: false, message: parsed.error.issues[0]?.message ?? '解約理由を確認してください' }
  }
  const reason = parsed.data.reason
  if (reasons.some((r) => r.reason === reason && r.id !== exceptId))
    return { ok: false, message: DUPLICATE_MESSAGE }
  return { ok: true, reason }
}

/** One group's share of all cancellations, one decimal: `42.9%` (`—` when there are none). */
export function groupShareLabel(count: number, total: number): string {
  return total > 0 ? formatPercent(count / total, 1) : '—'
}

export type GroupedState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; data: CancellationReasonsGroupedBy }
