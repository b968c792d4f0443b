import { describe, expect, it } from 'vitest'
import { blocksNavigation } from '../src/app/leave-guard-rules.ts'
import {
  hasUnsavedText,
  initialReasonsState,
  type ReasonsState,
  reasonsReducer,
} from '../src/features/cancellation-reasons/reasons-state.ts'

const settings = { pathname: '/billing/settings', search: '?shop=a&secret=b' }

describe('blocksNavigation', () => {
  it.each<[string, boolean, { pathname: string; search: string }, boolean]>([
    ['unsaved, to another page', true, { pathname: '/', search: '?shop=a&secret=b' }, true],
    ['unsaved, same page with another query', true, { ...settings, search: '?shop=a' }, true],
    ['unsaved, the same place (a re-render)', true, settings, false],
    ['nothing unsaved', false, { pathname: '/', search: '' }, false],
  ])('%s', (_name, dirty, next, expected) => {
    expect(blocksNavigation(dirty, settings, next)).toBe(expected)
  })
})

describe('解約理由: what counts as unsaved', () => {
  const loaded: ReasonsState = reasonsReducer(initialReasonsState, {
    type: 'loaded',
    reasons: [{ id: '1', reason: '価格が高い', position: 1 }],
  })

  it('text typed in the add field', () => {
    expect(hasUnsavedText(loaded)).toBe(false)
    expect(hasUnsavedText(reasonsReducer(loaded, { type: 'draftChanged', text: '  ' }))).toBe(false)
    expect(hasUnsavedText(reasonsReducer(loaded, { type: 'draftChanged', text: '量が多い' }))).toBe(true)
  })

  it('a rename that differs from the stored reason', () => {
    const editing = reasonsReducer(loaded, { type: 'editStarted', id: '1' })
    expect(hasUnsavedText(editing)).toBe(false) // opened, not changed
    expect(hasUnsavedText(reasonsReducer(editing, { type: 'editChanged', text: '価格が高い ' }))).toBe(false)
    expect(hasUnsavedText(reasonsReducer(editing, { type: 'editChanged', text: '価格が高すぎる' }))).toBe(
      true,
    )
    expect(
      hasUnsavedText(
        reasonsReducer(reasonsReducer(editing, { type: 'editChanged', text: 'x' }), {
          type: 'editCancelled',
        }),
      ),
    ).toBe(false)
  })
})
