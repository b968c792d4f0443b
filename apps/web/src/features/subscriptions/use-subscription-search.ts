import type { SearchSubscriptionsResponse } from '@teiki/contract'
import { useCallback, useEffect, useState } from 'react'
import { apiGet, errorMessage, isAbortError } from '../../app/api.ts'
import type { SearchRequest } from './search-request.ts'

export type SearchState =
  | { status: 'loading'; previous: SearchSubscriptionsResponse | null }
  | { status: 'error'; message: string }
  | { status: 'success'; data: SearchSubscriptionsResponse }

/**
 * Runs the search for `request` (null = do not search, e.g. invalid filters). A newer request
 * aborts the older one, so a slow answer never overwrites a fresh one.
 */
export function useSubscriptionSearch(request: SearchRequest | null): {
  state: SearchState
  retry: () => void
} {
  const [state, setState] = useState<SearchState>({ status: 'loading', previous: null })
  const [attempt, setAttempt] = useState(0)
  const key = request ? JSON.stringify(request) : null

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for `request`; `attempt` re-runs it.
  useEffect(() => {
    if (!request) return
    const controller = new AbortController()
    setState((current) => ({
      status: 'loading',
      previous:
        current.status === 'success' ? current.data : current.status === 'loading' ? current.previous : null,
    }))
    apiGet<SearchSubscriptionsResponse>(request.path, request.params, { signal: controller.signal }).then(
      (data) => setState({ status: 'success', data }),
      (error: unknown) => {
        if (isAbortError(error)) return
        setState({ status: 'error', message: errorMessage(error) })
      },
    )
    return () => controller.abort()
  }, [key, attempt])

  const retry = useCallback(() => setAttempt((current) => current + 1), [])
  return { state, retry }
}
