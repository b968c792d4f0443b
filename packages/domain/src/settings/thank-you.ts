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
 * set". This file has no imports beyond its sibling, so the pixel extension bundles it as is.
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

/** What a tag's URL may carry, as the pixel fills it from the checkout_completed event. */
export const TAG_PLACEHOLDERS = {
  order_id: '注文ID（数字）',
  total: 'お支払い合計（税込。円は整数）',
  subtotal: '商品の小計',
  currency: '通貨コード（JPY）',
} as const
export type TagPlaceholder = keyof typeof TAG_PLACEHOLDERS
export type TagValues = Record<TagPlaceholder, string>

const SAMPLE_VALUES: TagValues = { order_id: '1001', total: '1980', subtotal: '1980', currency: 'JPY' }
const PLACEHOLDER = /\{([^{}]*)\}/g

export const EMPTY_THANK_YOU: ThankYouSettings = { message: '', tags: [], legacyScript: '' }

const LABEL = 'サンクスページの設定'
const LEGACY_REFUSED =
  'サンクスページではスクリプトが実行されなくなりました（Shopify のチェックアウト拡張）。' +
  '{"message": "表示する文章", "tags": [{"name": "タグ名", "url": "https://…"}]} の形で、メッセージと計測タグに分けて指定してください'

/** The request's values put into a tag's URL, each encoded as one URL component. */
export function expandTagUrl(url: string, values: TagValues): string {
  return url.replace(PLACEHOLDER, (whole, name: string) =>
    name in values ? encodeURIComponent(wellFormed(values[name as TagPlaceholder])) : whole,
  )
}

/** Lone surrogates (which encodeURIComponent throws on) as U+FFFD. */
const wellFormed = (value: string) =>
  value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')

/** http only to this machine (a local test endpoint), https anywhere. */
function allowedUrl(url: string): boolean {
  try {
    const parsed = new URL(url)
    if (parsed.protocol === 'https:') return true
    return parsed.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname)
  } catch {
    return false
  }
}

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

type CheckoutMoney = { amount?: number | string } | null | undefined
/** The parts of the pixel's `checkout_completed` event a tag reads. */
export type TagCheckout = {
  order?: { id?: string | number | null } | null
  totalPrice?: CheckoutMoney
  subtotalPrice?: CheckoutMoney
  currencyCode?: string | null
  lineItems?: Array<{ sellingPlanAllocation?: unknown } | null> | null
}

/**
 * The URLs the pixel requests for one completed checkout: each tag that applies (a
 * subscription-only tag needs a line bought on a selling plan), its placeholders filled.
 * `settingText` is the pixel's `conversionTags` setting; anything unreadable sends nothing.
 */
export function conversionRequests(settingText: string | undefined, checkout: TagCheckout): string[] {
  let tags: Array<{ url?: unknown; subscriptionOnly?: unknown }>
  try {
    tags = JSON.parse(settingText || '[]')
    if (!Array.isArray(tags)) return []
  } catch {
    return []
  }
  const orderId = String(checkout.order?.id ?? '').replace(/^gid:\/\/shopify\/OrderIdentity\//, '')
  if (orderId === '') return []
  const money = (m: CheckoutMoney) => String(Number(m?.amount ?? 0))
  const values: TagValues = {
    order_id: orderId.replace(/^gid:\/\/shopify\/Order\//, ''),
    total: money(checkout.totalPrice),
    subtotal: money(checkout.subtotalPrice),
    currency: checkout.currencyCode ?? '',
  }
  const subscription = (checkout.lineItems ?? []).some((l) => l?.sellingPlanAllocation)
  return tags
    .filter((t) => typeof t?.url === 'string' && (t.subscriptionOnly === false || subscription))
    .map((t) => expandTagUrl(t.url as string, values))
    .filter(allowedUrl)
}
