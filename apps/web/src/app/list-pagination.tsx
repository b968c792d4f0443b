import { Box, InlineStack, Pagination, Text } from '@shopify/polaris'
import { pageRangeLabel } from '@teiki/domain'
import { useRef } from 'react'
import { useTestIds } from './use-test-ids.ts'

/** Which rows a list page shows, of how many (`total` null while it is being counted). */
export type PageRange = { offset: number; shown: number; total: number | null; totalIsLowerBound?: boolean }

/**
 * The foot of every paged list: 前へ / 次へ around one counter, 「1〜10件 / 全320件」
 * (`pageRangeLabel`, domain), so 契約一覧, 請求予定, 販売プラン, LTV, a segment's customers, the
 * batch preview and the product picker count alike. The buttons carry `pagination-previous` and
 * `pagination-next` test ids inside `testId`.
 */
export function ListPagination({
  range,
  hasPrevious,
  hasNext,
  onPrevious,
  onNext,
  testId = 'list-pagination',
}: {
  range: PageRange | null
  hasPrevious: boolean
  hasNext: boolean
  onPrevious: () => void
  onNext: () => void
  testId?: string
}) {
  const ref = useRef<HTMLDivElement>(null)
  useTestIds(ref, { '#previousURL': 'pagination-previous', '#nextURL': 'pagination-next' })
  const label = range ? pageRangeLabel(range.offset, range.shown, range.total, range.totalIsLowerBound) : null
  return (
    <Box padding="300" borderBlockStartWidth="025" borderColor="border">
      <div ref={ref} data-testid={testId}>
        <InlineStack align="center" blockAlign="center" gap="300">
          <Pagination
            hasPrevious={hasPrevious}
            onPrevious={onPrevious}
            hasNext={hasNext}
            onNext={onNext}
            previousTooltip="前へ"
            nextTooltip="次へ"
            label={
              <Text as="span" variant="bodySm" tone="subdued">
                <span data-testid="page-range">{label ?? '\u00a0'}</span>
              </Text>
            }
          />
        </InlineStack>
      </div>
    </Box>
  )
}
