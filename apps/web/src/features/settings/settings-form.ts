import type { ShopSettings } from '@teiki/contract'
import {
  parseJsonText,
  parseThankYouSettings,
  type ThankYouSettings,
  thankYouSettingsText,
} from '@teiki/domain'

/**
 * The form as typed: the JSON settings as text, the サンクスページ settings (one JSON text on the
 * wire, spec §3 thankPageScript) as its message, its 計測タグ as JSON text and a kept old
 * script, the days as text.
 */
export type SettingsDraft = {
  noteAttribute: string
  skuConversions: string
  thankYouMessage: string
  conversionTags: string
  legacyScript: string
  deliveryPrepDays: string
}

/** The stored settings as the form shows them. */
export function toDraft(s: ShopSettings): SettingsDraft {
  const thankYou = parseThankYouSettings(s.thankPageScript)
  return {
    noteAttribute: s.noteAttribute,
    skuConversions: s.skuConversions,
    thankYouMessage: thankYou.message,
    conversionTags: thankYou.tags.length === 0 ? '[]' : JSON.stringify(thankYou.tags, null, 2),
    legacyScript: thankYou.legacyScript,
    deliveryPrepDays: String(s.deliveryPrepDays),
  }
}

export type DraftProblem = { field: keyof SettingsDraft; message: string }

/**
 * What PUT /settings takes, or the field whose text is not JSON (found here, so its line and
 * column are the field's own): the サンクスページ parts put together as one JSON text, the days
 * as a number. The server checks everything else and names the field in its message.
 */
export function toSettings(d: SettingsDraft): ShopSettings | DraftProblem {
  const tags = d.conversionTags.trim() === '' ? { value: [] } : parseJsonText(d.conversionTags, '計測タグ')
  if ('problem' in tags) return { field: 'conversionTags', message: tags.problem }
  const thankYou = {
    message: d.thankYouMessage,
    tags: tags.value as ThankYouSettings['tags'],
    legacyScript: d.legacyScript,
  }
  return {
    noteAttribute: d.noteAttribute,
    skuConversions: d.skuConversions,
    thankPageScript: thankYouSettingsText(thankYou),
    deliveryPrepDays: Number(d.deliveryPrepDays),
  }
}

export const isDraftProblem = (v: ShopSettings | DraftProblem): v is DraftProblem => 'field' in v

/** Which field a server message is about (it names the field in Japanese). */
export function fieldOfMessage(message: string): keyof SettingsDraft | null {
  if (message.includes('注文メモ属性')) return 'noteAttribute'
  if (message.includes('SKU変換')) return 'skuConversions'
  if (message.includes('サンクスページのメッセージ')) return 'thankYouMessage'
  if (message.includes('計測タグ') || message.includes('サンクスページ')) return 'conversionTags'
  if (message.includes('お届け準備期間')) return 'deliveryPrepDays'
  return null
}
