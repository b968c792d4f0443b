import { describe, expect, it } from 'vitest'
import { trialLabel } from '../src/features/plans/plan-status.ts'

describe('trialLabel', () => {
  it.each([
    [14, '14日間'],
    [0, 'なし'],
    [null, 'なし'],
  ])('%s', (days, expected) => {
    expect(trialLabel(days)).toBe(expected)
  })
})
