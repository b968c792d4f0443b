import { BlockStack, Box, Button, FormLayout, InlineStack, Select, Text, TextField } from '@shopify/polaris'
import { DeleteIcon, PlusIcon } from '@shopify/polaris-icons'
import {
  DISCOUNT_TYPES,
  type DiscountType,
  discountTypeLabel,
  formatMoney,
  type PlanProblems,
} from '@teiki/domain'
import { formOfDraft, type PlanDraft } from './group-draft.ts'
import type { EditorAction } from './group-editor-state.ts'
import { pricePreview } from './plan-display.ts'

const VALUE_TYPES = [
  { label: '選んでください', value: '' },
  { label: '％オフ', value: 'PERCENTAGE' },
  { label: '円引き', value: 'FIXED_AMOUNT' },
  { label: '価格指定（円）', value: 'PRICE' },
]

const unit = (plan: PlanDraft) => (plan.valueType === 'PERCENTAGE' ? '%' : plan.valueType ? '円' : '')

/** A plan's discount (spec §3 discount types, §4 derivation, §5 rules) and what each cycle costs. */
export function DiscountFields({
  plan,
  problems,
  currencyCode,
  dispatch,
}: {
  plan: PlanDraft
  problems: PlanProblems
  currencyCode: string
  dispatch: (action: EditorAction) => void
}) {
  const change = (patch: Partial<PlanDraft>) => dispatch({ type: 'planChanged', key: plan.key, patch })
  const value = (field: 'initialValue' | 'laterValue', label: string) => (
    <TextField
      label={label}
      value={plan[field]}
      onChange={(v) => change({ [field]: v })}
      suffix={unit(plan)}
      inputMode="decimal"
      autoComplete="off"
      error={problems[field]}
    />
  )
  return (
    <BlockStack gap="300">
      <FormLayout>
        <FormLayout.Group>
          <Select
            label="割引の種類"
            options={DISCOUNT_TYPES.map((t) => ({ label: discountTypeLabel[t], value: t }))}
            value={plan.discountType}
            onChange={(v) => change({ discountType: v as DiscountType })}
            error={problems.discountType}
          />
          {plan.discountType === 'noDiscount' ? null : (
            <Select
              label="割引の単位"
              options={VALUE_TYPES}
              value={plan.valueType}
              onChange={(v) => change({ valueType: v as PlanDraft['valueType'] })}
              error={problems.valueType}
            />
          )}
        </FormLayout.Group>
        {plan.discountType === 'fixedDiscount' ? (
          <FormLayout.Group>{value('initialValue', '割引の値（毎回）')}</FormLayout.Group>
        ) : null}
        {plan.discountType === 'recurringDiscount' ? (
          <FormLayout.Group>
            {value('initialValue', '初回の割引')}
            <TextField
              label="切り替える回数"
              value={plan.afterCycle}
              onChange={(v) => change({ afterCycle: v })}
              suffix="回目の後から"
              inputMode="numeric"
              autoComplete="off"
              error={problems.afterCycle}
              helpText="1 なら2回目から下の割引になります"
            />
            {value('laterValue', '切り替え後の割引')}
          </FormLayout.Group>
        ) : null}
      </FormLayout>
      {plan.discountType === 'recurringMultiDiscount' ? (
        <CycleRules plan={plan} problem={problems.cycleDiscounts} dispatch={dispatch} />
      ) : null}
      <PricePreview plan={plan} currencyCode={currencyCode} />
    </BlockStack>
  )
}

function CycleRules({
  plan,
  problem,
  dispatch,
}: {
  plan: PlanDraft
  problem: string | undefined
  dispatch: (action: EditorAction) => void
}) {
  return (
    <BlockStack gap="200">
      <Text as="p" variant="bodySm" tone="subdued">
        指定した回から次の指定までその割引が続きます（1回目の割引は購入時にストアが適用し、2回目以降はアプリの請求で適用されます。変更は既存の契約の次回以降の請求にも反映されます）。
      </Text>
      {plan.cycleDiscounts.map((rule) => (
        <InlineStack key={rule.key} gap="200" blockAlign="end" wrap={false}>
          <TextField
            label="回数"
            value={rule.cycle}
            onChange={(v) =>
              dispatch({ type: 'ruleChanged', plan: plan.key, key: rule.key, patch: { cycle: v } })
            }
            suffix="回目から"
            inputMode="numeric"
            autoComplete="off"
          />
          <TextField
            label="割引"
            value={rule.value}
            onChange={(v) =>
              dispatch({ type: 'ruleChanged', plan: plan.key, key: rule.key, patch: { value: v } })
            }
            suffix={unit(plan)}
            inputMode="decimal"
            autoComplete="off"
          />
          <Button
            icon={DeleteIcon}
            accessibilityLabel={`${rule.cycle}回目の割引を削除`}
            onClick={() => dispatch({ type: 'ruleRemoved', plan: plan.key, key: rule.key })}
          />
        </InlineStack>
      ))}
      {problem ? (
        <Text as="p" tone="critical">
          {problem}
        </Text>
      ) : null}
      <InlineStack>
        <Button icon={PlusIcon} onClick={() => dispatch({ type: 'ruleAdded', plan: plan.key })}>
          回数ごとの割引を追加
        </Button>
      </InlineStack>
    </BlockStack>
  )
}

function PricePreview({ plan, currencyCode }: { plan: PlanDraft; currencyCode: string }) {
  const preview = pricePreview(formOfDraft(plan), currencyCode)
  if (!preview) return null
  return (
    <Box background="bg-surface-secondary" padding="200" borderRadius="200">
      <div data-testid="plan-price-preview">
        <Text as="p" variant="bodySm">
          {formatMoney('1980', currencyCode)} の商品の場合：
          {preview.map((p) => `${p.cycle}回目 ${p.price}`).join('　')}
        </Text>
      </div>
    </Box>
  )
}
