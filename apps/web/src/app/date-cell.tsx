import { IndexTable, Text } from '@shopify/polaris'
import { formatDateJa } from '@teiki/domain'

/** A list's date column (作成日, 更新日): the shop's day in Japanese, subdued; — when there is none. */
export function DateCell({ at, zone }: { at: string | null; zone?: string }) {
  return (
    <IndexTable.Cell>
      <Text as="span" tone="subdued">
        {at ? formatDateJa(at, zone) : '—'}
      </Text>
    </IndexTable.Cell>
  )
}
