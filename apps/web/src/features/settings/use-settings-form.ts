import { useEffect, useState } from 'react'
import { api, errorMessage } from '../../app/api.ts'
import { useUiState } from '../../app/ui-state.tsx'
import { setCached, useApi } from '../../app/use-api.ts'
import { fieldOfMessage, isDraftProblem, type SettingsDraft, toDraft, toSettings } from './settings-form.ts'

/** 設定's state: the stored settings, the draft, the server's message on the field it names, save. */
export function useSettingsForm() {
  const ui = useUiState()
  const load = useApi('GET /settings')
  const [draft, setDraft] = useState<SettingsDraft | null>(null)
  const [errors, setErrors] = useState<Partial<Record<keyof SettingsDraft, string>>>({})
  const [saving, setSaving] = useState(false)

  // The draft starts from what is stored, and again after each save.
  useEffect(() => {
    if (load.data) setDraft(toDraft(load.data.settings))
  }, [load.data])

  const stored = load.data ? toDraft(load.data.settings) : null
  const dirty = stored !== null && draft !== null && JSON.stringify(stored) !== JSON.stringify(draft)

  async function save() {
    if (!draft) return
    const settings = toSettings(draft)
    if (isDraftProblem(settings)) {
      setErrors({ [settings.field]: settings.message })
      return
    }
    setSaving(true)
    setErrors({})
    try {
      const data = await api('PUT /settings', { body: { settings } })
      await setCached('GET /settings', undefined, data)
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
  const set = (field: keyof SettingsDraft, value: string) => draft && setDraft({ ...draft, [field]: value })
  const prep = load.data?.deliveryPrepDays ?? null
  return {
    load,
    draft,
    dirty,
    saving,
    save,
    discard,
    bind,
    set,
    prep,
    pixel: load.data?.pixel ?? null,
    retry: load.retry,
  }
}
