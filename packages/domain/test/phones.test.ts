import { describe, expect, it } from 'vitest'
import { formatPhoneJa } from '../src/index.ts'

describe('formatPhoneJa', () => {
  it.each<[string, string]>([
    // Mobile (070/080/090) from the platform's E.164: the example.
    ['+817077812083', '070-7781-2083'],
    ['+818012345678', '080-1234-5678'],
    ['+819012345678', '090-1234-5678'],
    ['09012345678', '090-1234-5678'], // already national, no hyphens
    ['090-1234-5678', '090-1234-5678'], // already formatted
    ['+81 90 1234 5678', '090-1234-5678'], // spaces
    ['+81-090-1234-5678', '090-1234-5678'], // trunk 0 kept after the country code
    ['008190-1234-5678', '090-1234-5678'], // 0081 international prefix
    ['０９０（１２３４）５６７８', '090-1234-5678'], // full-width, parentheses
    // IP phone and M2M are 11 digits too.
    ['+815012345678', '050-1234-5678'],
    ['+812012345678', '020-1234-5678'],
    // Landlines: Tokyo and Osaka have 2-digit area codes.
    ['+81312345678', '03-1234-5678'],
    ['0312345678', '03-1234-5678'],
    ['+81612345678', '06-1234-5678'],
    // Toll-free and navigation dial.
    ['0120123456', '0120-123-456'],
    ['+81120123456', '0120-123-456'],
    ['08001234567', '0800-123-4567'],
    ['0570123456', '0570-123-456'],
    // Other area codes: 3-3-4 (Yokohama, Sapporo).
    ['+81451234567', '045-123-4567'],
    ['0111234567', '011-123-4567'],
  ])('%s → %s', (input, expected) => {
    expect(formatPhoneJa(input)).toBe(expected)
  })

  it.each<[string, string]>([
    // Not Japanese numbers, or not numbers: as given (trimmed).
    ['+14155550123', '+14155550123'], // another country
    ['  +44 20 7946 0958 ', '+44 20 7946 0958'],
    ['090-1234-567', '090-1234-567'], // a digit short for a mobile number
    ['031234567', '031234567'], // a digit short
    ['03123456789', '03123456789'], // a digit too many for Tokyo
    ['0120-1234-5678', '0120-1234-5678'], // toll-free is 10 digits
    ['内線 123', '内線 123'],
    ['', ''],
  ])('%s stays %s', (input, expected) => {
    expect(formatPhoneJa(input)).toBe(expected)
  })
})
