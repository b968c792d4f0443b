import { BlockStack, Card, Text } from '@shopify/polaris'
import type { ReactNode } from 'react'

/**
 * A card under a heading (h2), its content stacked: the shape of most cards on the screens. A
 * `description` stands under the heading in the subdued tone.
 */
export function SectionCard({
  title,
  description,
  gap = '400',
  children,
}: {
  title: ReactNode
  description?: ReactNode
  gap?: '200' | '300' | '400'
  children: ReactNode
}) {
  const heading = (
    <Text as="h2" variant="headingMd">
      {title}
    </Text>
  )
  return (
    <Card>
      <BlockStack gap={gap}>
        {description ? (
          <BlockStack gap="100">
            {heading}
            <Text as="p" tone="subdued">
              {description}
            </Text>
          </BlockStack>
        ) : (
          heading
        )}
        {children}
      </BlockStack>
    </Card>
  )
}
