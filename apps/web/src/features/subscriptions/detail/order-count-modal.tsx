import { BlockStack, Spinner, Text, TextField } from '@shopify/polaris'
import type { OrderCountResponse } from '@teiki/contract'
import { formatDateTimeJa } from '@teiki/domain'
import { useEffect, useState } from 'react'
import { apiGet, errorMessage, isAbortError } from '../../../app/api.ts'
import { planOrderCount } from './contract-edits.ts'
import { safeDate } from './detail-format.ts'
import { EditModal } from './edit-modal.tsx'
import { type EditModalProps, useContractEdit } from './use-contract-edit.ts'

type Loaded =
  | { status: 'loading' }
  | { status: 'done'; data: OrderCountResponse }
  | { status: 'error'; message: string }

/**
 * 注文回数: the merchant's correction of how many orders the contract has made (for contracts
 * moved from another app). Orders created afterwards are counted on top of it.
 */
export function OrderCountModal({ detail, reload, onClose }: EditModalProps) {
  const [count, setCount] = useState(String(detail.orderCount))
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' })
  const edit = useContractEdit(reload, onClose)

  useEffect(() => {
    const controller = new AbortController()
    apiGet<OrderCountResponse>(
      `/subscription-contracts/${encodeURIComponent(detail.contractId)}/order-count`,
      {},
      { signal: controller.signal },
    ).then(
      (data) => {
        setLoaded({ status: 'done', data })
        setCount(String(data.count))
      },
      (error: unknown) => {
        if (!isAbortError(error)) setLoaded({ status: 'error', message: errorMessage(error) })
      },
    )
    return () => controller.abort()
  }, [detail.contractId])

  return (
    <EditModal
      title="注文回数を変更"
      onClose={onClose}
      onSubmit={() => void edit.submit(planOrderCount(detail, count))}
      busy={edit.busy}
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
