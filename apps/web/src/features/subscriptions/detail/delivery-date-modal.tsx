import { BlockStack, Button, TextField } from '@shopify/polaris'
import { formatDateJa } from '@teiki/domain'
import { useState } from 'react'
import { planNextDeliveryDate } from './contract-edits.ts'
import { safeDate } from './detail-format.ts'
import { EditModal } from './edit-modal.tsx'
import { type EditModalProps, useContractEdit } from './use-contract-edit.ts'

/** 次回お届け予定日: a Japan-time day, or none (saving an empty field clears it). */
export function DeliveryDateModal({ detail, reload, onClose }: EditModalProps) {
  const [date, setDate] = useState(detail.nextDeliveryDate ?? '')
  const edit = useContractEdit(reload, onClose)
  return (
    <EditModal
      title="次回お届け予定日を変更"
      onClose={onClose}
      onSubmit={() => void edit.submit(planNextDeliveryDate(detail, date))}
      busy={edit.busy}
    >
      <BlockStack gap="200">
        <div data-testid="next-delivery-date-input">
          <TextField
            type="date"
            label="次回お届け予定日"
            value={date}
            onChange={setDate}
            autoComplete="off"
            helpText={`次回請求日（${safeDate(detail.nextBillingDate, formatDateJa)}）以降の日付を指定してください。空欄で保存すると指定を解除します。`}
            error={edit.error?.message}
          />
        </div>
        <div>
          <Button variant="plain" onClick={() => setDate('')} disabled={edit.busy || date === ''}>
            日付の指定を解除する
          </Button>
        </div>
      </BlockStack>
    </EditModal>
  )
}
