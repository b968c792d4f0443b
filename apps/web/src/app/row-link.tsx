import { Link, Text } from '@shopify/polaris'
import type { ReactNode } from 'react'

/**
 * A list row's name as the link to its page: no underline, the text's colour, semibold (a
 * contract's number in figures instead, `numeric`). `primary`: the link a click on the row
 * follows (IndexTable's `dataPrimaryLink`; left out otherwise, as `data-primary-link="false"` would
 * still mark it).
 */
export function RowLink({
  url,
  numeric = false,
  primary = false,
  children,
}: {
  url: string
  numeric?: boolean
  primary?: boolean
  children: ReactNode
}) {
  return (
    <Link url={url} dataPrimaryLink={primary || undefined} removeUnderline monochrome>
      {numeric ? (
        <Text as="span" numeric>
          {children}
        </Text>
      ) : (
        <Text as="span" fontWeight="semibold">
          {children}
        </Text>
      )}
    </Link>
  )
}
