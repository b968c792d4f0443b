import type { MailTemplateResponse } from '@teiki/contract'
import { useCallback, useEffect, useState } from 'react'
import { api, errorMessage } from '../../app/api.ts'
import { useUiState } from '../../app/ui-state.tsx'
import { invalidate, setCached, useApi } from '../../app/use-api.ts'

export type Draft = { title: string; body: string; signature: string }

/** The メールテンプレート screen's state: the list, the chosen mail, its draft, save and reset. */
export function useTemplateEditor() {
  const ui = useUiState()
  const list = useApi('GET /mail-templates')
  const [type, setType] = useState('order_confirmation')
  const template = useApi('GET /mail-template/:type', { params: { type } })
  const [draft, setDraft] = useState<Draft | null>(null)
  const [saving, setSaving] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const retry = useCallback(() => {
    list.retry()
    template.retry()
  }, [list.retry, template.retry])

  // Each answer for the chosen mail (first load, save, reset) starts its draft afresh.
  useEffect(() => {
    if (!template.data) return
    const { title, body, signature } = template.data
    setDraft({ title, body, signature })
    setProblem(null)
  }, [template.data])

  const show = (data: MailTemplateResponse) =>
    setCached('GET /mail-template/:type', { params: { type } }, data)

  const loaded = template.data ?? null
  const dirty =
    loaded !== null &&
    draft !== null &&
    (draft.title !== loaded.title || draft.body !== loaded.body || draft.signature !== loaded.signature)

  async function save() {
    if (!draft) return
    setSaving(true)
    try {
      await show(await api('PUT /mail-template/:type', { params: { type }, body: draft }))
      ui.showToast('テンプレートを保存しました')
      void invalidate('GET /mail-templates')
    } catch (error) {
      setProblem(errorMessage(error))
    } finally {
      setSaving(false)
    }
  }

  async function reset() {
    setSaving(true)
    try {
      await show(await api('DELETE /mail-template/:type', { params: { type } }))
      ui.showToast('初期設定の文面に戻しました')
      void invalidate('GET /mail-templates')
    } catch (error) {
      ui.showToast(errorMessage(error), { error: true })
    } finally {
      setSaving(false)
    }
  }

  return {
    list,
    type,
    setType,
    template,
    loaded,
    draft,
    setDraft,
    saving,
    problem,
    dirty,
    save,
    reset,
    retry,
  }
}
