import type { MyPageSettingsResponse } from '@teiki/contract'
import { useEffect, useState } from 'react'
import { api, errorMessage } from '../../app/api.ts'
import { useUiState } from '../../app/ui-state.tsx'
import { setCached, useApi } from '../../app/use-api.ts'
import { type MyPageDraft, toMyPageDraft, toMyPageSettings } from './my-page-settings-form.ts'

/**
 * Saves the draft: the stored settings (also put in the cache), or the message to show — the
 * draft's own problem before any request, or the server's (a 400 names the bad value).
 */
export async function saveMyPageSettings(
  draft: MyPageDraft,
): Promise<{ saved: MyPageSettingsResponse } | { problem: string }> {
  const made = toMyPageSettings(draft)
  if ('problem' in made) return made
  try {
    const saved = await api('PUT /my-page-settings', { body: made.body })
    await setCached('GET /my-page-settings', undefined, saved)
    return { saved }
  } catch (error) {
    return { problem: errorMessage(error) }
  }
}

/** 設定 › マイページ's state: what is stored, the draft, the message to show, save. */
export function useMyPageSettingsForm() {
  const ui = useUiState()
  const load = useApi('GET /my-page-settings')
  const [draft, setDraft] = useState<MyPageDraft | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)

  useEffect(() => {
    if (load.data) setDraft(toMyPageDraft(load.data.settings))
  }, [load.data])

  const stored = load.data ? toMyPageDraft(load.data.settings) : null
  const dirty = stored !== null && draft !== null && JSON.stringify(stored) !== JSON.stringify(draft)

  async function save() {
    if (!draft) return
    setSaving(true)
    setProblem(null)
    const result = await saveMyPageSettings(draft)
    setSaving(false)
    if ('problem' in result) setProblem(result.problem)
    else ui.showToast('マイページの設定を保存しました')
  }

  const change = (next: MyPageDraft) => {
    setDraft(next)
    setProblem(null)
  }
  const discard = () => {
    if (stored) setDraft(stored)
    setProblem(null)
  }
  return { load, draft, dirty, saving, problem, save, discard, change }
}

export type MyPageSettingsForm = ReturnType<typeof useMyPageSettingsForm>
