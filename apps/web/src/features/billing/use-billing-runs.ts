import { useCallback, useEffect, useState } from 'react'
import { errorMessage } from '../../app/api.ts'
import { type BillingApi, httpBillingApi } from './billing-api.ts'
import { RECENT_RUNS, type RunsState } from './runs-format.ts'

/** Loads the latest billing runs once (and again on retry). */
export function useBillingRuns(api: Pick<BillingApi, 'runs'> = httpBillingApi): {
  state: RunsState
  retry: () => void
} {
  const [state, setState] = useState<RunsState>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` re-runs the load.
  useEffect(() => {
    let current = true
    setState({ status: 'loading' })
    api.runs(RECENT_RUNS).then(
      (runs) => {
        if (current) setState({ status: 'success', runs })
      },
      (error: unknown) => {
        if (current) setState({ status: 'error', message: errorMessage(error) })
      },
    )
    return () => {
      current = false
    }
  }, [api, attempt])

  const retry = useCallback(() => setAttempt((n) => n + 1), [])
  return { state, retry }
}
