import { describe, expect, it } from 'vitest'
import { billingIntervalLabel } from '../src/index.ts'

describe('billingIntervalLabel', () => {
  it.each<[string, number | null, string]>([
    ['DAY', 1, '毎日'],
    ['DAY', 3, '3日ごと'],
    ['WEEK', 2, '2週間ごと'],
    ['MONTH', 1, '1ヶ月ごと'],
    ['YEAR', 1, '1年ごと'],
    ['MONTH', null, '1ヶ月ごと'], // the CSV's row without a count
    ['MONTH', 0, '1ヶ月ごと'], // a count that says nothing is read as 1
    ['WEEK', -2, '1週間ごと'],
    ['DAY', Number.NaN, '毎日'],
    ['QUARTER', 2, '2 QUARTER'], // an interval the platform may add later, shown as it comes
  ])('%s × %s is %s', (interval, count, label) => {
    expect(billingIntervalLabel(interval, count)).toBe(label)
  })
})
