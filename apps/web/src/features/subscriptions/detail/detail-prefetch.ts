import { prefetch } from '../../../app/use-api.ts'

const DETAIL_PATH = /^\/subscriptions\/(\d{1,20})\/?$/

/**
 * On a cold load of a contract's page, starts the page's code and the contract's data at once,
 * while the plan check runs, instead of one after the other (the detail LCP target is 1 s).
 * The answer lands in the request cache, where the page's `useApi` finds it. Called once from
 * main.tsx; anything else on the page is untouched.
 */
export function prefetchDetailFor(pathname: string): void {
  const match = DETAIL_PATH.exec(pathname)
  if (!match?.[1]) return
  void import('./subscription-detail-page.tsx')
  // The page reports failures when it reads the answer; never an unhandled rejection here.
  prefetch('GET /subscriptions/:contractId', { params: { contractId: match[1] } }).catch(() => {})
}
