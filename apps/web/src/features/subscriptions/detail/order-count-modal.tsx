import { BlockStack, Spinner, Text, TextField } from '@shopify/polaris'
import type { OrderCountResponse } from '@teiki/contract'
import { formatDateTimeJa } from '@teiki/domain'
import { useEffect, useState } from 'react'
import { type Phase, phase, useApi } from '../../../app/use-api.ts'
import { planOrderCount } from './contract-edits.ts'
import { safeDate } from './detail-format.ts'
import { EditModal } from './edit-modal.tsx'
import { type EditModalProps, useContractEdit } from './use-contract-edit.ts'

type Loaded = Phase<OrderCountResponse>

/**
 * 注文回数: the merchant's correction of how many orders the contract has made (for contracts
 * moved from another app). Orders created afterwards are counted on top of it.
 */
export function OrderCountModal({ detail, reload, onClose }: EditModalProps) {
  const [count, setCount] = useState(String(detail.orderCount))
  const answer = useApi('GET /subscription-contracts/:id/order-count', { params: { id: detail.contractId } })
  const loaded = phase(answer)
  const edit = useContractEdit(reload, onClose)

  // The form starts from what the server holds once it has answered.
  useEffect(() => {
    if (answer.data) setCount(String(answer.data.count))
  }, [answer.data])

  return (
    <EditModal
      title="注文回数を変更"
      {...edit.modal(() => planOrderCount(detail, count))}
      primaryDisabled={loaded.status === 'loading'}
    >
      <BlockStack gap="200">
        <div data-testid="order-count-input">
          <TextField
            type="number"
            label="注文回数"
            min={0}
            value={count}
            onChange={setCount}
            suffix="回"
            autoComplete="off"
            error={edit.error?.message}
            helpText="他のアプリから移行した契約など、これまでの注文回数を補正できます。以後の注文はこの回数に加算されます。"
          />
        </div>
        <OrderCountNote loaded={loaded} />
      </BlockStack>
    </EditModal>
  )
}

function OrderCountNote({ loaded }: { loaded: Loaded }) {
  switch (loaded.status) {
    case 'loading':
      return <Spinner size="small" accessibilityLabel="読み込み中" />
    case 'error':
      return (
        <Text as="p" tone="critical">
          現在の注文回数を読み込めませんでした：{loaded.message}
        </Text>
      )
    case 'done':
      return loaded.data.setCount === null ? null : (
        <Text as="p" tone="subdued">
          {safeDate(loaded.data.setAt, formatDateTimeJa)}に{loaded.data.setCount}回に補正されました
        </Text>
      )
  }
}
