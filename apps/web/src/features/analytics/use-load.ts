import { useCallback, useEffect, useState } from 'react'
import { errorMessage, isAbortError } from '../../app/api.ts'

export type Load<T> =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'success'; data: T }

/**
 * Loads `fetcher` whenever `key` changes (and on retry); an older answer never overwrites a
 * newer one (the request is aborted when the key moves on).
 */
export function useLoad<T>(
  key: string,
  fetcher: (signal: AbortSignal) => Promise<T>,
): { state: Load<T>; retry: () => void } {
  const [state, setState] = useState<Load<T>>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the fetcher's inputs; `attempt` re-runs it.
  useEffect(() => {
    const controller = new AbortController()
    setState({ status: 'loading' })
    fetcher(controller.signal).then(
      (data) => setState({ status: 'success', data }),
      (error: unknown) => {
        if (!isAbortError(error)) setState({ status: 'error', message: errorMessage(error) })
      },
    )
    return () => controller.abort()
  }, [key, attempt])
  return { state, retry: useCallback(() => setAttempt((n) => n + 1), []) }
}
