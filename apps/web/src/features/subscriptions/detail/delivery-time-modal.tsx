import { Select } from '@shopify/polaris'
import { useState } from 'react'
import { useApi } from '../../../app/use-api.ts'
import { DELIVERY_TIME_OPTIONS, planDeliveryTime } from './contract-edits.ts'
import { EditModal } from './edit-modal.tsx'
import { type EditModalProps, useContractEdit } from './use-contract-edit.ts'

/** 配送時間帯: one of the shop's carrier's slots (設定 › 配送設定), or 指定なし. */
export function DeliveryTimeModal({ detail, reload, onClose }: EditModalProps) {
  const [slot, setSlot] = useState(detail.deliveryTime ?? 'NONE')
  const edit = useContractEdit(reload, onClose)
  const delivery = useApi('GET /delivery-settings')
  // Until the carrier is known every slot is listed; the server refuses one it does not deliver in.
  const offered = delivery.data ? new Set(['NONE', ...delivery.data.slots.map((s) => s.slot)]) : null
  const options = DELIVERY_TIME_OPTIONS.filter((o) => !offered || offered.has(o.value) || o.value === slot)
  return (
    <EditModal title="配送時間帯を変更" {...edit.modal(() => planDeliveryTime(detail, slot))}>
      <div data-testid="delivery-time-select">
        <Select
          label="配送時間帯"
          options={options}
          value={slot}
          onChange={setSlot}
          error={edit.error?.message}
        />
      </div>
    </EditModal>
  )
}
