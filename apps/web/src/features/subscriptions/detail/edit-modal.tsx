import { BlockStack, Form, InlineError, Modal } from '@shopify/polaris'
import { type ReactNode, useEffect, useId } from 'react'

/**
 * The modal of one contract edit: the form, a problem found on the client (shown inline), and
 * キャンセル / 保存 buttons that are disabled (保存 spinning) while the request is in flight.
 * The primary button itself carries `data-testid="edit-save"` unless told otherwise.
 */
export function EditModal({
  title,
  onClose,
  onSubmit,
  busy,
  error,
  children,
  primaryLabel = '保存',
  primaryTestId = 'edit-save',
  primaryDisabled = false,
  destructive = false,
  size,
}: {
  title: string
  onClose: () => void
  onSubmit: () => void
  busy: boolean
  error?: string
  children: ReactNode
  primaryLabel?: string
  primaryTestId?: string
  primaryDisabled?: boolean
  destructive?: boolean
  size?: 'small' | 'large'
}) {
  const primaryId = useId()
  // Polaris actions take no data attributes; the button is found by its id to be tagged for e2e.
  useEffect(() => {
    document.getElementById(primaryId)?.setAttribute('data-testid', primaryTestId)
  })

  return (
    <Modal
      open
      title={title}
      size={size}
      onClose={() => {
        if (!busy) onClose()
      }}
      primaryAction={{
        id: primaryId,
        content: primaryLabel,
        onAction: onSubmit,
        loading: busy,
        disabled: busy || primaryDisabled,
        destructive,
      }}
      secondaryActions={[{ content: 'キャンセル', onAction: onClose, disabled: busy }]}
    >
      <Modal.Section>
        {/* A form, so Enter in a field submits as merchants expect. */}
        <Form
          onSubmit={() => {
            if (!busy && !primaryDisabled) onSubmit()
          }}
        >
          <BlockStack gap="300">
            {children}
            {error ? <InlineError message={error} fieldID="contract-edit-form" /> : null}
          </BlockStack>
        </Form>
      </Modal.Section>
    </Modal>
  )
}
