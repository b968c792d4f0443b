import { Button, SkeletonBodyText, Text } from '@shopify/polaris'
import { useEffect, useState } from 'react'
import { api, errorMessage } from '../../app/api.ts'
import { EmailField } from '../../app/email-field.tsx'
import { SectionCard } from '../../app/section-card.tsx'
import { useUiState } from '../../app/ui-state.tsx'
import { useAction } from '../../app/use-action.ts'
import { invalidate, useApi } from '../../app/use-api.ts'

/** 送信元: who the mails come from, and the shop's own address for replies (custom shop mail). */
export function ShopMailCard() {
  const ui = useUiState()
  const loaded = useApi('GET /mail-address')
  const address = loaded.data ?? null
  const [value, setValue] = useState('')
  const { busy: saving, error: problem, run } = useAction({ inline: true })
  const error = problem ?? (loaded.error ? errorMessage(loaded.error) : null)

  // The field starts from the stored address, and again after each save.
  useEffect(() => {
    if (address) setValue(address.shopMail ?? '')
  }, [address])

  const save = () =>
    run('run', async () => {
      const saved = await api('PUT /custom-shop-mail', { body: { shopMail: value.trim() } })
      await invalidate('GET /mail-address')
      ui.showToast(
        saved.shopMail ? '返信先のメールアドレスを保存しました' : '返信先のメールアドレスを解除しました',
      )
    })

  return (
    <SectionCard title="送信元" gap="300">
      {address ? (
        <Text as="p">
          差出人: <span data-testid="mail-display-from">{address.displayFrom}</span>
        </Text>
      ) : error ? null : (
        <SkeletonBodyText lines={1} />
      )}
      <EmailField
        label="ストアのメールアドレス（返信先）"
        value={value}
        onChange={setValue}
        error={error}
        helpText="お客様がメールに返信すると、このアドレスに届きます。空にすると解除します。"
      />
      <Button
        onClick={() => void save()}
        loading={saving}
        disabled={(address?.shopMail ?? '') === value.trim()}
      >
        返信先を保存
      </Button>
    </SectionCard>
  )
}
