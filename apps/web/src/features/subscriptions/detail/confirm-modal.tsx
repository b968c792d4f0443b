import { Text } from '@shopify/polaris'
import { EditModal } from './edit-modal.tsx'
import { type Planned, useContractEdit } from './use-contract-edit.ts'

/**
 * Asks before an edit that cannot simply be undone (remove a line or a discount, bill now), then
 * sends it like any other edit. The confirm button carries `data-testid="confirm-action"`.
 */
export function ConfirmModal({
  title,
  message,
  confirmLabel,
  destructive = true,
  plan,
  reload,
  onClose,
}: {
  title: string
  message: string
  confirmLabel: string
  destructive?: boolean
  plan: () => Planned
  reload: () => void
  onClose: () => void
}) {
  const edit = useContractEdit(reload, onClose)
  return (
    <EditModal
      title={title}
      {...edit.modal(() => plan())}
      error={edit.error?.message}
      primaryLabel={confirmLabel}
      primaryTestId="confirm-action"
      destructive={destructive}
      size="small"
    >
      <Text as="p">{message}</Text>
    </EditModal>
  )
}
