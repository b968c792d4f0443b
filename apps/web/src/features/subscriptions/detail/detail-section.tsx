import { BlockStack, Box, Button, Card, InlineStack, Text } from '@shopify/polaris'
import type { ReactNode } from 'react'

/** A titled card of the detail page, with optional buttons at the right of its title. */
export function DetailCard({
  title,
  testId,
  actions,
  children,
}: {
  title: string
  testId?: string
  actions?: ReactNode
  children: ReactNode
}) {
  return (
    <div data-testid={testId}>
      <Card>
        <BlockStack gap="300">
          <InlineStack gap="200" align="space-between" blockAlign="center">
            <Text as="h2" variant="headingMd">
              {title}
            </Text>
            {actions ? <InlineStack gap="200">{actions}</InlineStack> : null}
          </InlineStack>
          {children}
        </BlockStack>
      </Card>
    </div>
  )
}

/** A label / value line, with an optional button (編集) at its end. */
export function DetailRow({
  label,
  action,
  children,
}: {
  label: string
  action?: ReactNode
  children: ReactNode
}) {
  return (
    <InlineStack gap="400" wrap={false} blockAlign="start">
      <Box minWidth="9rem">
        <Text as="span" tone="subdued">
          {label}
        </Text>
      </Box>
      <div style={{ minWidth: 0, overflowWrap: 'anywhere', flex: 1 }}>
        <Text as="span">{children}</Text>
      </div>
      {action ? <div style={{ flexShrink: 0 }}>{action}</div> : null}
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

/**
 * A small 編集-style button wrapped for e2e (`[data-testid=…] button`). `label` is its accessible
 * name when the visible word alone does not say what it acts on (「次回請求日を編集」 for 編集: a
 * screen reader listing the page's buttons otherwise hears six 編集 and three 削除).
 */
export function CardButton({
  testId,
  onClick,
  disabled,
  tone,
  label,
  children,
}: {
  testId: string
  onClick: () => void
  disabled?: boolean
  tone?: 'critical'
  label?: string
  children: string
}) {
  return (
    <span data-testid={testId}>
      <Button variant="plain" tone={tone} onClick={onClick} disabled={disabled} accessibilityLabel={label}>
        {children}
      </Button>
    </span>
  )
}
