import { Badge, Box, Card, IndexTable, InlineStack, Link, SkeletonBodyText, Text } from '@shopify/polaris'
import type { CdpCustomerRow } from '@teiki/contract'
import { formatDateJa, formatMoney, formatNumber } from '@teiki/domain'
import { useState } from 'react'
import { ListPagination } from '../../app/list-pagination.tsx'
import { LoadErrorBanner } from '../../app/load-error-banner.tsx'
import { customersApi } from './customers-api.ts'
import { useLoad } from './use-load.ts'

/** The segment's customers, 10 a page (spec §9), with the range shown (1〜10件 / 全N件). */
export function SegmentCustomersCard({
  segmentId,
  total,
  version,
}: {
  segmentId: string
  total: number | null
  version: number
}) {
  const [offset, setOffset] = useState(0)
  const [state, reload] = useLoad(
    () => customersApi.customers(segmentId, offset),
    `${segmentId}:${offset}:${version}`,
  )
  return (
    <Card padding="0">
      <Box padding="400">
        <Text as="h2" variant="headingSm">
          該当するお客様
        </Text>
      </Box>
      {state.status === 'loading' ? (
        <Box padding="400">
          <SkeletonBodyText lines={5} />
        </Box>
      ) : state.status === 'error' ? (
        <Box padding="400">
          <LoadErrorBanner title="お客様を読み込めませんでした" message={state.message} onRetry={reload} />
        </Box>
      ) : state.data.customers.length === 0 ? (
        <Box padding="400">
          <Text as="p" tone="subdued">
            条件に該当するお客様はいません。
          </Text>
        </Box>
      ) : (
        <>
          <IndexTable
            resourceName={{ singular: 'お客様', plural: 'お客様' }}
            itemCount={state.data.customers.length}
            headings={[
              { title: 'お客様' },
              { title: '購入回数', alignment: 'end' },
              { title: 'LTV', alignment: 'end' },
              { title: '初回購入日' },
              { title: 'タグ' },
            ]}
            selectable={false}
          >
            {state.data.customers.map((c, index) => (
              <CustomerRow key={c.id} customer={c} position={index} />
            ))}
          </IndexTable>
          <ListPagination
            testId="segment-customers-pagination"
            range={{ offset, shown: state.data.customers.length, total }}
            hasPrevious={offset > 0}
            onPrevious={() => setOffset(Math.max(0, offset - 10))}
            hasNext={state.data.hasNext}
            onNext={() => setOffset(offset + 10)}
          />
        </>
      )}
    </Card>
  )
}

function CustomerRow({ customer, position }: { customer: CdpCustomerRow; position: number }) {
  return (
    <IndexTable.Row id={`customer-${customer.id}`} position={position}>
      <IndexTable.Cell>
        <Link url={`/customers/${customer.id}`} removeUnderline monochrome>
          <Text as="span" fontWeight="semibold">
            {customer.displayName}
          </Text>
        </Link>
        <Text as="p" tone="subdued" variant="bodySm">
          {customer.email ?? 'メールアドレス未登録'}
        </Text>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Text as="span" alignment="end" numeric>
          {formatNumber(customer.orderCount)}回
        </Text>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Text as="span" alignment="end" numeric>
          {customer.lifetime.length === 0
            ? formatMoney(0, 'JPY')
            : customer.lifetime.map((l) => formatMoney(l.amount, l.currencyCode)).join(' / ')}
        </Text>
      </IndexTable.Cell>
      <IndexTable.Cell>{customer.firstOrderAt ? formatDateJa(customer.firstOrderAt) : '—'}</IndexTable.Cell>
      <IndexTable.Cell>
        <InlineStack gap="100">
          {customer.tags.map((t) => (
            <Badge key={t}>{t}</Badge>
          ))}
        </InlineStack>
      </IndexTable.Cell>
    </IndexTable.Row>
  )
}
