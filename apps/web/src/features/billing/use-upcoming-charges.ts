import { useCallback, useEffect, useState } from 'react'
import { errorMessage, isAbortError } from '../../app/api.ts'
import { type BillingApi, httpBillingApi } from './billing-api.ts'
import type { UpcomingState } from './upcoming-format.ts'

/**
 * Loads one page of the upcoming charges. A newer query aborts the older one, so a slow
 * answer never overwrites a fresh one; the previous answer stays on screen while loading.
 */
export function useUpcomingCharges(
  days: number,
  offset: number,
  api: Pick<BillingApi, 'upcoming'> = httpBillingApi,
): { state: UpcomingState; retry: () => void } {
  const [state, setState] = useState<UpcomingState>({ status: 'loading', previous: null })
  const [attempt, setAttempt] = useState(0)

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` re-runs the load.
  useEffect(() => {
    const controller = new AbortController()
    setState((current) => ({
      status: 'loading',
      previous:
        current.status === 'success' ? current.data : current.status === 'loading' ? current.previous : null,
    }))
    api.upcoming({ days, offset }, { signal: controller.signal }).then(
      (data) => setState({ status: 'success', data }),
      (error: unknown) => {
        if (isAbortError(error)) return
        setState({ status: 'error', message: errorMessage(error) })
      },
    )
    return () => controller.abort()
  }, [api, days, offset, attempt])

  const retry = useCallback(() => setAttempt((n) => n + 1), [])
  return { state, retry }
}
