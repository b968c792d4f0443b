import type { SettingsResponse } from '@teiki/contract'
import { useCallback, useEffect, useState } from 'react'
import { apiGet, apiPut, errorMessage } from '../../app/api.ts'
import { useUiState } from '../../app/ui-state.tsx'
import { fieldOfMessage, type SettingsDraft, toDraft, toSettings } from './settings-form.ts'

type Load =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; data: SettingsResponse }

/** 設定's state: the stored settings, the draft, the server's message on the field it names, save. */
export function useSettingsForm() {
  const ui = useUiState()
  const [load, setLoad] = useState<Load>({ status: 'loading' })
  const [draft, setDraft] = useState<SettingsDraft | null>(null)
  const [errors, setErrors] = useState<Partial<Record<keyof SettingsDraft, string>>>({})
  const [saving, setSaving] = useState(false)
  const [attempt, setAttempt] = useState(0)
  const retry = useCallback(() => setAttempt((n) => n + 1), [])

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` re-runs the load.
  useEffect(() => {
    apiGet<SettingsResponse>('/settings').then(
      (data) => {
        setLoad({ status: 'ready', data })
        setDraft(toDraft(data.settings))
      },
      (error: unknown) => setLoad({ status: 'error', message: errorMessage(error) }),
    )
  }, [attempt])

  const stored = load.status === 'ready' ? toDraft(load.data.settings) : null
  const dirty = stored !== null && draft !== null && JSON.stringify(stored) !== JSON.stringify(draft)

  async function save() {
    if (!draft) return
    setSaving(true)
    setErrors({})
    try {
      const data = await apiPut<SettingsResponse>('/settings', { settings: toSettings(draft) })
      setLoad({ status: 'ready', data })
      setDraft(toDraft(data.settings))
      ui.showToast('設定を保存しました')
    } catch (error) {
      const message = errorMessage(error)
      const field = fieldOfMessage(message)
      if (field) setErrors({ [field]: message })
      else ui.showToast(message, { error: true })
    } finally {
      setSaving(false)
    }
  }

  const bind = (field: keyof SettingsDraft) => ({
    value: draft?.[field] ?? '',
    onChange: (value: string) => draft && setDraft({ ...draft, [field]: value }),
    error: errors[field],
    autoComplete: 'off',
  })
  const discard = () => stored && setDraft(stored)
  const prep = load.status === 'ready' ? load.data.deliveryPrepDays : null
  return { load, draft, dirty, saving, save, discard, bind, prep, retry }
}
