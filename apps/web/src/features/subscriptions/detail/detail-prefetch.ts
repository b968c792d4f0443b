import type { SubscriptionDetail } from '@teiki/contract'
import { apiGet } from '../../../app/api.ts'

const DETAIL_PATH = /^\/subscriptions\/(\d{1,20})\/?$/

let prefetched: { contractId: string; promise: Promise<SubscriptionDetail> } | null = null

/**
 * On a cold load of a contract's page, starts the page's code and the contract's data at once,
 * while the plan check runs, instead of one after the other (the detail LCP target is 1 s).
 * Called once from main.tsx; anything else on the page is untouched.
 */
export function prefetchDetailFor(pathname: string): void {
  const match = DETAIL_PATH.exec(pathname)
  if (!match?.[1]) return
  void import('./subscription-detail-page.tsx')
  const promise = apiGet<SubscriptionDetail>(`/subscriptions/${match[1]}`)
  // The page reports failures when it takes the promise; never an unhandled rejection here.
  promise.catch(() => {})
  prefetched = { contractId: match[1], promise }
}

/** The prefetched copy of this contract, once: later loads (reload, retry) fetch anew. */
export function takePrefetchedDetail(contractId: string): Promise<SubscriptionDetail> | null {
  if (prefetched?.contractId !== contractId) return null
  const { promise } = prefetched
  prefetched = null
  return promise
}
