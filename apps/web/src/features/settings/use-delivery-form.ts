import { useEffect, useState } from 'react'
import { api, errorMessage } from '../../app/api.ts'
import { useUiState } from '../../app/ui-state.tsx'
import { setCached, useApi } from '../../app/use-api.ts'
import { type DeliveryDraft, toDeliveryDraft, toDeliverySettings } from './delivery-form.ts'

/** 配送設定's state: what is stored, the draft, the message to show, save. */
export function useDeliveryForm() {
  const ui = useUiState()
  const load = useApi('GET /delivery-settings')
  const [draft, setDraft] = useState<DeliveryDraft | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)

  useEffect(() => {
    if (load.data) setDraft(toDeliveryDraft(load.data.settings))
  }, [load.data])

  const stored = load.data ? toDeliveryDraft(load.data.settings) : null
  const dirty = stored !== null && draft !== null && JSON.stringify(stored) !== JSON.stringify(draft)

  async function save() {
    if (!draft) return
    const made = toDeliverySettings(draft)
    if ('problem' in made) {
      setProblem(made.problem)
      return
    }
    setSaving(true)
    setProblem(null)
    try {
      const data = await api('PUT /delivery-settings', { body: made.body })
      await setCached('GET /delivery-settings', undefined, data)
      if (data.storefrontProblem) setProblem(data.storefrontProblem)
      else ui.showToast('配送設定を保存しました')
    } catch (error) {
      setProblem(errorMessage(error))
    } finally {
      setSaving(false)
    }
  }

  const change = (patch: Partial<DeliveryDraft>) => draft && setDraft({ ...draft, ...patch })
  const discard = () => {
    if (stored) setDraft(stored)
    setProblem(null)
  }
  return { load, draft, dirty, saving, problem, save, discard, change }
}
