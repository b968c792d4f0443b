import { Select, Text, TextField } from '@shopify/polaris'
import { MAX_OFFER_ORDERS, MAX_PAUSE_CYCLES, offerLabel } from '@teiki/domain'
import { useState } from 'react'
import { NumberField } from '../../app/number-field.tsx'
import { useUiState } from '../../app/ui-state.tsx'
import { EditModal } from '../subscriptions/detail/edit-modal.tsx'
import {
  OFFER_KIND_OPTIONS,
  type OfferDraft,
  type OfferKind,
  type OfferRow,
  saveRetentionOffer,
  toOfferBody,
} from './retention-offers.ts'

/** オファーを設定: one reason's offer, saved with PUT; the server's refusal is shown in the modal. */
export function OfferModal({
  row,
  initial,
  onClose,
}: {
  row: OfferRow
  initial: OfferDraft
  onClose: () => void
}) {
  const ui = useUiState()
  const [draft, setDraft] = useState(initial)
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)

  async function submit() {
    setBusy(true)
    setProblem(null)
    const result = await saveRetentionOffer(row.reasonId, draft)
    setBusy(false)
    if ('problem' in result) return setProblem(result.problem)
    ui.showToast('解約防止オファーを保存しました')
    onClose()
  }

  return (
    <EditModal
      title={`「${row.reason}」の解約防止オファー`}
      onClose={onClose}
      onSubmit={() => void submit()}
      busy={busy}
      primaryTestId="retention-offer-save"
      {...(problem ? { error: problem } : {})}
    >
      <OfferFields
        draft={draft}
        change={(patch) => {
          setDraft({ ...draft, ...patch })
          setProblem(null)
        }}
      />
    </EditModal>
  )
}

type FieldsProps = { draft: OfferDraft; change: (patch: Partial<OfferDraft>) => void }

/** The kind, what that kind takes, and the offer as the subscriber will read it. */
export function OfferFields({ draft, change }: FieldsProps) {
  const made = toOfferBody(draft)
  const preview =
    'body' in made && made.body.offer && made.body.offer.kind !== 'swap' ? made.body.offer : null
  return (
    <>
      <div data-testid="retention-offer-kind">
        <Select
          label="オファーの種類"
          options={OFFER_KIND_OPTIONS}
          value={draft.kind}
          onChange={(value) => change({ kind: value as OfferKind })}
        />
      </div>
      <OfferNumbers draft={draft} change={change} />
      {draft.kind === 'swap' ? (
        <div data-testid="retention-offer-variant">
          <TextField
            label="変更先のバリエーションID"
            helpText="このストアの商品バリエーションのID（数字）です。保存すると商品名が表示されます。"
            value={draft.variantId}
            onChange={(value) => change({ variantId: value })}
            autoComplete="off"
          />
        </div>
      ) : null}
      {preview ? (
        <Text as="p" tone="subdued">
          お客様への表示: {offerLabel(preview)}
        </Text>
      ) : null}
    </>
  )
}

/** お休みの回数, or a discount (a rate or an amount) and how many orders it covers. */
function OfferNumbers({ draft, change }: FieldsProps) {
  const field = (
    key: 'cycles' | 'percent' | 'amount' | 'orders',
    label: string,
    max: number,
    suffix: string,
  ) => (
    <NumberField
      testId={`retention-offer-${key}`}
      label={label}
      min={1}
      max={max}
      suffix={suffix}
      value={draft[key]}
      onChange={(value) => change({ [key]: value })}
    />
  )
  switch (draft.kind) {
    case 'pause':
      return field('cycles', 'お休みする回数', MAX_PAUSE_CYCLES, '回')
    case 'percent':
      return (
        <>
          {field('percent', '割引率', 100, '%')}
          {field('orders', '割引する回数', MAX_OFFER_ORDERS, '回')}
        </>
      )
    case 'amount':
      return (
        <>
          {field('amount', '割引額', 1_000_000, '円')}
          {field('orders', '割引する回数', MAX_OFFER_ORDERS, '回')}
        </>
      )
    default:
      return null
  }
}
