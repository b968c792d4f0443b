import { BlockStack, Button, Card, SkeletonBodyText, Text, TextField } from '@shopify/polaris'
import type { MailAddressResponse } from '@teiki/contract'
import { useEffect, useState } from 'react'
import { apiGet, apiPut, errorMessage } from '../../app/api.ts'
import { useUiState } from '../../app/ui-state.tsx'

/** 送信元: who the mails come from, and the shop's own address for replies (custom shop mail). */
export function ShopMailCard() {
  const ui = useUiState()
  const [address, setAddress] = useState<MailAddressResponse | null>(null)
  const [value, setValue] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)

  useEffect(() => {
    apiGet<MailAddressResponse>('/mail-address').then(
      (data) => {
        setAddress(data)
        setValue(data.shopMail ?? '')
      },
      (cause: unknown) => setError(errorMessage(cause)),
    )
  }, [])

  async function save() {
    setSaving(true)
    setError(null)
    try {
      const saved = await apiPut<{ shopMail: string | null }>('/custom-shop-mail', { shopMail: value.trim() })
      setAddress(await apiGet<MailAddressResponse>('/mail-address'))
      ui.showToast(
        saved.shopMail ? '返信先のメールアドレスを保存しました' : '返信先のメールアドレスを解除しました',
      )
    } catch (cause) {
      setError(errorMessage(cause))
    } finally {
      setSaving(false)
    }
  }

  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          送信元
        </Text>
        {address ? (
          <Text as="p">
            差出人: <span data-testid="mail-display-from">{address.displayFrom}</span>
          </Text>
        ) : error ? null : (
          <SkeletonBodyText lines={1} />
        )}
        <TextField
          label="ストアのメールアドレス（返信先）"
          type="email"
          value={value}
          onChange={setValue}
          autoComplete="email"
          error={error ?? undefined}
          helpText="お客様がメールに返信すると、このアドレスに届きます。空にすると解除します。"
        />
        <Button
          onClick={() => void save()}
          loading={saving}
          disabled={(address?.shopMail ?? '') === value.trim()}
        >
          返信先を保存
        </Button>
      </BlockStack>
    </Card>
  )
}
