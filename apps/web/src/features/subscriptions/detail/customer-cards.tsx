import { Badge, BlockStack, InlineStack, Text } from '@shopify/polaris'
import type { SubscriptionDetail } from '@teiki/contract'
import { addressLines, cardExpiryLabel, cardLabel } from './detail-format.ts'
import { DetailCard, EmptyLine } from './detail-section.tsx'

/** 顧客: name and e-mail. */
export function CustomerCard({ customer }: { customer: SubscriptionDetail['customer'] }) {
  return (
    <DetailCard title="顧客" testId="contract-customer">
      <BlockStack gap="100">
        <Text as="p" fontWeight="medium">
          {customer.displayName || '（名前未登録）'}
        </Text>
        <Text as="p" tone="subdued" breakWord>
          {customer.email ?? 'メールアドレス未登録'}
        </Text>
      </BlockStack>
    </DetailCard>
  )
}

/** 配送先: the shipping address in Japanese order, a pickup location, or nothing. */
export function DeliveryCard({ method }: { method: SubscriptionDetail['deliveryMethod'] }) {
  return (
    <DetailCard title="配送先" testId="contract-delivery">
      <DeliveryBody method={method} />
    </DetailCard>
  )
}

function DeliveryBody({ method }: { method: SubscriptionDetail['deliveryMethod'] }) {
  switch (method.kind) {
    case 'shipping': {
      const lines = addressLines(method.address)
      if (lines.length === 0) return <EmptyLine>住所が登録されていません</EmptyLine>
      return (
        <BlockStack gap="050">
          {lines.map((line) => (
            <Text key={line} as="p" breakWord>
              {line}
            </Text>
          ))}
        </BlockStack>
      )
    }
    case 'pickup':
      return <Text as="p">店舗受け取り{method.locationName ? `（${method.locationName}）` : ''}</Text>
    case 'local':
      return <Text as="p">ローカルデリバリー{method.phone ? `（TEL ${method.phone}）` : ''}</Text>
    case 'none':
      return <EmptyLine>配送なし</EmptyLine>
  }
}

/** 支払い方法: card (with an expired badge), PayPal, wallet, or none. */
export function PaymentCard({ method }: { method: SubscriptionDetail['paymentMethod'] }) {
  return (
    <DetailCard title="支払い方法" testId="contract-payment">
      <PaymentBody method={method} />
    </DetailCard>
  )
}

function PaymentBody({ method }: { method: SubscriptionDetail['paymentMethod'] }) {
  switch (method.kind) {
    case 'card':
      return (
        <BlockStack gap="100">
          <Text as="p">{cardLabel(method.brand, method.lastDigits)}</Text>
          <InlineStack gap="200" blockAlign="center">
            <Text as="span" tone={method.isExpired ? 'critical' : 'subdued'}>
              有効期限 {cardExpiryLabel(method.expiryMonth, method.expiryYear)}
            </Text>
            {method.isExpired ? <Badge tone="critical">期限切れ</Badge> : null}
          </InlineStack>
        </BlockStack>
      )
    case 'paypal':
      return <Text as="p">PayPal{method.email ? `（${method.email}）` : ''}</Text>
    case 'wallet':
      return <Text as="p">{method.name ?? 'ウォレット決済'}</Text>
    case 'none':
      return <EmptyLine>支払い方法が登録されていません</EmptyLine>
  }
}
