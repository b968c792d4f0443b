import { Badge, InlineStack, Text } from '@shopify/polaris'
import type { SubscriptionDetail } from '@teiki/contract'
import { useState } from 'react'
import { ApplyDiscountModal } from './apply-discount-modal.tsx'
import { ConfirmModal } from './confirm-modal.tsx'
import { planRemoveDiscount } from './contract-edits.ts'
import { cyclesLabel } from './detail-format.ts'
import { CardButton, DetailCard, EmptyLine } from './detail-section.tsx'
import type { DetailCardProps } from './use-contract-edit.ts'

type Discount = SubscriptionDetail['discounts'][number]

/** 割引: discounts applied to the contract; codes can be applied and discounts removed. */
export function DiscountsCard({ detail, reload, editable, disabled }: DetailCardProps) {
  const [applying, setApplying] = useState(false)
  const [removing, setRemoving] = useState<Discount | null>(null)
  const discounts = detail.discounts

  return (
    <DetailCard
      title="割引"
      testId="contract-discounts"
      actions={
        editable ? (
          <CardButton testId="apply-discount" onClick={() => setApplying(true)} disabled={disabled}>
            割引コードを適用
          </CardButton>
        ) : null
      }
    >
      {discounts.length === 0 ? (
        <EmptyLine>割引はありません</EmptyLine>
      ) : (
        discounts.map((discount) => (
          <InlineStack key={discount.id} gap="200" align="space-between" blockAlign="center">
            <InlineStack gap="200" blockAlign="center">
              <Badge>{discount.title}</Badge>
              <Text as="span" tone="subdued">
                使用 {discount.usageCount}回 ／ 上限 {cyclesLabel(discount.recurringCycleLimit, '無制限')}
              </Text>
            </InlineStack>
            {editable ? (
              <CardButton
                testId={`remove-discount-${discount.id}`}
                label={`割引「${discount.title}」を削除`}
                tone="critical"
                onClick={() => setRemoving(discount)}
                disabled={disabled}
              >
                削除
              </CardButton>
            ) : null}
          </InlineStack>
        ))
      )}
      {applying ? (
        <ApplyDiscountModal detail={detail} reload={reload} onClose={() => setApplying(false)} />
      ) : null}
      {removing ? (
        <ConfirmModal
          title="割引を削除しますか？"
          message={`割引「${removing.title || removing.id}」を契約から削除します。次回以降の注文に割引は適用されません。`}
          confirmLabel="削除する"
          plan={() => planRemoveDiscount(detail, removing)}
          reload={reload}
          onClose={() => setRemoving(null)}
        />
      ) : null}
    </DetailCard>
  )
}
