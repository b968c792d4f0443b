import { phase, useLoader } from '../../app/use-api.ts'
import { type BillingApi, httpBillingApi } from './billing-api.ts'
import { RECENT_RUNS, type RunsState } from './runs-format.ts'

/** Loads the latest billing runs (and again on retry). */
export function useBillingRuns(api: Pick<BillingApi, 'runs'> = httpBillingApi): {
  state: RunsState
  retry: () => void
} {
  const answer = useLoader(['GET /billing/runs', RECENT_RUNS], () => api.runs(RECENT_RUNS))
  const state = phase(answer)
  return {
    state: state.status === 'done' ? { status: 'success', runs: state.data } : state,
    retry: answer.retry,
  }
}
