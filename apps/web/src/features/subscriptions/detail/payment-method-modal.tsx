import { ChoiceList, Spinner, Text } from '@shopify/polaris'
import type { PaymentMethodsResponse } from '@teiki/contract'
import { useEffect, useState } from 'react'
import { apiGet, errorMessage, isAbortError } from '../../../app/api.ts'
import { planPaymentMethod } from './contract-edits.ts'
import { instrumentLabel } from './detail-format.ts'
import { EmptyLine } from './detail-section.tsx'
import { EditModal } from './edit-modal.tsx'
import { type EditModalProps, useContractEdit } from './use-contract-edit.ts'

type Loaded =
  | { status: 'loading' }
  | { status: 'done'; data: PaymentMethodsResponse }
  | { status: 'error'; message: string }

/** 決済方法: which of the customer's stored methods the contract charges. */
export function PaymentMethodModal({ detail, reload, onClose }: EditModalProps) {
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' })
  const [selected, setSelected] = useState(detail.paymentMethodId ?? '')
  const edit = useContractEdit(reload, onClose)

  useEffect(() => {
    const controller = new AbortController()
    apiGet<PaymentMethodsResponse>(
      `/subscription-contracts/${encodeURIComponent(detail.contractId)}/payment-methods`,
      {},
      { signal: controller.signal },
    ).then(
      (data) => {
        setLoaded({ status: 'done', data })
        if (data.currentId) setSelected(data.currentId)
      },
      (error: unknown) => {
        if (!isAbortError(error)) setLoaded({ status: 'error', message: errorMessage(error) })
      },
    )
    return () => controller.abort()
  }, [detail.contractId])

  const currentId = loaded.status === 'done' ? loaded.data.currentId : detail.paymentMethodId
  return (
    <EditModal
      title="決済方法を変更"
      onClose={onClose}
      onSubmit={() => void edit.submit(planPaymentMethod(detail, selected))}
      busy={edit.busy}
      error={edit.error?.message}
      primaryDisabled={loaded.status !== 'done' || selected === '' || selected === currentId}
    >
      <Methods loaded={loaded} selected={selected} onChange={setSelected} />
    </EditModal>
  )
}

function Methods({
  loaded,
  selected,
  onChange,
}: {
  loaded: Loaded
  selected: string
  onChange: (id: string) => void
}) {
  switch (loaded.status) {
    case 'loading':
      return <Spinner size="small" accessibilityLabel="読み込み中" />
    case 'error':
      return (
        <Text as="p" tone="critical">
          決済方法を読み込めませんでした：{loaded.message}
        </Text>
      )
    case 'done': {
      const { methods, currentId } = loaded.data
      if (methods.length === 0) return <EmptyLine>この顧客には登録済みの決済方法がありません</EmptyLine>
      return (
        <div data-testid="payment-method-choices">
          <ChoiceList
            title="顧客の決済方法"
            choices={methods.map((method) => ({
              value: method.id,
              label: `${instrumentLabel(method.instrument)}${method.id === currentId ? '（現在の決済方法）' : ''}${
                method.revoked ? '（無効）' : ''
              }`,
              disabled: method.revoked,
            }))}
            selected={[selected]}
            onChange={(values) => onChange(values[0] ?? '')}
          />
        </div>
      )
    }
  }
}
