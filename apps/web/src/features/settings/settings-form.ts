import type { ShopSettings } from '@teiki/contract'

/** The form as typed: the script as plain text (sent JSON-encoded), the days as text. */
export type SettingsDraft = {
  noteAttribute: string
  skuConversions: string
  thankPageScript: string
  deliveryPrepDays: string
}

/** The stored settings as the form shows them (the script decoded from its JSON string). */
export function toDraft(s: ShopSettings): SettingsDraft {
  let script = ''
  try {
    const decoded: unknown = JSON.parse(s.thankPageScript)
    script = typeof decoded === 'string' ? decoded : s.thankPageScript
  } catch {
    script = s.thankPageScript
  }
  return {
    noteAttribute: s.noteAttribute,
    skuConversions: s.skuConversions,
    thankPageScript: script,
    deliveryPrepDays: String(s.deliveryPrepDays),
  }
}

/** What PUT /settings takes: the script JSON-encoded on save (spec §3), the days as a number. */
export function toSettings(d: SettingsDraft): ShopSettings {
  return {
    noteAttribute: d.noteAttribute,
    skuConversions: d.skuConversions,
    thankPageScript: JSON.stringify(d.thankPageScript),
    deliveryPrepDays: Number(d.deliveryPrepDays),
  }
}

/** Which field a server message is about (it names the field in Japanese). */
export function fieldOfMessage(message: string): keyof SettingsDraft | null {
  if (message.includes('注文メモ属性')) return 'noteAttribute'
  if (message.includes('SKU変換')) return 'skuConversions'
  if (message.includes('サンクスページ')) return 'thankPageScript'
  if (message.includes('お届け準備期間')) return 'deliveryPrepDays'
  return null
}
