import { Badge, Box, Card, IndexTable, InlineStack, Text } from '@shopify/polaris'
import type { CdpCustomerRow } from '@teiki/contract'
import { formatDateJa, formatMoney, formatNumber } from '@teiki/domain'
import { useState } from 'react'
import { api } from '../../app/api.ts'
import { ListPagination } from '../../app/list-pagination.tsx'
import { Loaded } from '../../app/load-state.tsx'
import { RowLink } from '../../app/row-link.tsx'
import { useLoader } from '../../app/use-api.ts'

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
  // `version` moves when the segment's conditions were saved: the same page, asked again.
  const state = useLoader(['GET /cdp-customer-list', segmentId, offset, version], () =>
    api('GET /cdp-customer-list', { query: { segmentId, offset, count: 10 } }),
  )
  return (
    <Card padding="0">
      <Box padding="400">
        <Text as="h2" variant="headingSm">
          該当するお客様
        </Text>
      </Box>
      {!state.data ? (
        <Loaded state={state} errorTitle="お客様を読み込めませんでした" lines={5}>
          {() => null}
        </Loaded>
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
        <RowLink url={`/customers/${customer.id}`}>{customer.displayName}</RowLink>
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
