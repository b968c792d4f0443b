import { Badge, BlockStack, Divider, InlineStack, Text, Thumbnail } from '@shopify/polaris'
import { ImageIcon } from '@shopify/polaris-icons'
import type { SubscriptionDetail, SubscriptionDetailLine } from '@teiki/contract'
import { formatMoney } from '@teiki/domain'
import { Fragment } from 'react'
import { cycleDiscountLabel, cyclesLabel } from './detail-format.ts'
import { DetailCard, EmptyLine } from './detail-section.tsx'

/** 商品: the contract lines with their pricing policy. */
export function LinesCard({ lines }: { lines: SubscriptionDetailLine[] }) {
  return (
    <DetailCard title="商品" testId="contract-lines">
      {lines.length === 0 ? (
        <EmptyLine>商品がありません</EmptyLine>
      ) : (
        lines.map((line, index) => (
          <Fragment key={line.id}>
            {index > 0 ? <Divider /> : null}
            <LineItem line={line} />
          </Fragment>
        ))
      )}
    </DetailCard>
  )
}

function LineItem({ line }: { line: SubscriptionDetailLine }) {
  const policy = line.pricingPolicy
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
        {policy ? (
          <BlockStack gap="050">
            <Text as="p" variant="bodySm" tone="subdued">
              基本価格 {formatMoney(policy.basePrice.amount, policy.basePrice.currencyCode)}
            </Text>
            {policy.cycleDiscounts.map((discount) => (
              <Text
                key={`${discount.afterCycle}-${discount.adjustmentValue}`}
                as="p"
                variant="bodySm"
                tone="subdued"
              >
                {cycleDiscountLabel(discount.afterCycle, discount.computedPrice)}
              </Text>
            ))}
          </BlockStack>
        ) : null}
      </BlockStack>
    </InlineStack>
  )
}

/** 割引: discounts applied to the contract. */
export function DiscountsCard({ discounts }: { discounts: SubscriptionDetail['discounts'] }) {
  return (
    <DetailCard title="割引" testId="contract-discounts">
      {discounts.length === 0 ? (
        <EmptyLine>割引はありません</EmptyLine>
      ) : (
        discounts.map((discount) => (
          <InlineStack key={discount.id} gap="200" blockAlign="center">
            <Badge>{discount.title}</Badge>
            <Text as="span" tone="subdued">
              使用 {discount.usageCount}回 ／ 上限 {cyclesLabel(discount.recurringCycleLimit, '無制限')}
            </Text>
          </InlineStack>
        ))
      )}
    </DetailCard>
  )
}
