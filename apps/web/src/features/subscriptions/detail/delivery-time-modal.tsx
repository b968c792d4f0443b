import { Select } from '@shopify/polaris'
import { useState } from 'react'
import { DELIVERY_TIME_OPTIONS, planDeliveryTime } from './contract-edits.ts'
import { EditModal } from './edit-modal.tsx'
import { type EditModalProps, useContractEdit } from './use-contract-edit.ts'

/** 配送時間帯: one of the carriers' slots, or 指定なし. */
export function DeliveryTimeModal({ detail, reload, onClose }: EditModalProps) {
  const [slot, setSlot] = useState(detail.deliveryTime ?? 'NONE')
  const edit = useContractEdit(reload, onClose)
  return (
    <EditModal title="配送時間帯を変更" {...edit.modal(() => planDeliveryTime(detail, slot))}>
      <div data-testid="delivery-time-select">
        <Select
          label="配送時間帯"
          options={DELIVERY_TIME_OPTIONS}
          value={slot}
          onChange={setSlot}
          error={edit.error?.message}
        />
      </div>
    </EditModal>
  )
}
