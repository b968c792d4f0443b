import { type Reducer, useReducer, useRef } from 'react'
import type { UiState } from './ui-state.tsx'

// The editors (解約理由, テーマ, 請求設定, 販売プランの編集) keep their screen in a reducer and their
// flows in plain action functions (tested without React), which read the state as of now.

/** Where a reducer-held screen's first load stands. */
export type LoadStatus = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready' }

/** What an editor's actions are handed besides their API: the UI, the reducer, its state now. */
export type ReducerDeps<State, Action> = {
  ui: Pick<UiState, 'showToast' | 'openModal' | 'updateModal' | 'closeModal'>
  dispatch: (action: Action) => void
  /** The state as of now (a ref's current value: an action's awaited steps see later dispatches). */
  getState: () => State
}

/** `useReducer` and a stable `getState` for the actions. */
export function useReducerState<State, Action>(
  reducer: Reducer<State, Action>,
  initial: State,
): [State, (action: Action) => void, () => State] {
  const [state, dispatch] = useReducer(reducer, initial)
  const current = useRef(state)
  current.current = state
  const getState = useRef(() => current.current).current
  return [state, dispatch, getState]
}
