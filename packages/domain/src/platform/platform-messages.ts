import { BILLING_ATTEMPT_ERRORS_JA, FIELD_LABELS_JA, USER_ERRORS_JA } from './platform-message-table.ts'

/**
 * The platform's own words (English, machine codes) turned into what a Japanese merchant reads.
 * The platform's codes decide the Japanese sentence; its original message is kept beside it as a
 * detail ("詳細: Your card was declined."), because it can carry specifics the code does not
 * (a gateway's reason) and support staff search for it.
 */

/** A translated platform message: the Japanese sentence and the platform's original text, if any. */
export type PlatformMessage = { message: string; detail: string | null }

/** One of a mutation's `userErrors` as the platform gives it. */
export type PlatformUserErrorInput = {
  code?: string | null
  field?: readonly string[] | null
  message: string
}

/** What an unknown billing failure code reads as (the original follows as the detail). */
export const UNKNOWN_BILLING_ERROR_JA = '決済できませんでした。'
/** What an unknown user error code reads as (the original follows as the detail). */
export const UNKNOWN_USER_ERROR_JA = '入力内容に問題があるため、処理できませんでした。'

/** Between a message and the platform's original in one text (an API error's `message`). */
export const DETAIL_SEPARATOR = '\n詳細: '

// Codes whose meaning depends on the field they are about: the sentence names the field.
const FIELD_TEMPLATES: Readonly<Record<string, (field: string) => string>> = {
  INVALID: (f) => `${f}が正しくありません。`,
  BLANK: (f) => `${f}を入力してください。`,
  PRESENCE: (f) => `${f}を入力してください。`,
  GREATER_THAN: (f) => `${f}が小さすぎます。`,
  GREATER_THAN_OR_EQUAL_TO: (f) => `${f}が小さすぎます。`,
  LESS_THAN: (f) => `${f}が大きすぎます。`,
  LESS_THAN_OR_EQUAL_TO: (f) => `${f}が大きすぎます。`,
  TOO_LONG: (f) => `${f}が長すぎます。`,
  TOO_SHORT: (f) => `${f}が短すぎます。`,
  NOT_IN_RANGE: (f) => `${f}が指定できる範囲外です。`,
  NOT_AN_INTEGER: (f) => `${f}は整数で指定してください。`,
}

// A field and code together that say more than either: an invalid redeem code is an unknown or
// expired discount code, not a malformed one.
const FIELD_CODE_JA: Readonly<Record<string, string>> = {
  'redeemCode:INVALID': '割引コードが無効です。コードが正しいか、有効期限が切れていないかご確認ください。',
}

// The platform answers some refusals with the generic INVALID code and only the message tells
// them apart; these exact messages get their own sentence.
const EXACT_MESSAGES_JA: Readonly<Record<string, string>> = {
  'Discount code is already applied': 'この割引コードはすでに適用されています。',
}

const blankToNull = (text: string | null | undefined): string | null => {
  const trimmed = text?.trim() ?? ''
  return trimmed === '' ? null : trimmed
}

/**
 * A failed billing attempt (`SubscriptionBillingAttemptErrorCode`) in Japanese, with the
 * platform's message as the detail. An unknown or missing code reads as a generic failure.
 */
export function billingAttemptErrorJa(
  code: string | null | undefined,
  originalMessage: string | null | undefined,
): PlatformMessage {
  const original = blankToNull(originalMessage)
  const key = blankToNull(code)?.toUpperCase() ?? ''
  const known = BILLING_ATTEMPT_ERRORS_JA[key]
  return {
    message: known ?? UNKNOWN_BILLING_ERROR_JA,
    // An unknown code is shown as well, so the failure can still be looked up.
    detail: known || !key ? original : [key, original].filter(Boolean).join(' '),
  }
}

/** The Japanese name of a mutation input field (the path's last name), or null when unknown. */
export function fieldLabelJa(field: readonly string[] | null | undefined): string | null {
  const name = [...(field ?? [])].reverse().find((part) => !/^\d+$/.test(part))
  return name ? (FIELD_LABELS_JA[name] ?? null) : null
}

/** One `userErrors` entry in Japanese: exact message, field + code, code, then a generic sentence. */
export function userErrorJa(error: PlatformUserErrorInput): PlatformMessage {
  const original = blankToNull(error.message)
  const code = blankToNull(error.code)?.toUpperCase() ?? ''
  const fieldName = [...(error.field ?? [])].reverse().find((part) => !/^\d+$/.test(part)) ?? ''
  const label = fieldLabelJa(error.field)
  const template = FIELD_TEMPLATES[code]
  const message =
    (original ? EXACT_MESSAGES_JA[original.replace(/\.$/, '')] : undefined) ??
    FIELD_CODE_JA[`${fieldName}:${code}`] ??
    (label && template ? template(label) : undefined) ??
    USER_ERRORS_JA[code] ??
    UNKNOWN_USER_ERROR_JA
  return { message, detail: original }
}

/**
 * Every `userErrors` entry of a refused mutation as one message: the Japanese sentences (each
 * once) and the originals joined as the detail.
 */
export function userErrorsJa(errors: readonly PlatformUserErrorInput[]): PlatformMessage {
  if (errors.length === 0) return { message: UNKNOWN_USER_ERROR_JA, detail: null }
  const translated = errors.map(userErrorJa)
  const messages = [...new Set(translated.map((t) => t.message))]
  const details = [...new Set(translated.map((t) => t.detail).filter((d): d is string => d !== null))]
  return { message: messages.join(''), detail: details.length > 0 ? details.join(' / ') : null }
}

/** The message with its detail as one text: `割引コードが無効です。\n詳細: Discount code is invalid`. */
export function withPlatformDetail({ message, detail }: PlatformMessage): string {
  return detail ? `${message}${DETAIL_SEPARATOR}${detail}` : message
}

/** Undoes `withPlatformDetail`: a text's message and its detail line (null when it has none). */
export function splitPlatformDetail(text: string): PlatformMessage {
  const at = text.indexOf(DETAIL_SEPARATOR)
  if (at < 0) return { message: text, detail: null }
  return { message: text.slice(0, at), detail: text.slice(at + DETAIL_SEPARATOR.length) }
}
