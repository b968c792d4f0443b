import type { AppUsageEligibility, EligibilityResponse } from '@teiki/contract'
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react'
import { api, errorMessage } from './api.ts'
import { reportError } from './report-error.ts'

/**
 * The subscription check behind page gating: may the shop use the app (`/app-usage-eligibility`:
 * an active plan, or a development or test shop; else why not) and with which of the plans'
 * features, and does the app need an update (new access scopes)? Runs once per page load, the
 * first time a gated route asks for it, and is kept while the merchant moves between pages.
 */
export type CheckState =
  | { status: 'idle' }
  | { status: 'checking' }
  | { status: 'failed'; message: string }
  | { status: 'done'; usage: AppUsageEligibility; updateUri: string | null }

type CheckContextValue = { state: CheckState; request: () => void; retry: () => void }

const CheckContext = createContext<CheckContextValue | null>(null)

async function runCheck(): Promise<CheckState> {
  const [usage, eligibility] = await Promise.all([
    api('GET /app-usage-eligibility'),
    // A failing eligibility call must not lock the merchant out: treat it as eligible.
    api('GET /app-scope-eligibility').catch((error: unknown): EligibilityResponse => {
      reportError(error, 'app-scope-eligibility check failed')
      return { eligible: true, redirect_uri: null }
    }),
  ])
  return {
    status: 'done',
    usage,
    updateUri: !eligibility.eligible && eligibility.redirect_uri ? eligibility.redirect_uri : null,
  }
}

export function SubscriptionCheckProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<CheckState>({ status: 'idle' })
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    if (attempt === 0) return
    let cancelled = false
    setState({ status: 'checking' })
    runCheck().then(
      (result) => {
        if (!cancelled) setState(result)
      },
      (error: unknown) => {
        if (!cancelled) setState({ status: 'failed', message: errorMessage(error) })
      },
    )
    return () => {
      cancelled = true
    }
  }, [attempt])

  const request = useCallback(() => setAttempt((current) => (current === 0 ? 1 : current)), [])
  const retry = useCallback(() => setAttempt((current) => current + 1), [])
  const value = useMemo(() => ({ state, request, retry }), [state, request, retry])
  return <CheckContext.Provider value={value}>{children}</CheckContext.Provider>
}

/** The check's state; asks for the check to run if it has not yet. */
export function useSubscriptionCheck(): { state: CheckState; retry: () => void } {
  const value = useContext(CheckContext)
  if (!value) throw new Error('useSubscriptionCheck must be used inside <SubscriptionCheckProvider>')
  const { state, request, retry } = value
  useEffect(() => {
    if (state.status === 'idle') request()
  }, [state.status, request])
  return { state, retry }
}

/** The plan's features as the check found them; null before it is done (pages under the gate never see that). */
export function usePlanUsage(): AppUsageEligibility | null {
  const value = useContext(CheckContext)
  return value?.state.status === 'done' ? value.state.usage : null
}
