import {
  Badge,
  BlockStack,
  Box,
  Card,
  DataTable,
  InlineStack,
  Layout,
  Link,
  Page,
  Text,
} from '@shopify/polaris'
import type { CustomerData } from '@teiki/contract'
import {
  formatDateJa,
  formatMoney,
  formatNumber,
  formatPhoneJa,
  statusLabel,
  statusTone,
} from '@teiki/domain'
import { useParams, useSearchParams } from 'react-router-dom'
import { Loaded } from '../../app/load-state.tsx'
import { OrderHistoryNotice } from '../../app/order-history-notice.tsx'
import { invalidate, useApi } from '../../app/use-api.ts'
import { CustomerLogCard } from './customer-log-card.tsx'
import { CustomerTagsCard } from './customer-tags-card.tsx'

/** An order's amount, and what was refunded of it (LTV counts the difference). */
function orderAmount(o: CustomerData['orders'][number]): string {
  if (o.amount === null || !o.currencyCode) return '—'
  const amount = formatMoney(o.amount, o.currencyCode)
  if (o.refunded <= 0) return amount
  const label = o.refunded >= o.amount ? '全額返金' : `返金 ${formatMoney(o.refunded, o.currencyCode)}`
  return `${amount}（${label}）`
}

/** 顧客詳細: profile, lifetime value, tags, contracts, orders and the log. */
export default function CustomerPage() {
  const { customerId = '' } = useParams()
  const [search] = useSearchParams()
  const fromContract = search.get('contract')
  const state = useApi('GET /cdp-customer-data', { query: { customerId } })
  const log = useApi('GET /cdp-log-data', { query: { customerId } })
  const back =
    fromContract && /^\d+$/.test(fromContract)
      ? { content: '契約に戻る', url: `/subscriptions/${fromContract}` }
      : { content: 'セグメント', url: '/segments' }
  const data = state.data ?? null
  return (
    <Page
      title={data ? data.customer.displayName : '顧客詳細'}
      backAction={back}
      subtitle={data?.customer.email ?? undefined}
    >
      {!data ? (
        <Loaded state={state} errorTitle="顧客を読み込めませんでした" lines={8} card>
          {() => null}
        </Loaded>
      ) : (
        <Layout>
          <Layout.Section>
            <BlockStack gap="400">
              {/* Totals, LTV and orders are the customer's whole history: complete from the date only. */}
              <OrderHistoryNotice shownFrom={null} />
              <ContractsCard data={data} />
              <OrdersCard data={data} />
              <CustomerLogCard state={log} />
            </BlockStack>
          </Layout.Section>
          <Layout.Section variant="oneThird">
            <BlockStack gap="400">
              <ProfileCard data={data} />
              <LifetimeCard data={data} />
              <CustomerTagsCard
                customerId={customerId}
                tags={data.customer.tags}
                onChanged={() => void invalidate('GET /cdp-customer-data', 'GET /cdp-log-data')}
              />
            </BlockStack>
          </Layout.Section>
        </Layout>
      )}
    </Page>
  )
}

function ProfileCard({ data }: { data: CustomerData }) {
  const c = data.customer
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingSm">
          お客様
        </Text>
        <Text as="p" fontWeight="medium">
          {c.displayName}
        </Text>
        <Text as="p" tone="subdued" breakWord>
          {c.email ?? 'メールアドレス未登録'}
        </Text>
        <Text as="p" tone="subdued">
          {c.phone ? formatPhoneJa(c.phone) : '電話番号未登録'}
        </Text>
        <Text as="p" tone="subdued">
          {c.address ?? '住所未登録'}
        </Text>
        {c.createdAt ? (
          <Text as="p" tone="subdued" variant="bodySm">
            登録日 {formatDateJa(c.createdAt)}
          </Text>
        ) : null}
      </BlockStack>
    </Card>
  )
}

function LifetimeCard({ data }: { data: CustomerData }) {
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingSm">
          LTV（定期購入の累計）
        </Text>
        {data.lifetime.length === 0 ? (
          <Text as="p" tone="subdued">
            まだ購入はありません
          </Text>
        ) : (
          data.lifetime.map((l) => (
            <InlineStack key={l.currencyCode} align="space-between">
              <Text as="span" variant="headingLg">
                {formatMoney(l.amount, l.currencyCode)}
              </Text>
              <Text as="span" tone="subdued">
                {formatNumber(l.orderCount)}回
              </Text>
            </InlineStack>
          ))
        )}
        {data.firstOrderAt ? (
          <Text as="p" tone="subdued" variant="bodySm">
            初回購入日 {formatDateJa(data.firstOrderAt)}
          </Text>
        ) : null}
      </BlockStack>
    </Card>
  )
}

function ContractsCard({ data }: { data: CustomerData }) {
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingSm">
          定期契約
        </Text>
        {data.contracts.length === 0 ? (
          <Text as="p" tone="subdued">
            契約はありません
          </Text>
        ) : (
          data.contracts.map((k) => (
            <Box key={k.id} paddingBlockEnd="200" borderBlockEndWidth="025" borderColor="border-secondary">
              <InlineStack align="space-between" blockAlign="center">
                <BlockStack gap="050">
                  <InlineStack gap="200" blockAlign="center">
                    <Link url={`/subscriptions/${k.id}`}>契約 #{k.id}</Link>
                    <Badge tone={statusTone[k.status]}>{statusLabel[k.status]}</Badge>
                  </InlineStack>
                  <Text as="span" tone="subdued" variant="bodySm">
                    {k.items || '商品なし'}
                  </Text>
                </BlockStack>
                <Text as="span" tone="subdued" variant="bodySm" alignment="end">
                  {formatNumber(k.orderCount)}回目まで購入
                  {k.nextBillingDate && k.status === 'ACTIVE'
                    ? `・次回 ${formatDateJa(k.nextBillingDate)}`
                    : ''}
                </Text>
              </InlineStack>
            </Box>
          ))
        )}
      </BlockStack>
    </Card>
  )
}

function OrdersCard({ data }: { data: CustomerData }) {
  return (
    <Card padding="0">
      <Box padding="400">
        <Text as="h2" variant="headingSm">
          注文
        </Text>
      </Box>
      {data.orders.length === 0 ? (
        <Box padding="400">
          <Text as="p" tone="subdued">
            注文はまだありません
          </Text>
        </Box>
      ) : (
        <DataTable
          columnContentTypes={['text', 'text', 'text', 'numeric']}
          headings={['注文', '日付', '種別', '金額']}
          rows={data.orders.map((o) => [
            o.name ?? `#${o.id}`,
            formatDateJa(o.createdAt),
            o.cancelled ? 'キャンセル' : o.test ? 'テスト' : o.contractId ? '定期購入' : '通常購入',
            orderAmount(o),
          ])}
        />
      )}
    </Card>
  )
}
