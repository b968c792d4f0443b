import { Box, Card, EmptyState, SkeletonBodyText } from '@shopify/polaris'
import type { ReactNode } from 'react'
import { errorMessage } from './api.ts'
import { EMPTY_STATE_IMAGE } from './empty-state-image.ts'
import { LoadErrorBanner } from './load-error-banner.tsx'
import type { ApiState } from './use-api.ts'

// The three states every screen that loads data shows, one component each, so every page says
// "loading", "nothing yet" and "could not load" the same way.

/** While the first answer is awaited: skeleton lines where the content will be (`card`: in a card of its own). */
export function LoadingState({ lines = 6, card = false }: { lines?: number; card?: boolean }) {
  const skeleton = <SkeletonBodyText lines={lines} />
  return card ? <Card>{skeleton}</Card> : <Box padding="400">{skeleton}</Box>
}

/** What failed (`title`), why (the server's Japanese message) and 再試行. */
export function LoadErrorState({
  title,
  error,
  onRetry,
}: {
  title: string
  error: unknown
  onRetry: () => void
}) {
  return (
    <Box padding="400">
      <LoadErrorBanner title={title} message={errorMessage(error)} onRetry={onRetry} />
    </Box>
  )
}

/** Nothing to list yet: what would be here, and the action that makes the first one. */
export function EmptyListState({
  heading,
  action,
  children,
}: {
  heading: string
  action?: { content: string; onAction?: () => void; url?: string }
  children?: ReactNode
}) {
  return (
    <EmptyState heading={heading} image={EMPTY_STATE_IMAGE} {...(action ? { action } : {})}>
      {children}
    </EmptyState>
  )
}

/**
 * One request's three states and its content: the skeleton until the first answer, the error
 * banner with 再試行, then `children(data)`. An answer kept from before (a refresh, a retry) is
 * shown rather than the skeleton.
 */
export function Loaded<T>({
  state,
  errorTitle,
  lines,
  card,
  children,
}: {
  state: ApiState<T>
  errorTitle: string
  lines?: number
  /** The skeleton stands alone on the page: give it a card. */
  card?: boolean
  children: (data: T) => ReactNode
}) {
  if (state.data !== undefined) return <>{children(state.data)}</>
  if (state.error && !state.isValidating)
    return <LoadErrorState title={errorTitle} error={state.error} onRetry={state.retry} />
  return <LoadingState {...(lines ? { lines } : {})} {...(card ? { card } : {})} />
}
