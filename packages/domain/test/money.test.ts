import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { currencyDigits, formatMoney, roundMinor } from '../src/index.ts'

describe('formatMoney', () => {
  it.each<[string | number, string, string]>([
    // JPY: half-width yen sign U+00A5, no decimals
    ['1980.0', 'JPY', '¥1,980'], // platform decimal string
    [1980, 'JPY', '¥1,980'],
    ['0', 'JPY', '¥0'],
    ['0.0', 'JPY', '¥0'],
    [-500, 'JPY', '-¥500'], // minus before the sign
    ['-500.0', 'JPY', '-¥500'],
    ['999', 'JPY', '¥999'], // no separator below 1,000
    ['1000', 'JPY', '¥1,000'],
    ['1234567890', 'JPY', '¥1,234,567,890'],
    ['12345678901234567890', 'JPY', '¥12,345,678,901,234,567,890'], // beyond Number precision
    ['1980.5', 'JPY', '¥1,981'], // half-up
    ['1980.49', 'JPY', '¥1,980'],
    ['-0.4', 'JPY', '¥0'], // rounds to zero: no '-¥0'
    ['-0.5', 'JPY', '-¥1'], // halves go away from zero
    [1e21, 'JPY', '¥1,000,000,000,000,000,000,000'], // String(n) is exponent notation
    ['5', 'jpy', '¥5'], // code is case-insensitive
    // USD: dollar sign, 2 decimals
    ['1234.5', 'USD', '$1,234.50'],
    [1234.5, 'USD', '$1,234.50'],
    ['0', 'USD', '$0.00'],
    [-12.345, 'USD', '-$12.35'],
    [1234.005, 'USD', '$1,234.01'], // the float is 1234.00499..., the decimal text is not
    [0.1 + 0.2, 'USD', '$0.30'], // 0.30000000000000004
    ['0.005', 'USD', '$0.01'],
    ['0.0049', 'USD', '$0.00'],
    ['999.995', 'USD', '$1,000.00'], // carry through the integer part
    // other currencies: minor digits from Intl, code in parentheses
    ['1234.5', 'EUR', '1,234.50 (EUR)'],
    ['-1234.5', 'EUR', '-1,234.50 (EUR)'],
    ['1000', 'KRW', '1,000 (KRW)'], // KRW has no minor unit
    ['1000.6', 'KRW', '1,001 (KRW)'],
    ['1.2345', 'BHD', '1.235 (BHD)'], // 3 minor digits
    ['1e3', 'GBP', '1,000.00 (GBP)'], // exponent strings are decimals too
  ])('%j %s -> %s', (amount, code, expected) => {
    expect(formatMoney(amount, code)).toBe(expected)
  })

  it('uses U+00A5, not the full-width U+FFE5', () => {
    expect(formatMoney(1, 'JPY').codePointAt(0)).toBe(0xa5)
    expect(formatMoney(1, 'JPY')).not.toContain('\uffe5')
  })

  it.each<[string | number]>([['abc'], [''], ['1,000'], ['1.2.3'], [Number.NaN], [Number.POSITIVE_INFINITY]])(
    'rejects %j',
    (amount) => {
      expect(() => formatMoney(amount, 'JPY')).toThrow(RangeError)
    },
  )

  it('rejects a malformed currency code', () => {
    expect(() => formatMoney(1, 'YEN!')).toThrow(RangeError)
  })

  it('never prints a decimal point for JPY', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }), (x) => {
        const text = formatMoney(x, 'JPY')
        expect(text).not.toContain('.')
        expect(text).toMatch(/^-?¥\d{1,3}(,\d{3})*$/)
      }),
    )
  })
})

describe('roundMinor', () => {
  it.each<[number, string, 'half-up' | 'floor' | 'ceil', number]>([
    [1980.5, 'JPY', 'half-up', 1981],
    [1980.4, 'JPY', 'half-up', 1980],
    [1980.5, 'JPY', 'floor', 1980],
    [1980.1, 'JPY', 'ceil', 1981],
    [1980, 'JPY', 'ceil', 1980], // already whole
    [-1980.5, 'JPY', 'half-up', -1981], // away from zero
    [-1980.5, 'JPY', 'floor', -1981], // toward -infinity
    [-1980.5, 'JPY', 'ceil', -1980], // toward +infinity
    [-0.4, 'JPY', 'half-up', 0], // not -0
    [-0.4, 'JPY', 'ceil', 0],
    [1234.005, 'USD', 'half-up', 1234.01], // float is just below .005
    [1234.005, 'USD', 'floor', 1234],
    [0.1 + 0.2, 'USD', 'half-up', 0.3],
    [0.1 + 0.2, 'USD', 'ceil', 0.31], // the float really is above 0.30
    [1.005, 'EUR', 'half-up', 1.01], // Math.round(1.005 * 100) / 100 gives 1.00
    [1000.5, 'KRW', 'half-up', 1001],
    [1.2345, 'BHD', 'half-up', 1.235],
  ])('%d %s %s -> %d', (amount, code, mode, expected) => {
    expect(Object.is(roundMinor(amount, code, mode), expected)).toBe(true)
  })

  it('defaults to half-up', () => {
    expect(roundMinor(2.5, 'JPY')).toBe(3)
  })

  it('rounds JPY to an integer within half a yen', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }), (x) => {
        const result = roundMinor(x, 'JPY')
        expect(Number.isInteger(result)).toBe(true)
        expect(Math.abs(result - x)).toBeLessThanOrEqual(0.5)
      }),
    )
  })

  it('floor <= x <= ceil and they differ by at most one minor unit', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 0, max: 999 }), (whole, milli) => {
        const x = whole + milli / 1000
        const floor = roundMinor(x, 'USD', 'floor')
        const ceil = roundMinor(x, 'USD', 'ceil')
        expect(floor).toBeLessThanOrEqual(x)
        expect(ceil).toBeGreaterThanOrEqual(x)
        expect(Math.round((ceil - floor) * 100)).toBeLessThanOrEqual(1)
      }),
    )
  })
})

describe('currencyDigits', () => {
  it.each<[string, number]>([
    ['JPY', 0],
    ['jpy', 0],
    ['USD', 2],
    ['EUR', 2],
    ['KRW', 0],
    ['BHD', 3],
  ])('%s has %d minor digits', (code, digits) => {
    expect(currencyDigits(code)).toBe(digits)
  })
})
