import { BlockStack, Text } from '@shopify/polaris'
import type { PlatformMessage } from '@teiki/domain'

/**
 * A platform message as the merchant reads it: the Japanese sentence, and below it, smaller,
 * the platform's own words (「詳細: Your card was declined.」) for support and lookups.
 */
export function PlatformMessageText({
  message,
  tone = 'critical',
}: {
  message: PlatformMessage
  tone?: 'critical' | 'subdued'
}) {
  return (
    <BlockStack gap="025">
      <Text as="p" variant="bodySm" tone={tone}>
        {message.message}
      </Text>
      {message.detail ? (
        <Text as="p" variant="bodySm" tone="subdued" breakWord>
          詳細: {message.detail}
        </Text>
      ) : null}
    </BlockStack>
  )
}
