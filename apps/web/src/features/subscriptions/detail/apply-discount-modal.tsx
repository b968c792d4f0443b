import { TextField } from '@shopify/polaris'
import { useState } from 'react'
import { planApplyDiscount } from './contract-edits.ts'
import { EditModal } from './edit-modal.tsx'
import { type EditModalProps, useContractEdit } from './use-contract-edit.ts'

/** 割引コードを適用: one of the shop's discount codes, applied to the contract's next orders. */
export function ApplyDiscountModal({ detail, reload, onClose }: EditModalProps) {
  const [code, setCode] = useState('')
  const edit = useContractEdit(reload, onClose)
  return (
    <EditModal
      title="割引コードを適用"
      {...edit.modal(() => planApplyDiscount(detail, code))}
      primaryLabel="適用"
    >
      <div data-testid="discount-code-input">
        <TextField
          label="割引コード"
          value={code}
          onChange={setCode}
          autoComplete="off"
          maxLength={255}
          error={edit.error?.message}
        />
      </div>
    </EditModal>
  )
}
