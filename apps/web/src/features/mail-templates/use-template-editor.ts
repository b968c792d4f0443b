import type { MailTemplateList, MailTemplateResponse } from '@teiki/contract'
import { useCallback, useEffect, useState } from 'react'
import { apiDelete, apiGet, apiPut, errorMessage } from '../../app/api.ts'
import { useUiState } from '../../app/ui-state.tsx'

export type Draft = { title: string; body: string; signature: string }
export type Load<T> =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; data: T }

/** The メールテンプレート screen's state: the list, the chosen mail, its draft, save and reset. */
export function useTemplateEditor() {
  const ui = useUiState()
  const [list, setList] = useState<Load<MailTemplateList>>({ status: 'loading' })
  const [type, setType] = useState('order_confirmation')
  const [template, setTemplate] = useState<Load<MailTemplateResponse>>({ status: 'loading' })
  const [draft, setDraft] = useState<Draft | null>(null)
  const [saving, setSaving] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const [attempt, setAttempt] = useState(0)
  const retry = useCallback(() => setAttempt((n) => n + 1), [])

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` re-runs the load.
  useEffect(() => {
    apiGet<MailTemplateList>('/mail-templates').then(
      (data) => setList({ status: 'ready', data }),
      (error: unknown) => setList({ status: 'error', message: errorMessage(error) }),
    )
  }, [attempt])

  const show = useCallback((data: MailTemplateResponse) => {
    setTemplate({ status: 'ready', data })
    setDraft({ title: data.title, body: data.body, signature: data.signature })
    setProblem(null)
  }, [])

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` re-runs the load.
  useEffect(() => {
    let cancelled = false
    setTemplate({ status: 'loading' })
    apiGet<MailTemplateResponse>(`/mail-template/${type}`).then(
      (data) => !cancelled && show(data),
      (error: unknown) => !cancelled && setTemplate({ status: 'error', message: errorMessage(error) }),
    )
    return () => {
      cancelled = true
    }
  }, [type, attempt, show])

  const loaded = template.status === 'ready' ? template.data : null
  const dirty =
    loaded !== null &&
    draft !== null &&
    (draft.title !== loaded.title || draft.body !== loaded.body || draft.signature !== loaded.signature)

  async function save() {
    if (!draft) return
    setSaving(true)
    try {
      show(await apiPut<MailTemplateResponse>(`/mail-template/${type}`, draft))
      ui.showToast('テンプレートを保存しました')
      retry()
    } catch (error) {
      setProblem(errorMessage(error))
    } finally {
      setSaving(false)
    }
  }

  async function reset() {
    setSaving(true)
    try {
      show(await apiDelete<MailTemplateResponse>(`/mail-template/${type}`))
      ui.showToast('初期設定の文面に戻しました')
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
