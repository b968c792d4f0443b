import { BlockStack, Card, Text } from '@shopify/polaris'
import type { ReactNode } from 'react'

/** A card under a heading (h2), its content stacked: the shape of most cards on the screens. */
export function SectionCard({
  title,
  gap = '400',
  children,
}: {
  title: ReactNode
  gap?: '200' | '300' | '400'
  children: ReactNode
}) {
  return (
    <Card>
      <BlockStack gap={gap}>
        <Text as="h2" variant="headingMd">
          {title}
        </Text>
        {children}
      </BlockStack>
    </Card>
  )
}
