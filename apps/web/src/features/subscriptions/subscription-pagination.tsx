import { Box, InlineStack, Pagination, Text } from '@shopify/polaris'
import { useRef } from 'react'
import { useTestIds } from '../../app/use-test-ids.ts'

type Props = {
  label: string | null
  hasPrevious: boolean
  hasNext: boolean
  onPrevious: () => void
  onNext: () => void
}

export function SubscriptionPagination({ label, hasPrevious, hasNext, onPrevious, onNext }: Props) {
  const ref = useRef<HTMLDivElement>(null)
  useTestIds(ref, { '#previousURL': 'pagination-previous', '#nextURL': 'pagination-next' })
  return (
    <Box padding="300" borderBlockStartWidth="025" borderColor="border">
      <div ref={ref} data-testid="subscription-pagination">
        <InlineStack align="center" blockAlign="center" gap="300">
          <Pagination
            hasPrevious={hasPrevious}
            onPrevious={onPrevious}
            hasNext={hasNext}
            onNext={onNext}
            label={
              <Text as="span" variant="bodySm" tone="subdued">
                {label ?? '\u00a0'}
              </Text>
            }
          />
        </InlineStack>
      </div>
    </Box>
  )
}
