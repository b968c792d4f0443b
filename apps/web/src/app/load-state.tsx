import {
  Banner,
  BlockStack,
  Box,
  Card,
  EmptyState,
  SkeletonBodyText,
  SkeletonDisplayText,
} from '@shopify/polaris'
import type { ReactNode } from 'react'
import { errorMessage } from './api.ts'
import { EMPTY_STATE_IMAGE } from './empty-state-image.ts'
import type { ApiState } from './use-api.ts'

// The three states every screen that loads data shows, one component each, so every page says
// "loading", "nothing yet" and "could not load" the same way.

/** While the first answer is awaited: skeleton lines where the content will be (`card`: in a card of its own). */
export function LoadingState({ lines = 6, card = false }: { lines?: number; card?: boolean }) {
  const skeleton = <SkeletonBodyText lines={lines} />
  return card ? <Card>{skeleton}</Card> : <Box padding="400">{skeleton}</Box>
}

/** A card's place while its page loads: a heading's skeleton over `lines` lines. */
export function SkeletonCard({ lines }: { lines: number }) {
  return (
    <Card>
      <BlockStack gap="400">
        <SkeletonDisplayText size="small" />
        <SkeletonBodyText lines={lines} />
      </BlockStack>
    </Card>
  )
}

/**
 * What a screen shows when its data could not be loaded: what failed (`title`), why (the
 * server's Japanese message: `error` as the client threw it, or a `message` already read) and a
 * 再試行 button. `inset` pads it where it stands in a card without padding (a list's body).
 */
export function LoadErrorState({
  title,
  error,
  message,
  onRetry,
  inset = false,
}: {
  title: string
  error?: unknown
  message?: string
  onRetry: () => void
  inset?: boolean
}) {
  const banner = (
    <Banner tone="critical" title={title} action={{ content: '再試行', onAction: onRetry }}>
      <p>{message ?? errorMessage(error)}</p>
    </Banner>
  )
  return inset ? <Box padding="400">{banner}</Box> : banner
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
    return <LoadErrorState title={errorTitle} error={state.error} onRetry={state.retry} inset={!card} />
  return <LoadingState {...(lines ? { lines } : {})} {...(card ? { card } : {})} />
}
