import { ChoiceList, Spinner, Text } from '@shopify/polaris'
import type { PaymentMethodsResponse } from '@teiki/contract'
import { useEffect, useState } from 'react'
import { type Phase, phase, useApi } from '../../../app/use-api.ts'
import { planPaymentMethod } from './contract-edits.ts'
import { instrumentLabel } from './detail-format.ts'
import { EmptyLine } from './detail-section.tsx'
import { EditModal } from './edit-modal.tsx'
import { type EditModalProps, useContractEdit } from './use-contract-edit.ts'

type Loaded = Phase<PaymentMethodsResponse>

/** 決済方法: which of the customer's stored methods the contract charges. */
export function PaymentMethodModal({ detail, reload, onClose }: EditModalProps) {
  const answer = useApi('GET /subscription-contracts/:id/payment-methods', {
    params: { id: detail.contractId },
  })
  const loaded = phase(answer)
  const [selected, setSelected] = useState(detail.paymentMethodId ?? '')
  const edit = useContractEdit(reload, onClose)

  // The form starts from what the server holds once it has answered.
  useEffect(() => {
    if (answer.data) if (answer.data.currentId) setSelected(answer.data.currentId)
  }, [answer.data])

  const currentId = loaded.status === 'done' ? loaded.data.currentId : detail.paymentMethodId
  return (
    <EditModal
      title="決済方法を変更"
      {...edit.modal(() => planPaymentMethod(detail, selected))}
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
