import { FormLayout, TextField } from '@shopify/polaris'
import { useState } from 'react'
import { NumberField } from '../../../app/number-field.tsx'
import { EditModal } from './edit-modal.tsx'
import { planAddLine } from './line-edits.ts'
import { type EditModalProps, useContractEdit } from './use-contract-edit.ts'
import { VariantPicker } from './variant-picker.tsx'
import type { VariantSummary } from './variant-search.ts'

/** 商品を追加: a variant, its quantity and, optionally, a price other than the variant's. */
export function AddLineModal({ detail, reload, onClose }: EditModalProps) {
  const [variant, setVariant] = useState<VariantSummary | null>(null)
  const [quantity, setQuantity] = useState('1')
  const [price, setPrice] = useState('')
  const edit = useContractEdit(reload, onClose)
  const field = edit.error?.field

  return (
    <EditModal
      title="商品を追加"
      {...edit.modal(() => planAddLine(detail, variant, { quantity, price }))}
      primaryLabel="追加"
      error={
        field === 'variantId' || field === 'quantity' || field === 'price' ? undefined : edit.error?.message
      }
      size="large"
    >
      <VariantPicker
        currencyCode={detail.currencyCode}
        selected={variant}
        onSelect={setVariant}
        error={field === 'variantId' ? edit.error?.message : undefined}
      />
      <FormLayout>
        <FormLayout.Group>
          <NumberField
            testId="line-quantity-input"
            label="数量"
            min={1}
            max={999}
            value={quantity}
            onChange={setQuantity}
            error={field === 'quantity' ? edit.error?.message : undefined}
          />
          <div data-testid="line-price-input">
            <TextField
              label="価格（任意）"
              value={price}
              onChange={setPrice}
              prefix={detail.currencyCode === 'JPY' ? '¥' : undefined}
              placeholder={variant?.price ?? undefined}
              helpText="空欄の場合は商品の価格になります"
              autoComplete="off"
              error={field === 'price' ? edit.error?.message : undefined}
            />
          </div>
        </FormLayout.Group>
      </FormLayout>
    </EditModal>
  )
}
