import type { SubscriptionDetail } from '@teiki/contract'
import { useCallback } from 'react'
import { ApiError, errorMessage } from '../../../app/api.ts'
import { invalidate, useApi } from '../../../app/use-api.ts'

export type DetailState =
  | { status: 'loading' }
  | { status: 'not-found' }
  | { status: 'error'; message: string }
  | { status: 'success'; data: SubscriptionDetail; isReloading: boolean }

/**
 * Loads one contract. `reload` keeps the shown data while the new copy loads (after an edit or
 * an action, which also refetches the list), `retry` asks again after an error.
 */
export function useSubscriptionDetail(contractId: string) {
  // Contract ids are numeric: anything else cannot exist, no need to ask the server.
  const valid = /^\d{1,20}$/.test(contractId)
  const answer = useApi(valid ? 'GET /subscriptions/:contractId' : null, { params: { contractId } })
  const reload = useCallback(
    () =>
      void invalidate(
        'GET /subscriptions/:contractId',
        'GET /subscriptions/search',
        'GET /subscriptions/search-variant-id',
      ),
    [],
  )
  return { state: detailState(valid, answer), retry: answer.retry, reload }
}

function detailState(
  valid: boolean,
  answer: { data: SubscriptionDetail | undefined; error: unknown; isValidating: boolean },
): DetailState {
  if (!valid) return { status: 'not-found' }
  if (answer.data) return { status: 'success', data: answer.data, isReloading: answer.isValidating }
  if (answer.error instanceof ApiError && answer.error.code === 'NOT_FOUND') return { status: 'not-found' }
  if (answer.error && !answer.isValidating) return { status: 'error', message: errorMessage(answer.error) }
  return { status: 'loading' }
}
