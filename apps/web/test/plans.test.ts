import { describe, expect, it } from 'vitest'
import { minorToMajor, trialLabel } from '../src/features/plans/plan-status.ts'

describe('minorToMajor', () => {
  it.each([
    ['1980', 0, '1980'], // JPY: minor = major
    ['1999', 2, '19.99'],
    ['5', 2, '0.05'],
    ['0', 2, '0.00'],
    ['-1500', 2, '-15.00'],
    ['001980', 0, '1980'],
    ['12.5', 2, '12.5'], // not an integer: passed through untouched
  ])('%s with %i digits', (minor, digits, expected) => {
    expect(minorToMajor(minor, digits)).toBe(expected)
  })
})

describe('trialLabel', () => {
  it.each([
    [14, '14日間'],
    [0, 'なし'],
    [null, 'なし'],
  ])('%s', (days, expected) => {
    expect(trialLabel(days)).toBe(expected)
  })
})
