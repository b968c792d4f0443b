import { Banner } from '@shopify/polaris'

/**
 * What a screen shows when its data could not be loaded: what failed (the title), why (the
 * server's Japanese message) and a 再試行 button. One component so every screen says it the
 * same way.
 */
export function LoadErrorBanner({
  title,
  message,
  onRetry,
}: {
  title: string
  message: string
  onRetry: () => void
}) {
  return (
    <Banner tone="critical" title={title} action={{ content: '再試行', onAction: onRetry }}>
      <p>{message}</p>
    </Banner>
  )
}
