import { groupThousands, parseDecimal, roundDecimal, shiftDecimal } from './decimal.ts'

// Report math divides by counts that can be zero; a dash reads better than "NaN" in a table.
const NOT_A_NUMBER = '—'

/** Thousands-separated number as typed: `12345` -> `12,345`, `1234.5` -> `1,234.5`. Non-finite -> `—`. */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return NOT_A_NUMBER
  const value = parseDecimal(n)
  return `${value.negative ? '-' : ''}${groupThousands(value.int)}${value.frac ? `.${value.frac}` : ''}`
}

/**
 * A ratio as a percentage rounded half-up to `digits` decimals (spec §9: persistence 0, traffic
 * 1): `0.4567` -> `46%`, with 1 digit `45.7%`. Shifts the decimal text rather than multiplying
 * by 100, because `0.285 * 100` is 28.499999999999996 and would round down. Non-finite -> `—`.
 */
export function formatPercent(ratio: number, digits = 0): string {
  if (!Number.isFinite(ratio)) return NOT_A_NUMBER
  const value = roundDecimal(shiftDecimal(parseDecimal(ratio), 2), digits, 'half-up')
  return `${value.negative ? '-' : ''}${groupThousands(value.int)}${value.frac ? `.${value.frac}` : ''}%`
}

/**
 * The counter of every paged list (契約一覧, 請求予定, 販売プラン, LTV, セグメント, 一括更新, the product
 * picker): 「11〜20件 / 全320件」 for the rows shown from `offset`, 「全10,000件以上」 when the total
 * is a lower bound (the search stops counting), 「全0件」 when the page shows no rows, and only
 * 「11〜20件」 while the total is not known yet (null).
 */
export function pageRangeLabel(
  offset: number,
  shown: number,
  total: number | null,
  totalIsLowerBound = false,
): string {
  const all = total === null ? null : `全${formatNumber(total)}件${totalIsLowerBound ? '以上' : ''}`
  if (shown <= 0) return all ?? '0件'
  const rows = `${formatNumber(offset + 1)}〜${formatNumber(offset + shown)}件`
  return all === null ? rows : `${rows} / ${all}`
}
