import { BlockStack, Text } from '@shopify/polaris'
import type { SubscriptionDetail } from '@teiki/contract'
import { useCallback, useRef } from 'react'
import { type ModalAction, useUiState } from '../../../app/ui-state.tsx'
import { ChurnReasonFields } from './churn-reason-fields.tsx'
import { actionRequest, type ChurnReasonInput, runContractAction } from './contract-actions.ts'
import type { ContractAction } from './detail-format.ts'

type ActionCopy = {
  title: string
  message: (id: string) => string
  confirm: string
  destructive: boolean
}

const COPY: Record<ContractAction, ActionCopy> = {
  pause: {
    title: '契約を一時停止しますか？',
    message: (id) => `契約 #${id} を一時停止します。再開するまで請求と配送は行われません。`,
    confirm: '一時停止する',
    destructive: false,
  },
  resume: {
    title: '契約を再開しますか？',
    message: (id) => `契約 #${id} を再開します。次回請求日から請求が再開されます。`,
    confirm: '再開する',
    destructive: false,
  },
  churn: {
    title: '契約を解約しますか？',
    message: (id) => `契約 #${id} を解約します。解約した契約は元に戻せません。`,
    confirm: '解約する',
    destructive: true,
  },
}

/**
 * Opens the global confirmation modal for a contract action (churn with the shop's reasons and a
 * free text), posts it with the screen's revision, and reports the result with a toast. `onDone`
 * reloads the detail (after success, and after a failure such as a 409 whose status moved).
 */
export function useContractActions(detail: SubscriptionDetail, onDone: () => void) {
  const { openModal, updateModal, closeModal, showToast } = useUiState()
  const reason = useRef<ChurnReasonInput>({ reasonId: '', reason: '' })
  const inFlight = useRef(false)

  return useCallback(
    (action: ContractAction) => {
      const copy = COPY[action]
      reason.current = { reasonId: '', reason: '' }
      const cancel: ModalAction = { content: 'キャンセル', onAction: closeModal }

      const run = async () => {
        if (inFlight.current) return
        const request = actionRequest(detail, action, reason.current)
        if (!request.ok) {
          showToast(request.error, { error: true })
          return
        }
        inFlight.current = true
        updateModal({
          primaryAction: { ...primary, loading: true, disabled: true },
          secondaryActions: [{ ...cancel, disabled: true }],
        })
        try {
          await runContractAction({ showToast, reload: onDone }, request.body, action)
        } finally {
          closeModal()
          inFlight.current = false
        }
      }

      const primary: ModalAction = {
        content: copy.confirm,
        destructive: copy.destructive,
        onAction: () => void run(),
      }

      openModal({
        title: copy.title,
        body: (
          <BlockStack gap="300">
            <Text as="p">{copy.message(detail.contractId)}</Text>
            {action === 'churn' ? <ChurnReasonFields onChange={(value) => (reason.current = value)} /> : null}
          </BlockStack>
        ),
        primaryAction: primary,
        secondaryActions: [cancel],
      })
    },
    [detail, openModal, updateModal, closeModal, showToast, onDone],
  )
}
