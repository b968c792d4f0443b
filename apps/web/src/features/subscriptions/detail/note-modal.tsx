import { TextField } from '@shopify/polaris'
import { useState } from 'react'
import { planNote } from './contract-edits.ts'
import { EditModal } from './edit-modal.tsx'
import { type EditModalProps, useContractEdit } from './use-contract-edit.ts'

export const NOTE_MAX = 5000

/** メモ: the contract's free-text note (empty removes it). */
export function NoteModal({ detail, reload, onClose }: EditModalProps) {
  const [note, setNote] = useState(detail.note ?? '')
  const edit = useContractEdit(reload, onClose)
  return (
    <EditModal title="メモを編集" {...edit.modal(() => planNote(detail, note))}>
      <div data-testid="note-input">
        <TextField
          label="メモ"
          value={note}
          onChange={setNote}
          multiline={5}
          maxLength={NOTE_MAX}
          showCharacterCount
          autoComplete="off"
          error={edit.error?.message}
        />
      </div>
    </EditModal>
  )
}
