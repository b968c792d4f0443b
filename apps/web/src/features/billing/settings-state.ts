import { type BillingSettings, type FinalAction, ZBillingSettings } from '@teiki/contract'
import type { LoadStatus } from '../../app/use-reducer-state.ts'

/** One field of 請求・再試行の設定. */
export type SettingsField = keyof BillingSettings

/** The form's values as the fields hold them (text fields and selects both give strings). */
export type SettingsDraft = { [K in SettingsField]: string }

export type SettingsErrors = Partial<Record<SettingsField, string>>

/** What the 請求・再試行の設定 page shows and edits; changed only through `settingsReducer`. */
export type SettingsState = {
  load: LoadStatus
  /** What the server holds (null until loaded). */
  saved: BillingSettings | null
  draft: SettingsDraft
  /** Per field, the first message of the client validation. */
  errors: SettingsErrors
  saving: boolean
}

export type SettingsAction =
  | { type: 'loading' }
  | { type: 'loaded'; settings: BillingSettings }
  | { type: 'loadFailed'; message: string }
  | { type: 'fieldChanged'; field: SettingsField; value: string }
  | { type: 'discarded' }
  | { type: 'validationFailed'; errors: SettingsErrors }
  | { type: 'saveStarted' }
  /** `sent`: what was PUT; `settings`: what the server answered it stored. */
  | { type: 'saveSucceeded'; sent: BillingSettings; settings: BillingSettings }
  | { type: 'saveFailed' }

export const SETTINGS_FIELDS = [
  'billingHour',
  'lookbackDays',
  'retryAttempts',
  'retryIntervalDays',
  'finalAction',
  'inventoryRetryAttempts',
  'inventoryRetryIntervalDays',
  'inventoryFinalAction',
  'deliveryPrepDays',
] as const satisfies readonly SettingsField[]

const ACTION_FIELDS: ReadonlySet<SettingsField> = new Set(['finalAction', 'inventoryFinalAction'])

const EMPTY_DRAFT = Object.fromEntries(SETTINGS_FIELDS.map((field) => [field, ''])) as SettingsDraft

export const initialSettingsState: SettingsState = {
  load: { status: 'loading' },
  saved: null,
  draft: EMPTY_DRAFT,
  errors: {},
  saving: false,
}

export function toDraft(settings: BillingSettings): SettingsDraft {
  return Object.fromEntries(SETTINGS_FIELDS.map((field) => [field, String(settings[field])])) as SettingsDraft
}

export function settingsReducer(state: SettingsState, action: SettingsAction): SettingsState {
  switch (action.type) {
    case 'loading':
      return { ...state, load: { status: 'loading' } }
    case 'loaded':
      return {
        ...state,
        load: { status: 'ready' },
        saved: action.settings,
        draft: toDraft(action.settings),
        errors: {},
      }
    case 'loadFailed':
      return { ...state, load: { status: 'error', message: action.message } }
    case 'fieldChanged': {
      const { [action.field]: _cleared, ...errors } = state.errors
      return { ...state, draft: { ...state.draft, [action.field]: action.value }, errors }
    }
    case 'discarded':
      return state.saved ? { ...state, draft: toDraft(state.saved), errors: {} } : state
    case 'validationFailed':
      return { ...state, errors: action.errors }
    case 'saveStarted':
      return { ...state, saving: true, errors: {} }
    case 'saveSucceeded':
      return {
        ...state,
        saving: false,
        saved: action.settings,
        // Edits typed while the request was in flight stay; otherwise show what the server stored.
        draft: draftMatches(state.draft, action.sent) ? toDraft(action.settings) : state.draft,
      }
    case 'saveFailed':
      return { ...state, saving: false }
  }
}

/** Full-width digits (typed with a Japanese IME) read as their ASCII digits. */
function halfWidthDigits(text: string): string {
  return text.replace(/[０-９]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
}

/** The text a field's value compares as: trimmed, ASCII digits, no leading zeros. */
function normalized(field: SettingsField, text: string): string {
  if (ACTION_FIELDS.has(field)) return text
  const ascii = halfWidthDigits(text.trim())
  return /^\d+$/.test(ascii) ? String(Number(ascii)) : ascii
}

/** True when the form shows exactly these settings. */
export function draftMatches(draft: SettingsDraft, settings: BillingSettings): boolean {
  return SETTINGS_FIELDS.every((field) => normalized(field, draft[field]) === String(settings[field]))
}

/** True when there is something to save (the 保存 button is enabled only then). */
export function isDirty(state: SettingsState): boolean {
  return state.saved !== null && !draftMatches(state.draft, state.saved)
}

/** The number a numeric field holds; empty is missing (the schema then asks for a number). */
function toNumber(text: string): number | undefined {
  const ascii = halfWidthDigits(text.trim())
  return ascii === '' ? undefined : Number(ascii)
}

/**
 * The settings to PUT, or each field's first message from the same schema the server checks
 * with, so an impossible value never costs a request.
 */
export function validateSettings(
  draft: SettingsDraft,
): { ok: true; settings: BillingSettings } | { ok: false; errors: SettingsErrors; message: string } {
  const input = Object.fromEntries(
    SETTINGS_FIELDS.map((field) => [field, ACTION_FIELDS.has(field) ? draft[field] : toNumber(draft[field])]),
  )
  const parsed = ZBillingSettings.safeParse(input)
  if (parsed.success) return { ok: true, settings: parsed.data }
  const errors: SettingsErrors = {}
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as SettingsField | undefined
    if (field && errors[field] === undefined) errors[field] = issue.message
  }
  return { ok: false, errors, message: parsed.error.issues[0]?.message ?? '設定の内容を確認してください' }
}

/** 請求時刻: every hour of the day, shown as `10:00`. */
export const HOUR_OPTIONS = Array.from({ length: 24 }, (_, hour) => ({
  label: `${hour}:00`,
  value: String(hour),
}))

export const FINAL_ACTION_LABEL: Record<FinalAction, string> = {
  CANCEL: '解約',
  PAUSE: '一時停止',
  SKIP: 'スキップ（次回へ）',
}

export const FINAL_ACTION_OPTIONS = (Object.keys(FINAL_ACTION_LABEL) as FinalAction[]).map((value) => ({
  label: FINAL_ACTION_LABEL[value],
  value,
}))
