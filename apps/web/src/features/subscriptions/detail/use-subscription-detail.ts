import type { SubscriptionDetail } from '@teiki/contract'
import { useCallback, useEffect, useState } from 'react'
import { ApiError, apiGet, errorMessage, isAbortError } from '../../../app/api.ts'
import { takePrefetchedDetail } from './detail-prefetch.ts'

export type DetailState =
  | { status: 'loading' }
  | { status: 'not-found' }
  | { status: 'error'; message: string }
  | { status: 'success'; data: SubscriptionDetail; isReloading: boolean }

/**
 * Loads one contract. `reload` keeps the shown data while the new copy loads (after an action),
 * `retry` starts over with the skeleton (after an error).
 */
export function useSubscriptionDetail(contractId: string) {
  const [state, setState] = useState<DetailState>({ status: 'loading' })
  const [attempt, setAttempt] = useState({ count: 0, quiet: false })

  useEffect(() => {
    // Contract ids are numeric: anything else cannot exist, no need to ask the server.
    if (!/^\d{1,20}$/.test(contractId)) {
      setState({ status: 'not-found' })
      return
    }
    const controller = new AbortController()
    setState((current) =>
      attempt.quiet && current.status === 'success'
        ? { ...current, isReloading: true }
        : { status: 'loading' },
    )
    const request =
      (attempt.count === 0 && takePrefetchedDetail(contractId)) ||
      apiGet<SubscriptionDetail>(
        `/subscriptions/${encodeURIComponent(contractId)}`,
        {},
        { signal: controller.signal },
      )
    request.then(
      (data) => {
        if (!controller.signal.aborted) setState({ status: 'success', data, isReloading: false })
      },
      (error: unknown) => {
        if (isAbortError(error) || controller.signal.aborted) return
        if (error instanceof ApiError && error.code === 'NOT_FOUND') setState({ status: 'not-found' })
        else setState({ status: 'error', message: errorMessage(error) })
      },
    )
    return () => controller.abort()
  }, [contractId, attempt])

  const retry = useCallback(() => setAttempt((a) => ({ count: a.count + 1, quiet: false })), [])
  const reload = useCallback(() => setAttempt((a) => ({ count: a.count + 1, quiet: true })), [])
  return { state, retry, reload }
}
