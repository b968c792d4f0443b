import { Banner, BlockStack, Box, Button, Card, IndexTable, InlineStack, Page, Text } from '@shopify/polaris'
import type { ExportEncoding, LtvList } from '@teiki/contract'
import { formatMoney, formatNumber, toZonedDate } from '@teiki/domain'
import { useState } from 'react'
import { saveBlob } from '../../app/api.ts'
import { DateField } from '../../app/date-field.tsx'
import { EncodingSelect } from '../../app/encoding-select.tsx'
import { ListPagination } from '../../app/list-pagination.tsx'
import { Loaded } from '../../app/load-state.tsx'
import { OrderHistoryNotice } from '../../app/order-history-notice.tsx'
import { RowLink } from '../../app/row-link.tsx'
import { useAction } from '../../app/use-action.ts'
import { useApi } from '../../app/use-api.ts'
import { customersApi } from './customers-api.ts'

/** The default range: the year up to today (Japan time). */
function lastYear(): { startDate: string; endDate: string } {
  const endDate = toZonedDate(new Date())
  const [y, m, d] = endDate.split('-')
  return { startDate: `${Number(y) - 1}-${m}-${d === '29' && m === '02' ? '28' : d}`, endDate }
}

/** LTV: each customer's subscription purchases in the range, highest first, with the CSV. */
export default function LtvPage() {
  const [range, setRange] = useState(lastYear)
  const [offset, setOffset] = useState(0)
  const [encoding, setEncoding] = useState<ExportEncoding>('utf-8')
  const { busy: downloading, run } = useAction()
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(range.startDate) && /^\d{4}-\d{2}-\d{2}$/.test(range.endDate)
  const state = useApi(valid ? 'GET /ltv/cdp-customer-list' : null, {
    query: { startDate: range.startDate, endDate: range.endDate, offset, count: 50 },
  })
  const download = () =>
    run('run', async () => {
      const file = await customersApi.ltvCsv(range.startDate, range.endDate, encoding)
      saveBlob(file.blob, file.filename)
    })
  return (
    <Page
      title="LTV（顧客生涯価値）"
      subtitle="期間内の定期購入（テスト・キャンセルを除く）の合計から返金額を差し引いた金額です。通貨ごとに集計します。"
      backAction={{ content: 'セグメント', url: '/segments' }}
    >
      <BlockStack gap="400">
        <Card>
          <InlineStack gap="300" blockAlign="end" wrap>
            <DateField
              label="開始日"
              value={range.startDate}
              onChange={(startDate) => {
                setOffset(0)
                setRange((r) => ({ ...r, startDate }))
              }}
            />
            <DateField
              label="終了日"
              value={range.endDate}
              onChange={(endDate) => {
                setOffset(0)
                setRange((r) => ({ ...r, endDate }))
              }}
            />
            <EncodingSelect value={encoding} onChange={setEncoding} />
            <Button onClick={() => void download()} loading={downloading} disabled={!valid}>
              CSVをダウンロード
            </Button>
          </InlineStack>
        </Card>
        {valid && <OrderHistoryNotice shownFrom={range.startDate} />}
        {state.data && state.data.errors.length > 0 ? (
          <Banner
            tone="warning"
            title={`${formatNumber(state.data.errors.length)}人のお客様は複数の通貨で購入しています`}
          >
            <BlockStack gap="050">
              {state.data.errors.slice(0, 5).map((e) => (
                <Text as="p" key={e.customerId}>
                  {e.displayName}: {e.message}
                </Text>
              ))}
            </BlockStack>
          </Banner>
        ) : null}
        <Card padding="0">
          {!valid ? (
            <Box padding="400">
              <Text as="p" tone="subdued">
                期間を指定してください
              </Text>
            </Box>
          ) : !state.data ? (
            <Loaded state={state} errorTitle="LTVを読み込めませんでした" lines={8}>
              {() => null}
            </Loaded>
          ) : state.data.list.length === 0 ? (
            <Box padding="400">
              <Text as="p" tone="subdued">
                この期間の定期購入はありません。
              </Text>
            </Box>
          ) : (
            <LtvTable data={state.data} offset={offset} onPage={setOffset} />
          )}
        </Card>
      </BlockStack>
    </Page>
  )
}

function LtvTable({
  data,
  offset,
  onPage,
}: {
  data: LtvList
  offset: number
  onPage: (offset: number) => void
}) {
  return (
    <>
      <IndexTable
        resourceName={{ singular: 'お客様', plural: 'お客様' }}
        itemCount={data.list.length}
        headings={[
          { title: '順位' },
          { title: 'お客様' },
          { title: '購入回数', alignment: 'end' },
          { title: 'LTV', alignment: 'end' },
          { title: '' },
        ]}
        selectable={false}
      >
        {data.list.map((r, i) => (
          <IndexTable.Row
            id={`ltv-${r.customerId}-${r.currencyCode}`}
            key={`${r.customerId}-${r.currencyCode}`}
            position={i}
          >
            <IndexTable.Cell>{formatNumber(offset + i + 1)}</IndexTable.Cell>
            <IndexTable.Cell>
              <RowLink url={`/customers/${r.customerId}`}>{r.displayName}</RowLink>
            </IndexTable.Cell>
            <IndexTable.Cell>
              <Text as="span" alignment="end" numeric>
                {formatNumber(r.orderCount)}回
              </Text>
            </IndexTable.Cell>
            <IndexTable.Cell>
              <Text as="span" alignment="end" numeric>
                {formatMoney(r.ltv, r.currencyCode)}
              </Text>
            </IndexTable.Cell>
            <IndexTable.Cell>
              {r.currencyCode === data.currencyCode ? (
                <div
                  style={{
                    width: 160,
                    height: 8,
                    background: 'var(--p-color-bg-fill-secondary)',
                    borderRadius: 4,
                  }}
                >
                  <div
                    style={{
                      width: `${Math.max(2, Math.round((r.ltv / (data.maxLtv || 1)) * 100))}%`,
                      height: 8,
                      background: 'var(--p-color-bg-fill-success)',
                      borderRadius: 4,
                    }}
                  />
                </div>
              ) : (
                <Text as="span" tone="subdued" variant="bodySm">
                  {r.currencyCode}（別通貨）
                </Text>
              )}
            </IndexTable.Cell>
          </IndexTable.Row>
        ))}
      </IndexTable>
      <ListPagination
        testId="ltv-pagination"
        range={{ offset, shown: data.list.length, total: data.total }}
        hasPrevious={offset > 0}
        onPrevious={() => onPage(Math.max(0, offset - 50))}
        hasNext={data.hasNext}
        onNext={() => onPage(offset + 50)}
      />
    </>
  )
}
