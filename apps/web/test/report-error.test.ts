import { describe, expect, it } from 'vitest'
import { errorMessageOf, reportDecision } from '../src/app/report-error.ts'

describe('reportDecision', () => {
  it.each([
    ['Non-Error exception captured with keys: error, message', 'ignore'],
    ['NetworkError when attempting to fetch resource.', 'ignore'],
    ['ReferenceError: window is not defined', 'drop'],
    ["Failed to execute 'setItem' on 'Storage': quota exceeded", 'report'],
    ['', 'report'],
    ['networkerror', 'report'], // the filter is case-sensitive, as the reporter's is
  ] as const)('%s → %s', (message, expected) => {
    expect(reportDecision(message)).toBe(expected)
  })
})

describe('errorMessageOf', () => {
  it('reads errors, strings and objects', () => {
    expect(errorMessageOf(new Error('boom'))).toBe('boom')
    expect(errorMessageOf('text')).toBe('text')
    expect(errorMessageOf({ code: 1 })).toBe('{"code":1}')
  })
})
