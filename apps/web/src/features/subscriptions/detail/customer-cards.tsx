import { Badge, BlockStack, InlineStack, Link, Text } from '@shopify/polaris'
import type { SubscriptionDetail } from '@teiki/contract'
import { formatPhoneJa } from '@teiki/domain'
import { useState } from 'react'
import { ConfirmModal } from './confirm-modal.tsx'
import { planPaymentUpdateEmail } from './contract-edits.ts'
import { addressLines, cardExpiryLabel, cardLabel } from './detail-format.ts'
import { CardButton, DetailCard, EmptyLine } from './detail-section.tsx'
import { EditAddressModal } from './edit-address-modal.tsx'
import { PaymentMethodModal } from './payment-method-modal.tsx'

type EditableCardProps = {
  detail: SubscriptionDetail
  reload: () => void
  editable: boolean
  disabled: boolean
}

/** 顧客: name and e-mail, and the way to the customer's page (顧客詳細) and back. */
export function CustomerCard({
  customer,
  contractId,
}: {
  customer: SubscriptionDetail['customer']
  contractId?: string
}) {
  return (
    <DetailCard title="顧客" testId="contract-customer">
      <BlockStack gap="100">
        <Text as="p" fontWeight="medium">
          {customer.displayName || '（名前未登録）'}
        </Text>
        <Text as="p" tone="subdued" breakWord>
          {customer.email ?? 'メールアドレス未登録'}
        </Text>
        {customer.id ? (
          <Link url={`/customers/${customer.id}${contractId ? `?contract=${contractId}` : ''}`}>
            顧客詳細・ログを見る
          </Link>
        ) : null}
      </BlockStack>
    </DetailCard>
  )
}

/**
 * 配送先: the shipping address in Japanese order, a pickup location, or nothing; a shipping
 * address can be changed (編集).
 */
export function DeliveryCard({ detail, reload, editable, disabled }: EditableCardProps) {
  const [editing, setEditing] = useState(false)
  const method = detail.deliveryMethod
  return (
    <DetailCard
      title="配送先"
      testId="contract-delivery"
      actions={
        editable && method.kind === 'shipping' ? (
          <CardButton
            testId="edit-delivery-address"
            label="配送先を編集"
            onClick={() => setEditing(true)}
            disabled={disabled}
          >
            編集
          </CardButton>
        ) : null
      }
    >
      <DeliveryBody method={method} />
      {editing ? (
        <EditAddressModal detail={detail} reload={reload} onClose={() => setEditing(false)} />
      ) : null}
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
      return (
        <Text as="p">ローカルデリバリー{method.phone ? `（TEL ${formatPhoneJa(method.phone)}）` : ''}</Text>
      )
    case 'none':
      return <EmptyLine>配送なし</EmptyLine>
  }
}

/**
 * 支払い方法: card (with an expired badge), PayPal, wallet, or none; 編集 picks another of the
 * customer's methods, 更新メールを送信 asks the customer to update theirs.
 */
export function PaymentCard({ detail, reload, editable, disabled }: EditableCardProps) {
  const [open, setOpen] = useState<'method' | 'email' | null>(null)
  const close = () => setOpen(null)
  const email = detail.customer.email
  return (
    <DetailCard
      title="支払い方法"
      testId="contract-payment"
      actions={
        editable ? (
          <CardButton
            testId="edit-payment-method"
            label="支払い方法を編集"
            onClick={() => setOpen('method')}
            disabled={disabled}
          >
            編集
          </CardButton>
        ) : null
      }
    >
      <PaymentBody method={detail.paymentMethod} />
      {editable ? (
        <div>
          <CardButton testId="send-payment-update-email" onClick={() => setOpen('email')} disabled={disabled}>
            決済方法の更新メールを送信
          </CardButton>
        </div>
      ) : null}
      {open === 'method' ? <PaymentMethodModal detail={detail} reload={reload} onClose={close} /> : null}
      {open === 'email' ? (
        <ConfirmModal
          title="決済方法の更新メールを送信しますか？"
          message={`顧客${email ? `（${email}）` : ''}に、決済方法を更新するためのメールを送信します。`}
          confirmLabel="送信する"
          destructive={false}
          plan={() => planPaymentUpdateEmail(detail)}
          reload={reload}
          onClose={close}
        />
      ) : null}
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
