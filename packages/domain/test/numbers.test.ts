import { describe, expect, it } from 'vitest'
import { formatNumber, formatPercent, pageRangeLabel } from '../src/index.ts'

describe('formatNumber', () => {
  it.each<[number, string]>([
    [0, '0'],
    [-0, '0'],
    [999, '999'],
    [1000, '1,000'],
    [12345, '12,345'],
    [-1234567, '-1,234,567'],
    [1234.5, '1,234.5'], // fraction kept as given
    [1e21, '1,000,000,000,000,000,000,000'], // String(n) would say 1e+21
    [Number.NaN, '—'], // e.g. 0/0 in a report
    [Number.POSITIVE_INFINITY, '—'],
  ])('%d -> %s', (n, expected) => {
    expect(formatNumber(n)).toBe(expected)
  })
})

describe('formatPercent', () => {
  it.each<[number, number | undefined, string]>([
    [0.4567, undefined, '46%'],
    [0.4567, 1, '45.7%'],
    [0, undefined, '0%'],
    [1, undefined, '100%'],
    [0.005, undefined, '1%'], // half-up: 0.5% -> 1%
    [0.285, undefined, '29%'], // 0.285 * 100 is 28.499999999999996 in floats
    [0.00049, 1, '0.0%'],
    [0.45, 1, '45.0%'], // fixed digits
    [12.3456, undefined, '1,235%'],
    [-0.125, undefined, '-13%'], // away from zero
    [-0.001, undefined, '0%'], // no '-0%'
    [Number.NaN, undefined, '—'],
  ])('%d (%s digits) -> %s', (ratio, digits, expected) => {
    expect(formatPercent(ratio, digits)).toBe(expected)
  })
})

describe('pageRangeLabel: the one counter of every paged list', () => {
  it.each<[number, number, number | null, boolean, string]>([
    [0, 10, 320, false, '1〜10件 / 全320件'],
    [20, 20, 40, false, '21〜40件 / 全40件'], // 請求予定 said 「21〜40件目」 (issue 22)
    [120, 3, 123, false, '121〜123件 / 全123件'],
    [990, 10, 1234, false, '991〜1,000件 / 全1,234件'],
    [0, 10, 10_000, true, '1〜10件 / 全10,000件以上'], // the search stopped counting
    [0, 0, 0, false, '全0件'],
    [10, 10, null, false, '11〜20件'], // total still being counted
    [0, 0, null, false, '0件'],
  ])('offset %i, %i rows of %j', (offset, shown, total, atLeast, label) => {
    expect(pageRangeLabel(offset, shown, total, atLeast)).toBe(label)
  })
})
