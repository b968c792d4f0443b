import { MY_PAGE_ACTIONS, type MyPageSettingsBody, ZMyPageSettings } from '@teiki/contract'

export type MyPageAction = (typeof MY_PAGE_ACTIONS)[number]

/** 設定 › マイページ as edited: the switches as they are, the change lock as typed. */
export type MyPageDraft = {
  actions: Record<MyPageAction, boolean>
  lockDays: string
}

export function toMyPageDraft(s: MyPageSettingsBody): MyPageDraft {
  return { actions: { ...s.actions }, lockDays: String(s.lockDays) }
}

/** The actions switched on, in the order the page lists them (the checkboxes' selection). */
export function selectedActions(draft: MyPageDraft): MyPageAction[] {
  return MY_PAGE_ACTIONS.filter((a) => draft.actions[a])
}

/** Switches on exactly the `selected` actions, the others off. */
export function withSelectedActions(draft: MyPageDraft, selected: string[]): MyPageDraft {
  const actions = Object.fromEntries(MY_PAGE_ACTIONS.map((a) => [a, selected.includes(a)]))
  return { ...draft, actions: actions as MyPageDraft['actions'] }
}

/**
 * What PUT /my-page-settings takes, or the message to show: the contract's own schema checks
 * the lock, so an empty or out-of-range number reads as the server would answer it.
 */
export function toMyPageSettings(d: MyPageDraft): { body: MyPageSettingsBody } | { problem: string } {
  const text = d.lockDays.trim()
  const parsed = ZMyPageSettings.safeParse({
    actions: d.actions,
    lockDays: text === '' ? Number.NaN : Number(text),
  })
  if (parsed.success) return { body: parsed.data }
  return { problem: parsed.error.issues[0]?.message ?? '変更受付の締切を確認してください' }
}
