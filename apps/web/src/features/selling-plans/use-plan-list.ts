import type { SellingPlanGroupList } from '@teiki/contract'
import { useCallback, useEffect, useState } from 'react'
import { errorMessage, isAbortError } from '../../app/api.ts'
import type { PlansApi } from './plans-api.ts'

export type PlanListState =
  | { status: 'loading'; previous: SellingPlanGroupList | null }
  | { status: 'error'; message: string }
  | { status: 'ready'; data: SellingPlanGroupList }

/** One page of the group list; a newer query aborts the older request. */
export function usePlanList(api: PlansApi, query: string, page: number) {
  const [state, setState] = useState<PlanListState>({ status: 'loading', previous: null })
  const [attempt, setAttempt] = useState(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` re-runs the load.
  useEffect(() => {
    const controller = new AbortController()
    setState((s) => ({ status: 'loading', previous: s.status === 'ready' ? s.data : null }))
    api.list({ query, page }, { signal: controller.signal }).then(
      (data) => setState({ status: 'ready', data }),
      (error: unknown) => {
        if (!isAbortError(error)) setState({ status: 'error', message: errorMessage(error) })
      },
    )
    return () => controller.abort()
  }, [api, query, page, attempt])
  const retry = useCallback(() => setAttempt((n) => n + 1), [])
  return { state, retry }
}

/** The list's search and page in its URL (`?query=…&page=2`), so Back returns to them. */
export function parsePlanListQuery(search: string): { query: string; page: number } {
  const params = new URLSearchParams(search)
  const page = Number(params.get('page') ?? '1')
  return { query: params.get('query') ?? '', page: Number.isSafeInteger(page) && page >= 1 ? page : 1 }
}

export function planListPath({ query, page }: { query: string; page: number }): string {
  const params = new URLSearchParams()
  if (query.trim()) params.set('query', query.trim())
  if (page > 1) params.set('page', String(page))
  const search = params.toString()
  return `/selling-plans${search ? `?${search}` : ''}`
}
