import { Checkbox, Text } from '@shopify/polaris'
import type { SubscriptionDetailLine } from '@teiki/contract'
import { useState } from 'react'
import { safeMoney } from './detail-format.ts'
import { EditModal } from './edit-modal.tsx'
import { planSwapVariant } from './line-edits.ts'
import { type EditModalProps, useContractEdit } from './use-contract-edit.ts'
import { VariantPicker } from './variant-picker.tsx'
import type { VariantSummary } from './variant-search.ts'

/** 商品を変更: the line takes another variant, at its price or keeping the current one. */
export function SwapVariantModal({
  detail,
  line,
  reload,
  onClose,
}: EditModalProps & { line: SubscriptionDetailLine }) {
  const [variant, setVariant] = useState<VariantSummary | null>(null)
  const [keepPrice, setKeepPrice] = useState(false)
  const edit = useContractEdit(reload, onClose)

  return (
    <EditModal
      title={`「${line.title}」の商品を変更`}
      {...edit.modal(() => planSwapVariant(detail, line, variant, keepPrice))}
      primaryDisabled={variant === null}
      error={edit.error?.field === 'variantId' ? undefined : edit.error?.message}
      size="large"
    >
      <Text as="p" tone="subdued">
        現在: {line.title}
        {line.variantTitle ? ` / ${line.variantTitle}` : ''}（
        {safeMoney(line.currentPrice.amount, line.currentPrice.currencyCode)}）
      </Text>
      <VariantPicker
        currencyCode={detail.currencyCode}
        selected={variant}
        onSelect={setVariant}
        error={edit.error?.field === 'variantId' ? edit.error.message : undefined}
        excludedIds={[line.variantId]}
      />
      <div data-testid="swap-keep-price-checkbox">
        <Checkbox label="現在の価格を維持する" checked={keepPrice} onChange={setKeepPrice} />
      </div>
    </EditModal>
  )
}
