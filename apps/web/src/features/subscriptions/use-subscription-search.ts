import type { SearchSubscriptionsResponse } from '@teiki/contract'
import { type ApiState, useApi } from '../../app/use-api.ts'
import type { SearchRequest } from './search-request.ts'

export type SearchState = ApiState<SearchSubscriptionsResponse>

/**
 * Runs the search for `request` (null = do not search, e.g. invalid filters). The answer of the
 * previous request stays on screen while the next one loads (paging, typing), and a slow answer
 * never overwrites a fresh one (the request library keeps the latest key's answer).
 */
export function useSubscriptionSearch(request: SearchRequest | null): SearchState {
  const route = request ? (`GET ${request.path}` as const) : null
  return useApi(route, request ? { query: request.params } : undefined, { keepPrevious: true })
}
