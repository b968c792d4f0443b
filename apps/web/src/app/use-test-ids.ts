import { type RefObject, useLayoutEffect } from 'react'

/**
 * Polaris components (IndexTable rows, Pagination buttons) do not forward `data-*` props, so
 * end-to-end test ids are set on their DOM after each render. `selectors` maps a CSS
 * selector inside `ref` to the `data-testid` its matches get.
 */
export function useTestIds(ref: RefObject<HTMLElement | null>, selectors: Record<string, string>): void {
  useLayoutEffect(() => {
    const root = ref.current
    if (!root) return
    for (const [selector, testId] of Object.entries(selectors)) {
      for (const element of root.querySelectorAll(selector)) {
        if (element.getAttribute('data-testid') !== testId) element.setAttribute('data-testid', testId)
      }
    }
  })
}
