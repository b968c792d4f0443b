import {
  BlockStack,
  Button,
  Card,
  Divider,
  FormLayout,
  InlineStack,
  Select,
  Text,
  TextField,
} from '@shopify/polaris'
import { DeleteIcon, PlusIcon } from '@shopify/polaris-icons'
import type { PlanProblems } from '@teiki/domain'
import { DiscountFields } from './discount-fields.tsx'
import type { AnchorDraft, PlanDraft } from './group-draft.ts'
import type { EditorAction } from './group-editor-state.ts'

const INTERVALS = [
  { label: '日ごと', value: 'DAY' },
  { label: '週ごと', value: 'WEEK' },
  { label: 'ヶ月ごと', value: 'MONTH' },
]
const CATEGORIES = [
  { label: '定期購入', value: 'SUBSCRIPTION' },
  { label: '予約販売', value: 'PRE_ORDER' },
  { label: 'お試し購入', value: 'TRY_BEFORE_YOU_BUY' },
  { label: 'その他', value: 'OTHER' },
]
const ANCHOR_TYPES = [
  { label: '毎週の曜日', value: 'WEEKDAY' },
  { label: '毎月の日付', value: 'MONTHDAY' },
  { label: '毎年の月日', value: 'YEARDAY' },
]
const WEEKDAYS = ['月', '火', '水', '木', '金', '土', '日'].map((d, i) => ({
  label: `${d}曜日`,
  value: String(i + 1),
}))
const PRE_ANCHOR = [
  { label: 'すぐに発送し、次の基準日から請求', value: 'ASAP' },
  { label: '次の基準日まで待って発送', value: 'NEXT' },
]

/** One plan of the group: its name, schedule (billing and delivery policy) and discount. */
export function PlanCard({
  plan,
  index,
  problems,
  currencyCode,
  canRemove,
  dispatch,
}: {
  plan: PlanDraft
  index: number
  problems: PlanProblems
  currencyCode: string
  canRemove: boolean
  dispatch: (action: EditorAction) => void
}) {
  const change = (patch: Partial<PlanDraft>) => dispatch({ type: 'planChanged', key: plan.key, patch })
  return (
    <Card>
      <div data-testid={`plan-card-${index}`}>
        <BlockStack gap="400">
          <InlineStack align="space-between" blockAlign="center">
            <Text as="h3" variant="headingMd">
              プラン{index + 1}
              {plan.name.trim() ? `：${plan.name.trim()}` : ''}
            </Text>
            {canRemove ? (
              <Button
                icon={DeleteIcon}
                tone="critical"
                variant="plain"
                onClick={() => dispatch({ type: 'planRemoved', key: plan.key })}
              >
                このプランを削除
              </Button>
            ) : null}
          </InlineStack>
          <FormLayout>
            <FormLayout.Group>
              <TextField
                label="プラン名"
                value={plan.name}
                onChange={(v) => change({ name: v })}
                autoComplete="off"
                error={problems.name}
                maxLength={255}
              />
              <TextField
                label="ストアでの表示（選択肢）"
                value={plan.option}
                onChange={(v) => change({ option: v })}
                autoComplete="off"
                placeholder={plan.name || '例：1ヶ月ごと'}
                helpText="空欄のときはプラン名を表示します"
              />
            </FormLayout.Group>
            <FormLayout.Group>
              <Select
                label="プランの種類"
                options={CATEGORIES}
                value={plan.category}
                onChange={(v) => change({ category: v as PlanDraft['category'] })}
              />
              <TextField
                label="プランの説明"
                value={plan.description}
                onChange={(v) => change({ description: v })}
                autoComplete="off"
                multiline={2}
              />
            </FormLayout.Group>
          </FormLayout>
          <Divider />
          <ScheduleFields plan={plan} problems={problems} dispatch={dispatch} />
          <Anchors plan={plan} dispatch={dispatch} />
          <Divider />
          <Text as="h4" variant="headingSm">
            割引
          </Text>
          <DiscountFields plan={plan} problems={problems} currencyCode={currencyCode} dispatch={dispatch} />
        </BlockStack>
      </div>
    </Card>
  )
}

