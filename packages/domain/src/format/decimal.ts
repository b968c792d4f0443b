/**
 * Exact decimal arithmetic on digit strings, just enough for rounding and display. Money arrives
 * as platform decimal strings ("1980.0") and binary floats cannot hold 0.1 or 1234.005 exactly,
 * so rounding works on the shortest decimal text of a value, never on the float itself.
 */

export type RoundingMode = 'half-up' | 'floor' | 'ceil'

/** A finite decimal: `negative`, integer digits (no leading zeros except "0") and fraction digits. */
export type Decimal = { negative: boolean; int: string; frac: string }

const DECIMAL_TEXT = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:e([+-]?[0-9]+))?$/i

/**
 * Parses a decimal string or a number into digit strings. Numbers go through `String(n)`, which
 * is the shortest text that round-trips, so `1234.005` stays `1234.005` rather than the binary
 * value 1234.00499999... Throws `RangeError` on anything that is not a finite decimal.
 */
export function parseDecimal(value: string | number): Decimal {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new RangeError(`Not a finite number: ${value}`)
  }
  const text = String(value).trim()
  const match = DECIMAL_TEXT.exec(text)
  const intPart = match?.[2] ?? ''
  const fracPart = match?.[3] ?? ''
  if (!match || (intPart === '' && fracPart === '')) throw new RangeError(`Not a decimal: "${text}"`)
  const exponent = Number(match[4] ?? 0)
  let digits = intPart + fracPart
  let point = intPart.length + exponent
  if (point < 0) {
    digits = '0'.repeat(-point) + digits
    point = 0
  } else if (point > digits.length) {
    digits = digits + '0'.repeat(point - digits.length)
  }
  const int = digits.slice(0, point).replace(/^0+/, '') || '0'
  const frac = digits.slice(point).replace(/0+$/, '')
  const isZero = int === '0' && frac === ''
  return { negative: match[1] === '-' && !isZero, int, frac }
}

/**
 * Rounds to exactly `digits` fraction digits. `half-up` rounds halves away from zero (as Java's
 * HALF_UP and commercial practice do), so a refund rounds to the same magnitude as its charge;
 * `floor` and `ceil` go toward minus and plus infinity.
 */
export function roundDecimal(value: Decimal, digits: number, mode: RoundingMode): Decimal {
  const frac = value.frac.padEnd(digits, '0')
  const kept = value.int + frac.slice(0, digits)
  const dropped = frac.slice(digits)
  const hasRemainder = /[1-9]/.test(dropped)
  const roundAway =
    mode === 'half-up'
      ? (dropped[0] ?? '0') >= '5'
      : mode === 'floor'
        ? value.negative && hasRemainder
        : !value.negative && hasRemainder
  const magnitude = (BigInt(kept) + (roundAway ? 1n : 0n)).toString().padStart(digits + 1, '0')
  const int = magnitude.slice(0, magnitude.length - digits).replace(/^0+/, '') || '0'
  const roundedFrac = magnitude.slice(magnitude.length - digits)
  const isZero = /^0*$/.test(int + roundedFrac)
  return { negative: value.negative && !isZero, int, frac: roundedFrac }
}

/** Moves the decimal point `places` to the right (negative: to the left), exactly. */
export function shiftDecimal(value: Decimal, places: number): Decimal {
  return parseDecimal(`${value.negative ? '-' : ''}${value.int}.${value.frac || '0'}e${places}`)
}

/** Integer digits with a comma every three digits: `1234567` -> `1,234,567`. */
export function groupThousands(int: string): string {
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

/** Plain text of a decimal without grouping, e.g. for `Number()`. */
export function decimalToString(value: Decimal): string {
  return `${value.negative ? '-' : ''}${value.int}${value.frac ? `.${value.frac}` : ''}`
}
