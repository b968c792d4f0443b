import { Badge, BlockStack, Box, Card, InlineStack, Link, SkeletonBodyText, Text } from '@shopify/polaris'
import type { CustomerLog } from '@teiki/contract'
import { formatDateTimeJa } from '@teiki/domain'
import { LoadErrorBanner } from '../../app/load-error-banner.tsx'
import type { Load } from './use-load.ts'

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
export function CustomerLogCard({ state, onRetry }: { state: Load<CustomerLog>; onRetry: () => void }) {
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingSm">
          ログ
        </Text>
        {state.status === 'loading' ? (
          <SkeletonBodyText lines={6} />
        ) : state.status === 'error' ? (
          <LoadErrorBanner title="ログを読み込めませんでした" message={state.message} onRetry={onRetry} />
        ) : state.data.entries.length === 0 ? (
          <Text as="p" tone="subdued">
            記録はまだありません
          </Text>
        ) : (
          <BlockStack gap="200">
            {state.data.entries.map((e) => (
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
                    <Text as="span" fontWeight="medium">
                      {e.title}
                    </Text>
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
        )}
      </BlockStack>
    </Card>
  )
}
