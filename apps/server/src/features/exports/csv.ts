import type { ExportEncoding, SubscriptionStatus } from '@teiki/contract'
import { billingIntervalLabel, currencyDigits, roundMinor, statusLabel } from '@teiki/domain'
import iconv from 'iconv-lite'

/** One contract as the export query returns it (dates already formatted in the shop's zone). */
export type ExportRow = {
  id: string
  status: SubscriptionStatus
  customer_id: string
  customer_name: string | null
  email: string | null
  /** `YYYY/MM/DD` in the shop's zone, or null. */
  next_billing: string | null
  created: string
  interval: string | null
  interval_count: number | null
  order_count: number
  /** `title / variant × qty` of each line, joined with ` | `. */
  items: string | null
  /** Sum of price × quantity of the lines (numeric text), or null without priced lines. */
  subtotal: string | null
  currency_code: string
  delivery_price: string | null
  note: string | null
}

export const CSV_HEADER = [
  '契約ID',
  'ステータス',
  '顧客ID',
  '顧客名',
  'メールアドレス',
  '次回請求日',
  '作成日',
  '請求間隔',
  '購入回数',
  '商品',
  '小計',
  '通貨',
  '配送料',
  'メモ',
] as const

const CRLF = '\r\n'
const NEEDS_QUOTES = /[",\r\n]/
// A cell starting with one of these is run as a formula by Excel (CSV injection): customers
// type names and notes, so those cells get a leading apostrophe, as OWASP recommends.
const FORMULA_START = /^[=+\-@\t\r]/

/** RFC 4180: a field with a quote, comma or line break is quoted, quotes doubled. */
export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value
}

/** A field whose text comes from customers or merchants (names, notes, product titles). */
export function csvText(value: string | null): string {
  if (!value) return ''
  return csvField(FORMULA_START.test(value) ? `'${value}` : value)
}

export function csvLine(fields: readonly string[]): string {
  return fields.map(csvField).join(',') + CRLF
}

const INTEGRAL = /^-?\d+(?:\.0*)?$/

/**
 * An amount as a plain number in the currency's minor unit (JPY `1980`, USD `12.50`), no
 * symbol or grouping: spreadsheets read it as a number, the currency is its own column.
 */
export function amountText(amount: string | null, currencyCode: string): string {
  if (amount === null || amount === '') return ''
  let digits: number
  try {
    digits = currencyDigits(currencyCode)
  } catch {
    digits = 2
  }
  // Fast path for the usual whole amounts ("1980.0000"): no decimal arithmetic needed.
  if (INTEGRAL.test(amount)) {
    const int = amount.split('.')[0]!
    return digits === 0 ? int : `${int}.${'0'.repeat(digits)}`
  }
  return roundMinor(Number(amount), currencyCode).toFixed(digits)
}

/** One CSV record (CRLF-terminated) of a contract. */
export function csvRecord(row: ExportRow): string {
  return (
    row.id +
    ',' +
    statusLabel[row.status] +
    ',' +
    row.customer_id +
    ',' +
    csvText(row.customer_name) +
    ',' +
    csvText(row.email) +
    ',' +
    (row.next_billing ?? '') +
    ',' +
    row.created +
    ',' +
    (row.interval ? billingIntervalLabel(row.interval, row.interval_count) : '') +
    ',' +
    row.order_count +
    ',' +
    csvText(row.items) +
    ',' +
    amountText(row.subtotal, row.currency_code) +
    ',' +
    csvField(row.currency_code) +
    ',' +
    amountText(row.delivery_price, row.currency_code) +
    ',' +
    csvText(row.note) +
    CRLF
  )
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf])

// Characters that JIS-based converters (and Macs) produce where Windows-31J has a different
// code point for the same glyph: mapped to the CP932 one so they survive instead of turning
// into '?'. The yen sign (U+00A5, what the app prints for JPY) becomes the full-width ￥;
// iconv-lite would write it as 0x5C, a backslash to any program that does not draw it as ¥.
const CP932_SUBSTITUTES: Record<string, string> = {
  '\u00a2': '\uffe0', // ¢ → ￠
  '\u00a3': '\uffe1', // £ → ￡
  '\u00a5': '\uffe5', // ¥ → ￥
  '\u00ac': '\uffe2', // ¬ → ￢
  '\u2014': '\u2015', // — → ―
  '\u2016': '\u2225', // ‖ → ∥
  '\u2212': '\uff0d', // − → －
  '\u301c': '\uff5e', // 〜 → ～
}
const CP932_SUBSTITUTE_CHARS = new RegExp(`[${Object.keys(CP932_SUBSTITUTES).join('')}]`, 'g')

/**
 * Text → bytes of the file. UTF-8 files start with a BOM (how Excel tells UTF-8 from the
 * system code page); `shift_jis` is Windows-31J (CP932, what Excel on Japanese Windows reads),
 * where a character it cannot encode (emoji, most accented letters) becomes '?'.
 */
export function createCsvEncoder(encoding: ExportEncoding): {
  preamble: Buffer
  encode(text: string): Buffer
} {
  if (encoding === 'utf-8') return { preamble: UTF8_BOM, encode: (text) => Buffer.from(text, 'utf8') }
  return {
    preamble: Buffer.alloc(0),
    encode: (text) =>
      iconv.encode(
        text.replace(CP932_SUBSTITUTE_CHARS, (c) => CP932_SUBSTITUTES[c]!),
        'cp932',
      ),
  }
}

export function csvContentType(encoding: ExportEncoding): string {
  return encoding === 'utf-8' ? 'text/csv; charset=utf-8' : 'text/csv; charset=Shift_JIS'
}
