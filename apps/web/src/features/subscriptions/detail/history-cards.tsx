import { Badge, BlockStack, InlineStack, Text } from '@shopify/polaris'
import type { SubscriptionDetail } from '@teiki/contract'
import { billingAttemptErrorJa, formatDateJa, formatDateTimeJa, formatMoney } from '@teiki/domain'
import { PlatformMessageText } from '../../../app/platform-message-text.tsx'
import { billingAttemptState, safeDate } from './detail-format.ts'
import { DetailCard, EmptyLine } from './detail-section.tsx'

/** 注文履歴: orders created by the contract. */
export function OrdersCard({ orders }: { orders: SubscriptionDetail['orders'] }) {
  return (
    <DetailCard title="注文履歴" testId="contract-orders">
      {orders.length === 0 ? (
        <EmptyLine>注文はまだありません</EmptyLine>
      ) : (
        orders.map((order) => (
          <InlineStack key={order.id} gap="300" align="space-between" blockAlign="center">
            <InlineStack gap="200" blockAlign="center">
              <Text as="span" fontWeight="medium">
                {order.name}
              </Text>
              <Text as="span" tone="subdued">
                {safeDate(order.createdAt, formatDateJa)}
              </Text>
              {order.test ? <Badge tone="info">テスト</Badge> : null}
              {order.cancelledAt ? <Badge tone="warning">キャンセル済み</Badge> : null}
            </InlineStack>
            <Text as="span" numeric>
              {formatMoney(order.total.amount, order.total.currencyCode)}
            </Text>
          </InlineStack>
        ))
      )}
    </DetailCard>
  )
}

/** 決済履歴: billing attempts with their outcome. */
export function BillingAttemptsCard({ attempts }: { attempts: SubscriptionDetail['billingAttempts'] }) {
  return (
    <DetailCard title="決済履歴" testId="contract-billing-attempts">
      {attempts.length === 0 ? (
        <EmptyLine>決済履歴はありません</EmptyLine>
      ) : (
        attempts.map((attempt) => {
          const state = billingAttemptState(attempt)
          return (
            <BlockStack key={attempt.id} gap="050">
              <InlineStack gap="200" blockAlign="center">
                <Text as="span">{safeDate(attempt.createdAt, formatDateTimeJa)}</Text>
                <Badge tone={state.tone}>{state.label}</Badge>
              </InlineStack>
              {state.note ? (
                <Text as="p" tone="subdued">
                  {state.note}
                </Text>
              ) : null}
              {attempt.outcome === 'failed' && (attempt.errorMessage || attempt.errorCode) ? (
                <PlatformMessageText
                  message={billingAttemptErrorJa(attempt.errorCode, attempt.errorMessage)}
                />
              ) : null}
            </BlockStack>
          )
        })
      )}
    </DetailCard>
  )
}
