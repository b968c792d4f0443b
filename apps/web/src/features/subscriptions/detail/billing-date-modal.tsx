import { formatDateJa } from '@teiki/domain'
import { useState } from 'react'
import { DateField } from '../../../app/date-field.tsx'
import { japanToday } from '../../../app/date-field-model.ts'
import { planNextBillingDate } from './contract-edits.ts'
import { japanDateInput, safeDate } from './detail-format.ts'
import { EditModal } from './edit-modal.tsx'
import { type EditModalProps, useContractEdit } from './use-contract-edit.ts'

/**
 * 次回請求日: a Japan-time day from today on (the server refuses past days); the time of day
 * the shop bills at is kept by the server.
 */
export function BillingDateModal({ detail, reload, onClose }: EditModalProps) {
  const [date, setDate] = useState(() => japanDateInput(detail.nextBillingDate))
  const edit = useContractEdit(reload, onClose)
  const today = japanToday()
  return (
    <EditModal title="次回請求日を変更" {...edit.modal(() => planNextBillingDate(detail, date, today))}>
      <DateField
        testId="next-billing-date-input"
        label="次回請求日"
        value={date}
        onChange={setDate}
        min={today}
        minMeaning="今日"
        helpText={`現在の次回請求日: ${safeDate(detail.nextBillingDate, formatDateJa)}`}
        error={edit.error?.message}
      />
    </EditModal>
  )
}
