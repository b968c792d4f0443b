import { Checkbox, FormLayout, TextField } from '@shopify/polaris'
import type { SubscriptionDetailLine } from '@teiki/contract'
import { useState } from 'react'
import { NumberField } from '../../../app/number-field.tsx'
import { safeMoney } from './detail-format.ts'
import { EditModal } from './edit-modal.tsx'
import { type LineForm, planLineQuantity } from './line-edits.ts'
import { type EditModalProps, useContractEdit } from './use-contract-edit.ts'

/**
 * 数量・価格を変更: the line's quantity and, when 価格を手動で変更する is ticked, its price (the
 * contract is then marked as repriced by hand, so price syncs leave it alone).
 */
export function LineEditModal({
  detail,
  line,
  reload,
  onClose,
}: EditModalProps & { line: SubscriptionDetailLine }) {
  const [form, setForm] = useState<LineForm>({
    quantity: String(line.quantity),
    manualPrice: false,
    price: String(Number(line.currentPrice.amount) || line.currentPrice.amount),
  })
  const edit = useContractEdit(reload, onClose)
  const set = (patch: Partial<LineForm>) => setForm((current) => ({ ...current, ...patch }))
  const field = edit.error?.field

  return (
    <EditModal
      title={`「${line.title}」を編集`}
      {...edit.modal(() => planLineQuantity(detail, line, form))}
      error={field === 'quantity' || field === 'price' ? undefined : edit.error?.message}
    >
      <FormLayout>
        <NumberField
          testId="line-quantity-input"
          label="数量"
          min={1}
          max={999}
          value={form.quantity}
          onChange={(quantity) => set({ quantity })}
          error={field === 'quantity' ? edit.error?.message : undefined}
        />
        <div data-testid="line-manual-price-checkbox">
          <Checkbox
            label="価格を手動で変更する"
            checked={form.manualPrice}
            onChange={(manualPrice) => set({ manualPrice })}
            helpText={`現在の価格: ${safeMoney(line.currentPrice.amount, line.currentPrice.currencyCode)}`}
          />
        </div>
        {form.manualPrice ? (
          <div data-testid="line-price-input">
            <TextField
              label="価格"
              value={form.price}
              onChange={(price) => set({ price })}
              prefix={line.currentPrice.currencyCode === 'JPY' ? '¥' : undefined}
              autoComplete="off"
              error={field === 'price' ? edit.error?.message : undefined}
            />
          </div>
        ) : null}
      </FormLayout>
    </EditModal>
  )
}
