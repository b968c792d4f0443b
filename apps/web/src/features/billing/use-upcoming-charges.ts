import { listPhase, useLoader } from '../../app/use-api.ts'
import { type BillingApi, httpBillingApi } from './billing-api.ts'
import type { UpcomingState } from './upcoming-format.ts'

/**
 * Loads one page of the upcoming charges; the previous answer stays on screen while the next
 * loads, and a slow answer never overwrites a fresh one.
 */
export function useUpcomingCharges(
  days: number,
  offset: number,
  api: Pick<BillingApi, 'upcoming'> = httpBillingApi,
): { state: UpcomingState; retry: () => void } {
  const answer = useLoader(['GET /billing/upcoming', days, offset], () => api.upcoming({ days, offset }), {
    keepPrevious: true,
  })
  return { state: listPhase(answer), retry: answer.retry }
}
