import { BlockStack, Button } from '@shopify/polaris'
import { formatDateJa } from '@teiki/domain'
import { useState } from 'react'
import { DateField } from '../../../app/date-field.tsx'
import { japanToday } from '../../../app/date-field-model.ts'
import { earliestDeliveryDate, planNextDeliveryDate } from './contract-edits.ts'
import { safeDate } from './detail-format.ts'
import { EditModal } from './edit-modal.tsx'
import { type EditModalProps, useContractEdit } from './use-contract-edit.ts'

/**
 * 次回お届け予定日: a Japan-time day, or none (saving an empty field clears it). The calendar
 * offers only the days the server accepts: from the next billing date, and not in the past.
 */
export function DeliveryDateModal({ detail, reload, onClose }: EditModalProps) {
  const [date, setDate] = useState(detail.nextDeliveryDate ?? '')
  const edit = useContractEdit(reload, onClose)
  const today = japanToday()
  return (
    <EditModal
      title="次回お届け予定日を変更"
      {...edit.modal(() => planNextDeliveryDate(detail, date, today))}
    >
      <BlockStack gap="200">
        <DateField
          testId="next-delivery-date-input"
          label="次回お届け予定日"
          value={date}
          onChange={setDate}
          min={earliestDeliveryDate(detail, today)}
          clearable
          helpText={`次回請求日（${safeDate(detail.nextBillingDate, formatDateJa)}）以降の日付を指定してください。空欄で保存すると指定を解除します。`}
          error={edit.error?.message}
        />
        <div>
          <Button variant="plain" onClick={() => setDate('')} disabled={edit.busy || date === ''}>
            日付の指定を解除する
          </Button>
        </div>
      </BlockStack>
    </EditModal>
  )
}
