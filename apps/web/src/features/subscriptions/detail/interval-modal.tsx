import { Banner, FormLayout, Select } from '@shopify/polaris'
import { useState } from 'react'
import { NumberField } from '../../../app/number-field.tsx'
import { type IntervalForm, intervalForm, planInterval } from './contract-edits.ts'
import { EditModal } from './edit-modal.tsx'
import { type EditModalProps, useContractEdit } from './use-contract-edit.ts'

const UNIT_OPTIONS = [
  { label: '日ごと', value: 'DAY' },
  { label: '週間ごと', value: 'WEEK' },
  { label: 'ヶ月ごと', value: 'MONTH' },
]

const WEEKDAYS = ['月曜日', '火曜日', '水曜日', '木曜日', '金曜日', '土曜日', '日曜日']
const WEEKDAY_OPTIONS = [
  { label: '指定なし', value: '' },
  ...WEEKDAYS.map((label, index) => ({ label, value: String(index + 1) })),
]
const MONTHDAY_OPTIONS = [
  { label: '指定なし', value: '' },
  ...Array.from({ length: 31 }, (_, index) => ({ label: `${index + 1}日`, value: String(index + 1) })),
]

/** 請求間隔: every n days, weeks (optionally on a weekday) or months (optionally on a day). */
export function IntervalModal({ detail, reload, onClose }: EditModalProps) {
  const [form, setForm] = useState<IntervalForm>(() => intervalForm(detail))
  const edit = useContractEdit(reload, onClose)
  const set = (patch: Partial<IntervalForm>) => setForm((current) => ({ ...current, ...patch }))
  const field = edit.error?.field
  const general = field === 'intervalCount' || field === 'anchors' ? undefined : edit.error?.message

  return (
    <EditModal title="請求間隔を変更" {...edit.modal(() => planInterval(detail, form))} error={general}>
      {detail.interval === 'YEAR' ? (
        <Banner tone="info">年単位の契約は月単位（12ヶ月ごと）として編集します。</Banner>
      ) : null}
      <FormLayout>
        <FormLayout.Group>
          <NumberField
            testId="interval-count-input"
            label="間隔"
            min={1}
            max={52}
            value={form.intervalCount}
            onChange={(intervalCount) => set({ intervalCount })}
            error={field === 'intervalCount' ? edit.error?.message : undefined}
          />
          <Select
            label="単位"
            options={UNIT_OPTIONS}
            value={form.interval}
            onChange={(interval) => set({ interval: interval as IntervalForm['interval'], anchorDay: '' })}
          />
        </FormLayout.Group>
        {form.interval === 'DAY' ? null : (
          <Select
            label={form.interval === 'WEEK' ? '請求する曜日' : '請求する日'}
            options={form.interval === 'WEEK' ? WEEKDAY_OPTIONS : MONTHDAY_OPTIONS}
            value={form.anchorDay}
            onChange={(anchorDay) => set({ anchorDay })}
            error={field === 'anchors' ? edit.error?.message : undefined}
          />
        )}
      </FormLayout>
    </EditModal>
  )
}
