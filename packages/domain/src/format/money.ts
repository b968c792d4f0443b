import { decimalToString, groupThousands, parseDecimal, type RoundingMode, roundDecimal } from './decimal.ts'

export type { RoundingMode }

// Half-width U+00A5, not the full-width U+FFE5 that Intl's ja-JP currency style prints: the spec
// asks for "the yen sign", Shopify's default JPY money format (`¥{{amount_no_decimals}}`) uses
// U+00A5 so our screens match the merchant's storefront and orders, and a half-width sign sits
// evenly next to half-width digits. A Shift_JIS CSV export must map it itself (CP932 has no byte).
const YEN_SIGN = '\u00a5'

const digitsCache = new Map<string, number>()

/**
 * Minor-unit digits of an ISO 4217 currency from Intl (JPY 0, USD 2, KRW 0, BHD 3). Throws
 * `RangeError` for a malformed code.
 */
export function currencyDigits(currencyCode: string): number {
  const code = currencyCode.toUpperCase()
  let digits = digitsCache.get(code)
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).resolvedOptions()
      .maximumFractionDigits as number
    digitsCache.set(code, digits)
  }
  return digits
}

/**
 * Rounds an amount to the currency's minor unit (JPY: whole yen), the one rounding function for
 * money. `half-up` rounds halves away from zero. Works on the decimal text, so
 * `roundMinor(1234.005, 'USD')` is 1234.01 even though the float is slightly below.
 */
export function roundMinor(amount: number, currencyCode: string, mode: RoundingMode = 'half-up'): number {
  const rounded = roundDecimal(parseDecimal(amount), currencyDigits(currencyCode), mode)
  return Number(decimalToString(rounded))
}

/**
 * Formats an amount for the admin (spec §9): JPY `¥1,980`, USD `$1,234.50`, any other currency
 * `1,234.50 (EUR)` with that currency's minor digits. Accepts platform decimal strings ("1980.0")
 * or numbers, rounds half-up, and puts the minus sign before the symbol (`-¥500`).
 */
export function formatMoney(amount: string | number, currencyCode: string): string {
  const code = currencyCode.toUpperCase()
  const value = roundDecimal(parseDecimal(amount), currencyDigits(code), 'half-up')
  const sign = value.negative ? '-' : ''
  const number = groupThousands(value.int) + (value.frac ? `.${value.frac}` : '')
  if (code === 'JPY') return `${sign}${YEN_SIGN}${number}`
  if (code === 'USD') return `${sign}$${number}`
  return `${sign}${number} (${code})`
}

/**
 * Why a price the merchant typed cannot be charged in this currency (Japanese), or null. A
 * price carries no more fraction digits than the currency's minor unit: JPY has none, so
 * `1980.5` is refused (the platform would keep it and charge an amount no yen coin pays),
 * while `1980` and `1980.0` are whole yen. `text` is decimal text the request schema accepted.
 */
export function priceInputProblem(text: string, currencyCode: string): string | null {
  let digits: number
  let frac: string
  try {
    digits = currencyDigits(currencyCode)
    frac = parseDecimal(text).frac
  } catch {
    return '価格は0以上の数値で入力してください（例: 1980）'
  }
  if (frac.length <= digits) return null
  return digits === 0
    ? `価格は小数点なしの整数で入力してください（${currencyCode.toUpperCase()}、例: 1980）`
    : `価格は小数点以下${digits}桁までで入力してください`
}
