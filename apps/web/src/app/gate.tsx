import { Card, Layout, Page, SkeletonBodyText, SkeletonDisplayText, SkeletonPage } from '@shopify/polaris'
import { type ReactNode, useEffect, useState } from 'react'
import { Navigate, useLocation } from 'react-router-dom'
import { LoadErrorState } from './load-state.tsx'
import { useSubscriptionCheck } from './subscription-check.tsx'
import { UpdateRequiredModal } from './update-required-modal.tsx'
import { useAppHref } from './use-app-navigate.ts'

/** Routes that render without the subscription check (spec section 2). */
const UNGATED_PATHS = new Set(['/plans'])

export function isGatedPath(pathname: string): boolean {
  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
  return !UNGATED_PATHS.has(normalized)
}

/**
 * Page gating: on every gated route nothing of the page renders until the check is done; a
 * shop that may not use the app (no plan, or one cancelled, declined, expired or frozen)
 * is sent to /plans, which says why; an app that needs an update gets a blocking modal.
 */
export function PageGate({ children }: { children: ReactNode }) {
  const { pathname } = useLocation()
  if (!isGatedPath(pathname)) return <>{children}</>
  return <CheckedPage>{children}</CheckedPage>
}

function CheckedPage({ children }: { children: ReactNode }) {
  const { state, retry } = useSubscriptionCheck()
  const appHref = useAppHref()

  switch (state.status) {
    case 'idle':
    case 'checking':
      return <DelayedPlaceholder />
    case 'failed':
      return (
        <Page title="Teiki 定期購買管理">
          <LoadErrorState title="ご契約状況を確認できませんでした" message={state.message} onRetry={retry} />
        </Page>
      )
    case 'done':
      if (!state.usage.eligible) return <Navigate to={appHref('/plans')} replace />
      if (state.updateUri) return <UpdateRequiredModal updateUri={state.updateUri} />
      return <>{children}</>
  }
}

const PLACEHOLDER_DELAY_MS = 300

/** Nothing for the first 300 ms (most checks finish sooner), then a neutral skeleton. */
function DelayedPlaceholder() {
  const [isVisible, setIsVisible] = useState(false)
  useEffect(() => {
    const timer = window.setTimeout(() => setIsVisible(true), PLACEHOLDER_DELAY_MS)
    return () => window.clearTimeout(timer)
  }, [])
  if (!isVisible) return null
  return (
    <SkeletonPage primaryAction={false}>
      <Layout>
        <Layout.Section>
          <Card>
            <SkeletonDisplayText size="small" />
            <SkeletonBodyText lines={6} />
          </Card>
        </Layout.Section>
      </Layout>
    </SkeletonPage>
  )
}
