import { Badge, BlockStack, Box, Card, InlineStack, Link, Text } from '@shopify/polaris'
import type { CustomerLog } from '@teiki/contract'
import { formatDateTimeJa } from '@teiki/domain'
import { Loaded } from '../../app/load-state.tsx'
import type { ApiState } from '../../app/use-api.ts'

const KIND_LABEL: Record<
  CustomerLog['entries'][number]['kind'],
  { label: string; tone?: 'info' | 'success' | 'attention' }
> = {
  contract: { label: '契約', tone: 'info' },
  billing: { label: '請求', tone: 'success' },
  mail: { label: 'メール' },
  tag: { label: 'タグ', tone: 'attention' },
}

/** ログ: contract events, billing outcomes, mails and tag changes, newest first. */
export function CustomerLogCard({ state }: { state: ApiState<CustomerLog> }) {
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingSm">
          ログ
        </Text>
        <Loaded state={state} errorTitle="ログを読み込めませんでした">
          {({ entries }) => <LogEntries entries={entries} />}
        </Loaded>
      </BlockStack>
    </Card>
  )
}

function LogEntries({ entries }: { entries: CustomerLog['entries'] }) {
  if (entries.length === 0)
    return (
      <Text as="p" tone="subdued">
        記録はまだありません
      </Text>
    )
  return (
    <BlockStack gap="200">
      {entries.map((e) => (
        <Box
          key={`${e.at}-${e.kind}-${e.title}-${e.contractId ?? ''}`}
          paddingBlockEnd="200"
          borderBlockEndWidth="025"
          borderColor="border-secondary"
        >
          <InlineStack gap="200" blockAlign="center" wrap={false}>
            <Box minWidth="64px">
              <Badge tone={KIND_LABEL[e.kind].tone}>{KIND_LABEL[e.kind].label}</Badge>
            </Box>
            <BlockStack gap="050">
              <InlineStack gap="100" blockAlign="center">
                <Text as="span" fontWeight="medium">
                  {e.title}
                </Text>
                {e.by ? <Badge tone={e.by === 'お客様' ? 'attention' : undefined}>{e.by}</Badge> : null}
              </InlineStack>
              <Text as="span" tone="subdued" variant="bodySm">
                {formatDateTimeJa(e.at)}
                {e.detail ? `・${e.detail}` : ''}
                {e.contractId ? '・' : ''}
                {e.contractId ? (
                  <Link url={`/subscriptions/${e.contractId}`}>契約 #{e.contractId}</Link>
                ) : null}
              </Text>
            </BlockStack>
          </InlineStack>
        </Box>
      ))}
    </BlockStack>
  )
}
