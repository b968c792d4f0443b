import { useCallback, useEffect, useRef, useState } from 'react'

export const SEARCH_DEBOUNCE_MS = 400

/**
 * The search box's text for a committed search term that lives elsewhere (the list's URL).
 * Typing commits after 400 ms of quiet; `commitNow` (Enter) and `clear` commit at once. When the
 * committed term changes from outside (Back, the menu's 契約一覧), the box shows it.
 */
export function useDebouncedSearch(committed: string, onCommit: (text: string) => void) {
  const [value, setValue] = useState(committed)
  const timer = useRef<number | undefined>(undefined)
  // What this box last committed: the URL catching up with it is not an outside change.
  const own = useRef(committed)
  const commit = useRef(onCommit)
  commit.current = onCommit

  const cancelTimer = useCallback(() => {
    if (timer.current !== undefined) window.clearTimeout(timer.current)
    timer.current = undefined
  }, [])

  useEffect(() => cancelTimer, [cancelTimer])

  useEffect(() => {
    if (committed === own.current) return
    own.current = committed
    cancelTimer()
    setValue(committed)
  }, [committed, cancelTimer])

  const send = useCallback((text: string) => {
    own.current = text
    commit.current(text)
  }, [])

  const change = useCallback(
    (next: string) => {
      setValue(next)
      cancelTimer()
      timer.current = window.setTimeout(() => send(next), SEARCH_DEBOUNCE_MS)
    },
    [cancelTimer, send],
  )

  const commitNow = useCallback(() => {
    cancelTimer()
    send(value)
  }, [cancelTimer, send, value])

  const clear = useCallback(() => {
    cancelTimer()
    setValue('')
    send('')
  }, [cancelTimer, send])

  return { value, change, commitNow, clear }
}
