import { describe, expect, it } from 'vitest'
import { priceInputProblem } from '../src/index.ts'

describe('priceInputProblem', () => {
  it.each([
    ['1980', 'JPY'],
    ['1980.0', 'JPY'], // a zero fraction is still whole yen
    ['1980.00', 'jpy'],
    ['0', 'JPY'],
    ['1980.5', 'USD'],
    ['1980.55', 'USD'],
    ['1000', 'KRW'],
  ])('accepts %s %s', (text, currency) => {
    expect(priceInputProblem(text, currency)).toBeNull()
  })

  it.each([
    ['1980.5', 'JPY', '価格は小数点なしの整数で入力してください（JPY、例: 1980）'],
    ['1980.01', 'JPY', '価格は小数点なしの整数で入力してください（JPY、例: 1980）'],
    ['0.5', 'KRW', '価格は小数点なしの整数で入力してください（KRW、例: 1980）'],
    ['19.999', 'USD', '価格は小数点以下2桁までで入力してください'],
    ['abc', 'JPY', '価格は0以上の数値で入力してください（例: 1980）'],
  ])('refuses %s %s', (text, currency, message) => {
    expect(priceInputProblem(text, currency)).toBe(message)
  })
})
