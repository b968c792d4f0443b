import { FormLayout, Select, TextField } from '@shopify/polaris'
import { PREFECTURES } from '@teiki/domain'
import { useState } from 'react'
import { type AddressForm, addressForm, planDeliveryAddress } from './contract-edits.ts'
import { EditModal } from './edit-modal.tsx'
import { type EditModalProps, useContractEdit } from './use-contract-edit.ts'

const PREFECTURE_OPTIONS = [
  { label: '選択してください', value: '' },
  ...PREFECTURES.map((p) => ({ label: p.name, value: p.code })),
]

const FIELDS: ReadonlyArray<keyof AddressForm> = [
  'lastName',
  'firstName',
  'zip',
  'provinceCode',
  'city',
  'address1',
  'address2',
  'phone',
]

/** 配送先: a Japanese address, checked like the server checks it, field by field. */
export function EditAddressModal({ detail, reload, onClose }: EditModalProps) {
  const [form, setForm] = useState<AddressForm>(() => addressForm(detail.deliveryMethod))
  const edit = useContractEdit(reload, onClose)
  const field = edit.error?.field as keyof AddressForm | undefined
  const errorOf = (name: keyof AddressForm) => (field === name ? edit.error?.message : undefined)
  const text = (name: keyof AddressForm, label: string, extra: { autoComplete: string; type?: 'tel' }) => (
    <div data-testid={`address-${name}-input`}>
      <TextField
        label={label}
        value={form[name]}
        onChange={(value) => setForm((current) => ({ ...current, [name]: value }))}
        error={errorOf(name)}
        {...extra}
      />
    </div>
  )

  return (
    <EditModal
      title="配送先を変更"
      {...edit.modal(() => planDeliveryAddress(detail, form))}
      error={field && FIELDS.includes(field) ? undefined : edit.error?.message}
    >
      <FormLayout>
        <FormLayout.Group>
          {text('lastName', '姓', { autoComplete: 'family-name' })}
          {text('firstName', '名', { autoComplete: 'given-name' })}
        </FormLayout.Group>
        <FormLayout.Group>
          {text('zip', '郵便番号', { autoComplete: 'postal-code' })}
          <div data-testid="address-provinceCode-select">
            <Select
              label="都道府県"
              options={PREFECTURE_OPTIONS}
              value={form.provinceCode}
              onChange={(provinceCode) => setForm((current) => ({ ...current, provinceCode }))}
              error={errorOf('provinceCode')}
            />
          </div>
        </FormLayout.Group>
        {text('city', '市区町村', { autoComplete: 'address-level2' })}
        {text('address1', '番地', { autoComplete: 'address-line1' })}
        {text('address2', '建物名・部屋番号', { autoComplete: 'address-line2' })}
        {text('phone', '電話番号', { autoComplete: 'tel', type: 'tel' })}
      </FormLayout>
    </EditModal>
  )
}
