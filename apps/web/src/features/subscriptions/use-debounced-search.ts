import { useCallback, useEffect, useRef, useState } from 'react'

export const SEARCH_DEBOUNCE_MS = 400

/**
 * The search box's text and the committed term the list searches for. Typing commits after
 * 400 ms of quiet; `commitNow` (Enter) and `clear` commit at once.
 */
export function useDebouncedSearch(initial = '') {
  const [value, setValue] = useState(initial)
  const [committed, setCommitted] = useState(initial)
  const timer = useRef<number | undefined>(undefined)

  const cancelTimer = useCallback(() => {
    if (timer.current !== undefined) window.clearTimeout(timer.current)
    timer.current = undefined
  }, [])

  useEffect(() => cancelTimer, [cancelTimer])

  const change = useCallback(
    (next: string) => {
      setValue(next)
      cancelTimer()
      timer.current = window.setTimeout(() => setCommitted(next), SEARCH_DEBOUNCE_MS)
    },
    [cancelTimer],
  )

  const commitNow = useCallback(() => {
    cancelTimer()
    setCommitted(value)
  }, [cancelTimer, value])

  const clear = useCallback(() => {
    cancelTimer()
    setValue('')
    setCommitted('')
  }, [cancelTimer])

  return { value, committed, change, commitNow, clear }
}
