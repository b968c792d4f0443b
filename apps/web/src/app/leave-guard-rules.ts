/**
 * When leaving a page loses the merchant's unsaved changes. Pure, for the unit tests; the
 * guard itself is leave-guard.tsx.
 */

type Place = { pathname: string; search: string }

/** In-app navigation is held back only when there is something unsaved and the page would change. */
export function blocksNavigation(dirty: boolean, current: Place, next: Place): boolean {
  return dirty && (current.pathname !== next.pathname || current.search !== next.search)
}

export const LEAVE_TITLE = '保存されていない変更があります'
export const LEAVE_MESSAGE = 'このページを離れると、保存していない変更は失われます。'