function Anchors({ plan, dispatch }: { plan: PlanDraft; dispatch: (action: EditorAction) => void }) {
  const change = (anchor: AnchorDraft, patch: Partial<Omit<AnchorDraft, 'key'>>) =>
    dispatch({ type: 'anchorChanged', plan: plan.key, key: anchor.key, patch })
  return (
    <BlockStack gap="200">
      <Text as="p" variant="bodySm" tone="subdued">
        基準日（請求と配送の日を揃える日。なければ購入日が基準になります）
      </Text>
      {plan.anchors.map((anchor) => (
        <InlineStack key={anchor.key} gap="200" blockAlign="end" wrap={false}>
          <Select
            label="基準日の種類"
            options={ANCHOR_TYPES}
            value={anchor.type}
            onChange={(v) => change(anchor, { type: v as AnchorDraft['type'], day: '1' })}
          />
          {anchor.type === 'YEARDAY' ? (
            <TextField
              label="月"
              value={anchor.month}
              onChange={(v) => change(anchor, { month: v })}
              suffix="月"
              autoComplete="off"
              inputMode="numeric"
            />
          ) : null}
          {anchor.type === 'WEEKDAY' ? (
            <Select
              label="曜日"
              options={WEEKDAYS}
              value={anchor.day}
              onChange={(v) => change(anchor, { day: v })}
            />
          ) : (
            <TextField
              label="日"
              value={anchor.day}
              onChange={(v) => change(anchor, { day: v })}
              suffix="日"
              autoComplete="off"
              inputMode="numeric"
            />
          )}
          <Button
            icon={DeleteIcon}
            accessibilityLabel="基準日を削除"
            onClick={() => dispatch({ type: 'anchorRemoved', plan: plan.key, key: anchor.key })}
          />
        </InlineStack>
      ))}
      <InlineStack>
        <Button icon={PlusIcon} onClick={() => dispatch({ type: 'anchorAdded', plan: plan.key })}>
          基準日を追加
        </Button>
      </InlineStack>
    </BlockStack>
  )
}

/** Billing policy (cycle, min and max cycles) and delivery policy (cycle, cutoff, pre-anchor). */
function ScheduleFields({
  plan,
  problems,
  dispatch,
}: {
  plan: PlanDraft
  problems: PlanProblems
  dispatch: (action: EditorAction) => void
}) {
  const change = (patch: Partial<PlanDraft>) => dispatch({ type: 'planChanged', key: plan.key, patch })
  const number = (
    field: 'intervalCount' | 'minCycles' | 'maxCycles' | 'cutoff' | 'deliveryIntervalCount',
  ) => ({
    value: plan[field],
    onChange: (v: string) => change({ [field]: v }),
    inputMode: 'numeric' as const,
    autoComplete: 'off',
  })
  return (
    <>
      <Text as="h4" variant="headingSm">
        請求と配送
      </Text>
      <FormLayout>
        <FormLayout.Group>
          <TextField label="お届け間隔" {...number('intervalCount')} error={problems.intervalCount} />
          <Select
            label="周期"
            options={INTERVALS}
            value={plan.interval}
            onChange={(v) => change({ interval: v as PlanDraft['interval'] })}
          />
          <TextField label="最低継続回数" {...number('minCycles')} suffix="回" error={problems.minCycles} />
          <TextField label="最大継続回数" {...number('maxCycles')} suffix="回" helpText="空欄は無期限" />
        </FormLayout.Group>
        <FormLayout.Group>
          <TextField
            label="配送間隔"
            {...number('deliveryIntervalCount')}
            placeholder={plan.intervalCount}
            helpText="空欄は請求と同じ"
          />
          <TextField
            label="締め切り（基準日の何日前）"
            {...number('cutoff')}
            suffix="日前"
            helpText="この期間内の注文は次の基準日に回ります"
          />
          <Select
            label="基準日の前の注文"
            options={PRE_ANCHOR}
            value={plan.preAnchorBehavior}
            onChange={(v) => change({ preAnchorBehavior: v as 'ASAP' | 'NEXT' })}
          />
        </FormLayout.Group>
      </FormLayout>
    </>
  )
}
