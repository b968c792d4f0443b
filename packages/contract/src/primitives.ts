import { z } from 'zod'

/**
 * The validators every request field is built from: one for platform ids, one for line ids,
 * one for free text. Each answers with a Japanese message naming the field, so a bad value
 * is a 400 at the edge, never a database error (a NUL byte, a bigint out of range) later.
 */

/** The error map of a strict object: an unknown field is named, never dropped (`不明な項目です: extra`). */
export const unknownKeys = {
  error: (issue: { code: string; keys?: string[] }) =>
    issue.code === 'unrecognized_keys' ? `不明な項目です: ${(issue.keys ?? []).join(', ')}` : undefined,
}

/** Largest platform id: the platform's ids are signed 64-bit integers. */
export const PLATFORM_ID_MAX = 9223372036854775807n
/** Largest `UnsignedInt64` (e.g. a contract's `revisionId`). */
export const UNSIGNED_INT64_MAX = 18446744073709551615n

// Canonical decimal only: a leading 0 never starts a platform id (the search box reads such
// input as a phone number), and accepting "007" would make two spellings of one id.
const DECIMAL = /^(0|[1-9][0-9]*)$/

/** True for the decimal text of an integer in [min, max]; compared as BigInt, never as a float. */
export function isDecimalInRange(value: string, min: bigint, max: bigint): boolean {
  if (value.length > 20 || !DECIMAL.test(value)) return false
  const n = BigInt(value)
  return n >= min && n <= max
}

/** True for the decimal text of a platform id: 1 ≤ id ≤ 9223372036854775807. */
export function isPlatformId(value: string): boolean {
  return isDecimalInRange(value, 1n, PLATFORM_ID_MAX)
}

const digitsMessage = (label: string) => `${label}は数字で指定してください`
const rangeMessage = (label: string) => `${label}は1〜${PLATFORM_ID_MAX}の範囲で指定してください`

/** Why `value` is no platform id (Japanese), or null when it is one. */
function platformIdProblem(value: string, label: string): string | null {
  if (isPlatformId(value)) return null
  return /^[0-9]{1,32}$/.test(value) ? rangeMessage(label) : digitsMessage(label)
}

/** A platform id given as decimal text (params, query or body), e.g. a contract id. */
export const ZPlatformId = (label: string) =>
  z.string({ error: `${label}を指定してください` }).superRefine((value, ctx) => {
    const problem = platformIdProblem(value, label)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })

/** An `UnsignedInt64` given as decimal text: 0 ≤ n ≤ 18446744073709551615. */
export const ZUnsignedInt64 = (label: string) =>
  z
    .string({ error: `${label}を指定してください` })
    .refine((value) => isDecimalInRange(value, 0n, UNSIGNED_INT64_MAX), {
      error: `${label}は0〜${UNSIGNED_INT64_MAX}の数字で指定してください`,
    })

/**
 * The number of a platform gid of this type (`gid://shopify/ProductVariant/123` → `123`), or
 * null when the text is not such a gid. Any length of number; the caller checks its range.
 */
export function gidNumber(type: string, value: string): string | null {
  const prefix = `gid://shopify/${type}/`
  if (
    value.length > prefix.length + 32 ||
    value.slice(0, prefix.length).toLowerCase() !== prefix.toLowerCase()
  )
    return null
  const rest = value.slice(prefix.length)
  return /^[0-9]+$/.test(rest) ? rest : null
}

/**
 * A platform id given either as decimal text or as the platform's gid of `type`; the parsed
 * value is always the decimal id. One rule for every path a variant id arrives on.
 */
export const ZPlatformIdOrGid = (label: string, type: string) =>
  z.string({ error: `${label}を指定してください` }).transform((value, ctx) => {
    const id = gidNumber(type, value) ?? value
    const problem = platformIdProblem(id, label)
    if (!problem) return id
    ctx.addIssue({ code: 'custom', message: problem })
    return z.NEVER
  })

/** A contract line id as the detail endpoint serves it (UUID-like on the platform). */
export const ZLineId = z
  .string({ error: '明細IDを指定してください' })
  .regex(/^[A-Za-z0-9-]{1,64}$/, '明細IDの形式が正しくありません')
  .describe('the line id as the detail endpoint serves it')

/**
 * True when `value` holds a C0 control character, DEL or a C1 control character. Multi-line
 * text may keep \t, \n and \r\n (a lone \r is refused: it reads as a line break nowhere).
 */
export function hasControlCharacter(value: string, multiline = false): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i)
    if (c >= 0x20 && c < 0x7f) continue
    if (c > 0x9f) continue
    if (multiline && (c === 0x09 || c === 0x0a || (c === 0x0d && value.charCodeAt(i + 1) === 0x0a))) continue
    return true
  }
  return false
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Why `value` cannot be stored as text (Japanese), or null when it can. */
export function textProblem(value: string, label: string, multiline = false): string | null {
  if (hasControlCharacter(value, multiline)) return `${label}に使用できない制御文字が含まれています`
  if (LONE_SURROGATE.test(value)) return `${label}に不正な文字が含まれています`
  return null
}

export type TextOptions = {
  /** Longest accepted length in UTF-16 code units, after trimming. */
  max: number
  /** Keeps line breaks and tabs (a note); single-line fields refuse them. Default false. */
  multiline?: boolean
  /** Trims surrounding whitespace before the checks. Default true (false for multi-line). */
  trim?: boolean
}

/**
 * Free text a merchant types: NUL and the other C0/C1 control characters, lone surrogates and
 * over-long values are refused with a Japanese message naming the field.
 */
export const ZText = (label: string, opts: TextOptions) => {
  const base = z.string({ error: `${label}を入力してください` })
  const trimmed = (opts.trim ?? !opts.multiline) ? base.trim() : base
  return trimmed
    .max(opts.max, `${label}は${opts.max}文字以内で入力してください`)
    .superRefine((value, ctx) => {
      const problem = textProblem(value, label, opts.multiline)
      if (problem) ctx.addIssue({ code: 'custom', message: problem })
    })
}
