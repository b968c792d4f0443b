import { BlockStack, Text, TextField } from '@shopify/polaris'
import type { ChurnRequest, ContractActionResponse, SubscriptionDetail } from '@teiki/contract'
import { useCallback, useRef, useState } from 'react'
import { apiPost, errorMessage } from '../../../app/api.ts'
import { type ModalAction, useUiState } from '../../../app/ui-state.tsx'
import { CHURN_REASON_MAX, type ContractAction, numericId } from './detail-format.ts'

type ActionCopy = {
  path: string
  title: string
  message: (id: string) => string
  confirm: string
  done: string
  destructive: boolean
}

const COPY: Record<ContractAction, ActionCopy> = {
  pause: {
    path: '/pause',
    title: '契約を一時停止しますか？',
    message: (id) => `契約 #${id} を一時停止します。再開するまで請求と配送は行われません。`,
    confirm: '一時停止する',
    done: '契約を一時停止しました',
    destructive: false,
  },
  resume: {
    path: '/resume',
    title: '契約を再開しますか？',
    message: (id) => `契約 #${id} を再開します。次回請求日から請求が再開されます。`,
    confirm: '再開する',
    done: '契約を再開しました',
    destructive: false,
  },
  churn: {
    path: '/churn',
    title: '契約を解約しますか？',
    message: (id) => `契約 #${id} を解約します。解約した契約は元に戻せません。`,
    confirm: '解約する',
    done: '契約を解約しました',
    destructive: true,
  },
}

/**
 * Opens the global confirmation modal for a contract action, posts it, and reports the result
 * with a toast. `onDone` reloads the detail (after success, and after a 409 whose status moved).
 */
export function useContractActions(detail: SubscriptionDetail, onDone: () => void) {
  const { openModal, updateModal, closeModal, showToast } = useUiState()
  const reason = useRef('')
  const inFlight = useRef(false)

  return useCallback(
    (action: ContractAction) => {
      const copy = COPY[action]
      reason.current = ''
      const cancel: ModalAction = { content: 'キャンセル', onAction: closeModal }

      const run = async () => {
        if (inFlight.current) return
        const trimmed = reason.current.trim()
        if (trimmed.length > CHURN_REASON_MAX) return
        inFlight.current = true
        updateModal({
          primaryAction: { ...primary, loading: true, disabled: true },
          secondaryActions: [{ ...cancel, disabled: true }],
        })
        const body: ChurnRequest = {
          contractId: detail.contractId,
          customerId: numericId(detail.customer.id),
        }
        if (action === 'churn' && trimmed) body.reason = trimmed
        try {
          await apiPost<ContractActionResponse>(copy.path, body)
          closeModal()
          showToast(copy.done)
          onDone()
        } catch (error) {
          closeModal()
          showToast(errorMessage(error), { error: true })
          onDone()
        } finally {
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
            {action === 'churn' ? <ChurnReasonField onChange={(value) => (reason.current = value)} /> : null}
          </BlockStack>
        ),
        primaryAction: primary,
        secondaryActions: [cancel],
      })
    },
    [detail.contractId, detail.customer.id, openModal, updateModal, closeModal, showToast, onDone],
  )
}

function ChurnReasonField({ onChange }: { onChange: (value: string) => void }) {
  const [value, setValue] = useState('')
  return (
    <div data-testid="churn-reason">
      <TextField
        label="解約理由（任意）"
        value={value}
        onChange={(next) => {
          setValue(next)
          onChange(next)
        }}
        multiline={3}
        maxLength={CHURN_REASON_MAX}
        showCharacterCount
        autoComplete="off"
        error={
          value.trim().length > CHURN_REASON_MAX
            ? `解約理由は${CHURN_REASON_MAX}文字以内で入力してください`
            : undefined
        }
      />
    </div>
  )
}
