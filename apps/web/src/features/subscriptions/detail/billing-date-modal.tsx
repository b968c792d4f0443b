import { TextField } from '@shopify/polaris'
import { formatDateJa } from '@teiki/domain'
import { useState } from 'react'
import { planNextBillingDate } from './contract-edits.ts'
import { japanDateInput, safeDate } from './detail-format.ts'
import { EditModal } from './edit-modal.tsx'
import { type EditModalProps, useContractEdit } from './use-contract-edit.ts'

/** 次回請求日: a Japan-time day; the time of day the shop bills at is kept by the server. */
export function BillingDateModal({ detail, reload, onClose }: EditModalProps) {
  const [date, setDate] = useState(() => japanDateInput(detail.nextBillingDate))
  const edit = useContractEdit(reload, onClose)
  return (
    <EditModal
      title="次回請求日を変更"
      onClose={onClose}
      onSubmit={() => void edit.submit(planNextBillingDate(detail, date))}
      busy={edit.busy}
    >
      <div data-testid="next-billing-date-input">
        <TextField
          type="date"
          label="次回請求日"
          value={date}
          onChange={setDate}
          autoComplete="off"
          helpText={`現在の次回請求日: ${safeDate(detail.nextBillingDate, formatDateJa)}`}
          error={edit.error?.message}
        />
      </div>
    </EditModal>
  )
}
