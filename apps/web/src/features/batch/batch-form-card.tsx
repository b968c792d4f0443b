import { BlockStack, ChoiceList, FormLayout, Text } from '@shopify/polaris'
import type { BatchKind } from '@teiki/contract'
import { DateField } from '../../app/date-field.tsx'
import { japanToday } from '../../app/date-field-model.ts'
import { EmailField } from '../../app/email-field.tsx'
import { SectionCard } from '../../app/section-card.tsx'
import { VariantPicker } from '../subscriptions/detail/variant-picker.tsx'
import { type BatchForm, KIND_LABELS } from './batch-form.ts'

const KINDS: BatchKind[] = ['product-update', 'product-delete', 'next-billing-date-update']

/** What to change: the kind, then its fields (variant pickers or billing days) and the result address. */
export function BatchFormCard({
  form,
  onChange,
  disabled,
}: {
  form: BatchForm
  onChange: (form: BatchForm) => void
  disabled: boolean
}) {
  const set =
    <K extends keyof BatchForm>(key: K) =>
    (value: BatchForm[K]) =>
      onChange({ ...form, [key]: value })
  return (
    <SectionCard title="一括更新の内容">
      <div data-testid="batch-kind">
        <ChoiceList
          title="変更の種類"
          choices={KINDS.map((kind) => ({ label: KIND_LABELS[kind], value: kind }))}
          selected={[form.kind]}
          onChange={([kind]) => onChange({ ...form, kind: (kind as BatchKind) ?? 'product-update' })}
          disabled={disabled}
        />
      </div>
      {form.kind === 'next-billing-date-update' ? (
        <FormLayout>
          <FormLayout.Group>
            <DateField
              label="変更前の次回請求日"
              value={form.dateFrom}
              onChange={set('dateFrom')}
              testId="batch-date-from"
              helpText="この日が次回請求日の契約が対象です（日本時間）"
            />
            <DateField
              label="変更後の次回請求日"
              value={form.dateTo}
              onChange={set('dateTo')}
              min={japanToday()}
              minMeaning="今日"
              testId="batch-date-to"
            />
          </FormLayout.Group>
        </FormLayout>
      ) : (
        <VariantFields form={form} set={set} />
      )}
      <EmailField
        testId="batch-notify-email"
        label="結果の送信先メールアドレス（任意）"
        value={form.notifyEmail}
        onChange={set('notifyEmail')}
        helpText="終わると、変更・スキップ・失敗した契約の件数と理由をお送りします"
      />
    </SectionCard>
  )
}

function VariantFields({
  form,
  set,
}: {
  form: BatchForm
  set: <K extends keyof BatchForm>(key: K) => (value: BatchForm[K]) => void
}) {
  const swap = form.kind === 'product-update'
  return (
    <BlockStack gap="400">
      <div data-testid="batch-from-variant">
        <BlockStack gap="200">
          <Text as="h3" variant="headingSm">
            {swap ? '変更前の商品' : '削除する商品'}
          </Text>
          <VariantPicker currencyCode="JPY" selected={form.from} onSelect={set('from')} />
        </BlockStack>
      </div>
      {swap ? (
        <div data-testid="batch-to-variant">
          <BlockStack gap="200">
            <Text as="h3" variant="headingSm">
              変更後の商品
            </Text>
            <VariantPicker
              currencyCode="JPY"
              selected={form.to}
              onSelect={set('to')}
              excludedIds={form.from ? [form.from.id] : []}
            />
            <Text as="p" tone="subdued">
              手動で設定した価格の契約はその価格のまま、それ以外は変更後の商品の価格になります。在庫切れの商品や、契約の販売プランの対象外の商品への変更はスキップします。
            </Text>
          </BlockStack>
        </div>
      ) : null}
      <EmailField
        testId="batch-customer-email"
        label="お客様のメールアドレス（任意）"
        value={form.customerEmail}
        onChange={set('customerEmail')}
        helpText="入力すると、このお客様の契約だけが対象になります"
        autoComplete="off"
      />
    </BlockStack>
  )
}
