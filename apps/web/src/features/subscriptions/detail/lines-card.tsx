import { Badge, BlockStack, Divider, InlineStack, Text, Thumbnail } from '@shopify/polaris'
import { ImageIcon } from '@shopify/polaris-icons'
import type { SubscriptionDetail, SubscriptionDetailLine } from '@teiki/contract'
import { formatDateTimeJa, formatMoney } from '@teiki/domain'
import { Fragment, useState } from 'react'
import { AddLineModal } from './add-line-modal.tsx'
import { ConfirmModal } from './confirm-modal.tsx'
import { linePriceTexts, safeDate } from './detail-format.ts'
import { CardButton, DetailCard, EmptyLine } from './detail-section.tsx'
import { LineEditModal } from './line-edit-modal.tsx'
import { planRemoveLine } from './line-edits.ts'
import { SwapVariantModal } from './swap-variant-modal.tsx'
import type { DetailCardProps } from './use-contract-edit.ts'

type LineEdit = { kind: 'add' } | { kind: 'quantity' | 'swap' | 'remove'; line: SubscriptionDetailLine }

/** 商品: the contract lines with their pricing policy; lines can be added, changed and removed. */
export function LinesCard({ detail, reload, editable, disabled }: DetailCardProps) {
  const [editing, setEditing] = useState<LineEdit | null>(null)
  const close = () => setEditing(null)
  const lines = detail.lines

  return (
    <DetailCard
      title="商品"
      testId="contract-lines"
      actions={
        editable ? (
          <CardButton testId="add-line" onClick={() => setEditing({ kind: 'add' })} disabled={disabled}>
            商品を追加
          </CardButton>
        ) : null
      }
    >
      {detail.priceManuallyChangedAt ? (
        <InlineStack gap="200" blockAlign="center">
          <span data-testid="price-manually-changed">
            <Badge tone="attention">価格手動変更済み</Badge>
          </span>
          <Text as="span" tone="subdued" variant="bodySm">
            {safeDate(detail.priceManuallyChangedAt, formatDateTimeJa)}
          </Text>
        </InlineStack>
      ) : null}
      {lines.length === 0 ? (
        <EmptyLine>商品がありません</EmptyLine>
      ) : (
        lines.map((line, index) => (
          <Fragment key={line.id}>
            {index > 0 ? <Divider /> : null}
            <div data-testid={`line-row-${line.id}`}>
              <InlineStack gap="300" align="space-between" blockAlign="start" wrap={false}>
                <LineItem line={line} nextCycle={detail.nextCycle} />
                {editable ? (
                  <BlockStack gap="100" inlineAlign="end">
                    <CardButton
                      testId="edit-line"
                      label={`${lineName(line)}の数量・価格を編集`}
                      onClick={() => setEditing({ kind: 'quantity', line })}
                      disabled={disabled}
                    >
                      編集
                    </CardButton>
                    <CardButton
                      testId="swap-line-variant"
                      label={`${lineName(line)}を別の商品に変更`}
                      onClick={() => setEditing({ kind: 'swap', line })}
                      disabled={disabled}
                    >
                      商品を変更
                    </CardButton>
                    <CardButton
                      testId="remove-line"
                      label={`${lineName(line)}を削除`}
                      tone="critical"
                      onClick={() => setEditing({ kind: 'remove', line })}
                      disabled={disabled}
                    >
                      削除
                    </CardButton>
                  </BlockStack>
                ) : null}
              </InlineStack>
            </div>
          </Fragment>
        ))
      )}
      <LineModal editing={editing} detail={detail} reload={reload} onClose={close} />
    </DetailCard>
  )
}

function LineModal({
  editing,
  detail,
  reload,
  onClose,
}: {
  editing: LineEdit | null
  detail: SubscriptionDetail
  reload: () => void
  onClose: () => void
}) {
  switch (editing?.kind) {
    case undefined:
      return null
    case 'add':
      return <AddLineModal detail={detail} reload={reload} onClose={onClose} />
    case 'quantity':
      return <LineEditModal detail={detail} line={editing.line} reload={reload} onClose={onClose} />
    case 'swap':
      return <SwapVariantModal detail={detail} line={editing.line} reload={reload} onClose={onClose} />
    case 'remove': {
      const line = editing.line
      return (
        <ConfirmModal
          title="商品を削除しますか？"
          message={`「${line.title}${line.variantTitle ? ` / ${line.variantTitle}` : ''}」を契約から削除します。次回以降の注文に含まれなくなります。`}
          confirmLabel="削除する"
          plan={() => planRemoveLine(detail, line)}
          reload={reload}
          onClose={onClose}
        />
      )
    }
  }
}

/** A line as its buttons name it: 「北海道グラノーラ（500g）」. */
const lineName = (line: SubscriptionDetailLine) =>
  line.variantTitle ? `${line.title}（${line.variantTitle}）` : line.title

function LineItem({ line, nextCycle }: { line: SubscriptionDetailLine; nextCycle: number }) {
  const policy = line.pricingPolicy
  const prices = linePriceTexts(line, nextCycle)
  return (
    <InlineStack gap="300" wrap={false} blockAlign="start">
      <Thumbnail
        source={line.variantImageUrl ?? ImageIcon}
        alt={line.variantImageUrl ? line.title : ''}
        size="small"
      />
      <BlockStack gap="100">
        <Text as="p" fontWeight="medium">
          {line.title}
        </Text>
        {line.variantTitle ? (
          <Text as="p" tone="subdued">
            {line.variantTitle}
          </Text>
        ) : null}
        <Text as="p">
          数量 {line.quantity} ・ {formatMoney(line.currentPrice.amount, line.currentPrice.currencyCode)}
        </Text>
        {line.sellingPlanName ? (
          <Text as="p" tone="subdued">
            販売プラン: {line.sellingPlanName}
          </Text>
        ) : null}
        <BlockStack gap="050">
          {policy ? (
            <Text as="p" variant="bodySm" tone="subdued">
              基本価格 {formatMoney(policy.basePrice.amount, policy.basePrice.currencyCode)}
            </Text>
          ) : null}
          {prices.next ? (
            <span data-testid="line-next-price">
              <Text as="p" variant="bodySm">
                {prices.next}
              </Text>
            </span>
          ) : null}
          {prices.ranges.length > 0 ? (
            <span data-testid="line-cycle-prices">
              <Text as="p" variant="bodySm" tone="subdued">
                回ごとの価格: {prices.ranges.join(' ／ ')}
              </Text>
            </span>
          ) : null}
        </BlockStack>
      </BlockStack>
    </InlineStack>
  )
}
