import { errorMessage } from '../../app/api.ts'
import type { UiState } from '../../app/ui-state.tsx'
import { loadInto } from '../../app/use-api.ts'
import type { BillingApi } from './billing-api.ts'
import { type SettingsAction, type SettingsState, validateSettings } from './settings-state.ts'

export type SettingsDeps = {
  api: Pick<BillingApi, 'getSettings' | 'saveSettings'>
  ui: Pick<UiState, 'showToast'>
  dispatch: (action: SettingsAction) => void
  /** The state as of now (the page passes a ref's current value). */
  getState: () => SettingsState
}

export const SAVED_MESSAGE = '設定を保存しました'

/** Load and save of 請求・再試行の設定, with toasts. One save at a time. */
export function createSettingsActions(deps: SettingsDeps) {
  const { api, ui, dispatch, getState } = deps

  /** Loads the settings; answers a cancel function so a superseded load is ignored. */
  function load(): () => void {
    dispatch({ type: 'loading' })
    return loadInto(api.getSettings(), {
      loaded: (settings) => dispatch({ type: 'loaded', settings }),
      failed: (message) => dispatch({ type: 'loadFailed', message }),
    })
  }

  /** Validates the form with the shared schema, then PUTs the whole object. */
  async function save(): Promise<void> {
    const state = getState()
    if (state.saving || state.load.status !== 'ready') return
    const checked = validateSettings(state.draft)
    if (!checked.ok) return dispatch({ type: 'validationFailed', errors: checked.errors })
    dispatch({ type: 'saveStarted' })
    try {
      const settings = await api.saveSettings(checked.settings)
      dispatch({ type: 'saveSucceeded', sent: checked.settings, settings })
      ui.showToast(SAVED_MESSAGE)
    } catch (error) {
      dispatch({ type: 'saveFailed' })
      ui.showToast(errorMessage(error), { error: true })
    }
  }

  return { load, save }
}
