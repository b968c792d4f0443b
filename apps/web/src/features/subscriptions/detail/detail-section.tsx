import { BlockStack, Box, Card, InlineStack, Text } from '@shopify/polaris'
import type { ReactNode } from 'react'

/** A titled card of the detail page. */
export function DetailCard({
  title,
  testId,
  children,
}: {
  title: string
  testId?: string
  children: ReactNode
}) {
  return (
    <div data-testid={testId}>
      <Card>
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            {title}
          </Text>
          {children}
        </BlockStack>
      </Card>
    </div>
  )
}

/** A label / value line. */
export function DetailRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <InlineStack gap="400" wrap={false} blockAlign="start">
      <Box minWidth="9rem">
        <Text as="span" tone="subdued">
          {label}
        </Text>
      </Box>
      <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        <Text as="span">{children}</Text>
      </div>
    </InlineStack>
  )
}

/** The text shown when a list (orders, discounts, …) is empty. */
export function EmptyLine({ children }: { children: ReactNode }) {
  return (
    <Text as="p" tone="subdued">
      {children}
    </Text>
  )
}
