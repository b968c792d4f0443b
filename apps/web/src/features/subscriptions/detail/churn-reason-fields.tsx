import { BlockStack, Select, Spinner, TextField } from '@shopify/polaris'
import { useState } from 'react'
import { useLoader } from '../../../app/use-api.ts'
import { type ChurnReasonInput, loadCancellationReasons } from './contract-actions.ts'
import { CHURN_REASON_MAX } from './detail-format.ts'

/**
 * The reason of a churn: one of the shop's cancellation reasons (when it has any) and a free
 * text, both optional. Every change is reported whole through `onChange`.
 */
export function ChurnReasonFields({ onChange }: { onChange: (value: ChurnReasonInput) => void }) {
  // Cached under the reasons' route: an edit on the 解約理由 page refetches what is offered here.
  const reasons =
    useLoader(['GET /cancellation-reasons', 'sorted'], () => loadCancellationReasons()).data ?? null
  const [value, setValue] = useState<ChurnReasonInput>({ reasonId: '', reason: '' })

  const update = (patch: Partial<ChurnReasonInput>) => {
    const next = { ...value, ...patch }
    setValue(next)
    onChange(next)
  }

  return (
    <BlockStack gap="300">
      {reasons === null ? <Spinner size="small" accessibilityLabel="解約理由を読み込み中" /> : null}
      {reasons && reasons.length > 0 ? (
        <div data-testid="churn-reason-select">
          <Select
            label="解約理由"
            options={[
              { label: '選択してください', value: '' },
              ...reasons.map((r) => ({ label: r.reason, value: r.id })),
            ]}
            value={value.reasonId}
            onChange={(reasonId) => update({ reasonId })}
          />
        </div>
      ) : null}
      <div data-testid="churn-reason">
        <TextField
          label={reasons && reasons.length > 0 ? 'コメント（任意）' : '解約理由（任意）'}
          value={value.reason}
          onChange={(reason) => update({ reason })}
          multiline={3}
          maxLength={CHURN_REASON_MAX}
          showCharacterCount
          autoComplete="off"
          error={
            value.reason.trim().length > CHURN_REASON_MAX
              ? `解約理由は${CHURN_REASON_MAX}文字以内で入力してください`
              : undefined
          }
        />
      </div>
    </BlockStack>
  )
}
