import { allowedUrl, expandTagUrl, PLACEHOLDER, TAG_PLACEHOLDERS, type TagValues } from './conversion-tags.ts'
import { parseJsonText } from './settings-json.ts'

/**
 * サンクスページ (spec §3 Settings `thankPageScript`; issue 25 item 5, ADR 0039). The platform no
 * longer runs a merchant's script on the thank-you page (checkout extensibility), so the setting
 * holds what merchants used scripts for, each sent where today's platform lets it run:
 *
 * - `message`: text the app's thank-you block (`extensions/teiki-thank-you`,
 *   purchase.thank-you.block.render) shows under the subscription's next delivery.
 * - `tags`: 計測タグ — conversion URLs (an affiliate's or an ad network's image tag) the app's
 *   web pixel requests on `checkout_completed`, with the order's values put into `{…}`.
 * - `legacyScript`: a script saved before this change, kept so nothing is lost; it is not run
 *   anywhere, and the settings screen says so.
 *
 * The value travels as JSON-encoded text (the spec's field); `""` (a JSON empty string) is "not
 * set". What the pixel does with the tags is conversion-tags.ts.
 */

export type ConversionTag = {
  /** The merchant's name for it (A8.net, Google 広告 …). */
  name: string
  /** https URL with placeholders from TAG_PLACEHOLDERS, e.g. `https://px.example/cv?so={order_id}&si={total}`. */
  url: string
  /** Requested only when the order holds a subscription line (the default), or on every order. */
  subscriptionOnly: boolean
}

export type ThankYouSettings = { message: string; tags: ConversionTag[]; legacyScript: string }

export const THANK_YOU_MESSAGE_MAX = 1000
export const CONVERSION_TAGS_MAX = 10
const TAG_NAME_MAX = 50
const TAG_URL_MAX = 2000
const LEGACY_SCRIPT_MAX = 60_000

const SAMPLE_VALUES: TagValues = { order_id: '1001', total: '1980', subtotal: '1980', currency: 'JPY' }

export const EMPTY_THANK_YOU: ThankYouSettings = { message: '', tags: [], legacyScript: '' }

const LABEL = 'サンクスページの設定'
const LEGACY_REFUSED =
  'サンクスページではスクリプトが実行されなくなりました（Shopify のチェックアウト拡張）。' +
  '{"message": "表示する文章", "tags": [{"name": "タグ名", "url": "https://…"}]} の形で、メッセージと計測タグに分けて指定してください'

function tagProblem(entry: unknown, at: string, names: Set<string>): string | null {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    return `${at}は {"name": "…", "url": "https://…"} の形のオブジェクトで入力してください`
  const record = entry as Record<string, unknown>
  const unknown = Object.keys(record).find((k) => !['name', 'url', 'subscriptionOnly'].includes(k))
  if (unknown) return `${at}の "${unknown}" は使えない項目です（name, url, subscriptionOnly）`
  const { name, url, subscriptionOnly } = record
  if (typeof name !== 'string' || name.trim() === '') return `${at}の "name"（タグ名）を入力してください`
  if (name.length > TAG_NAME_MAX) return `${at}の "name" は${TAG_NAME_MAX}文字以内にしてください`
  if (names.has(name.trim())) return `${at}の "name"（${name}）が他のタグと重複しています`
  names.add(name.trim())
  if (typeof url !== 'string' || url.trim() === '') return `${at}の "url" を入力してください`
  if (url.length > TAG_URL_MAX) return `${at}の "url" は${TAG_URL_MAX}文字以内にしてください`
  for (const [, placeholder] of url.matchAll(PLACEHOLDER)) {
    if (!(placeholder! in TAG_PLACEHOLDERS))
      return `${at}の "url" の {${placeholder}} は使えません（使えるもの: ${Object.keys(TAG_PLACEHOLDERS)
        .map((p) => `{${p}}`)
        .join(' ')}）`
  }
  if (!allowedUrl(expandTagUrl(url, SAMPLE_VALUES)))
    return `${at}の "url" は https:// で始まるURLで入力してください`
  if (subscriptionOnly !== undefined && typeof subscriptionOnly !== 'boolean')
    return `${at}の "subscriptionOnly" は true または false で入力してください`
  return null
}

function settingsProblem(value: Record<string, unknown>): string | null {
  const unknown = Object.keys(value).find((k) => !['message', 'tags', 'legacyScript'].includes(k))
  if (unknown) return `${LABEL}の "${unknown}" は使えない項目です（message, tags, legacyScript）`
  const { message = '', tags = [], legacyScript = '' } = value
  if (typeof message !== 'string') return `${LABEL}の "message" は文字列で入力してください`
  if (message.length > THANK_YOU_MESSAGE_MAX)
    return `サンクスページのメッセージは${THANK_YOU_MESSAGE_MAX}文字以内にしてください`
  if (typeof legacyScript !== 'string' || legacyScript.length > LEGACY_SCRIPT_MAX)
    return `${LABEL}の "legacyScript" は${LEGACY_SCRIPT_MAX}文字以内の文字列です`
  if (!Array.isArray(tags)) return '計測タグ（"tags"）は配列（[ ... ]）で入力してください'
  if (tags.length > CONVERSION_TAGS_MAX) return `計測タグは${CONVERSION_TAGS_MAX}件以内にしてください`
  const names = new Set<string>()
  for (const [i, tag] of tags.entries()) {
    const problem = tagProblem(tag, `計測タグの${i + 1}件目`, names)
    if (problem) return problem
  }
  return null
}

/**
 * Why the JSON-encoded text is not valid サンクスページ settings (in Japanese, pointing at the
 * line and column of a syntax error or at the tag and field), or null. A non-empty JSON string
 * is an old script: refused, as it would do nothing.
 */
export function thankYouSettingsProblem(text: string): string | null {
  const parsed = parseJsonText(text, LABEL)
  if ('problem' in parsed) return parsed.problem
  const { value } = parsed
  if (value === '') return null
  if (typeof value === 'string') return LEGACY_REFUSED
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `${LABEL}は {"message": "…", "tags": [...]} の形のオブジェクトで入力してください`
  return settingsProblem(value as Record<string, unknown>)
}

/** The settings of valid text (EMPTY_THANK_YOU for "" or text that does not pass the check). */
export function parseThankYouSettings(text: string): ThankYouSettings {
  if (thankYouSettingsProblem(text) !== null) return EMPTY_THANK_YOU
  const value = JSON.parse(text) as unknown
  if (typeof value !== 'object' || value === null) return EMPTY_THANK_YOU
  const v = value as Partial<ThankYouSettings> & { tags?: Array<Partial<ConversionTag>> }
  return {
    message: v.message ?? '',
    legacyScript: v.legacyScript ?? '',
    tags: (v.tags ?? []).map((t) => ({
      name: t.name!.trim(),
      url: t.url!,
      subscriptionOnly: t.subscriptionOnly ?? true,
    })),
  }
}

/** The settings as the text the API carries (`""` when nothing is set). */
export function thankYouSettingsText(s: ThankYouSettings): string {
  if (s.message === '' && s.tags.length === 0 && s.legacyScript === '') return '""'
  return JSON.stringify(s, null, 2)
}

/** The web pixel's `conversionTags` setting: the tags as compact JSON, `[]` for none. */
export function pixelTagsSetting(tags: readonly ConversionTag[]): string {
  return JSON.stringify(tags.map((t) => ({ url: t.url, subscriptionOnly: t.subscriptionOnly })))
}
