import {
  BlockStack,
  Card,
  ChoiceList,
  FormLayout,
  InlineGrid,
  Select,
  Text,
  TextField,
} from '@shopify/polaris'
import type { SegmentGroup, SegmentSetting, SellingPlanGroupList, SubscriptionStatus } from '@teiki/contract'
import { statusLabel } from '@teiki/domain'
import { DateField } from '../../app/date-field.tsx'
import { type SegmentForm, trafficKey } from './segment-form-model.ts'

const STATUSES: SubscriptionStatus[] = ['ACTIVE', 'FAILED', 'PAUSED', 'EXPIRED', 'CANCELLED']

type Props = {
  form: SegmentForm
  onChange: (patch: Partial<SegmentForm>) => void
  setting: SegmentSetting | null
  groups: SegmentGroup[]
  plans: SellingPlanGroupList['groups']
}

/** The segment's name, group and conditions (ADR 0017: all conditions must hold; within one, any). */
export function SegmentFormCard({ form, onChange, setting, groups, plans }: Props) {
  const sources = setting?.sources ?? []
  return (
    <Card>
      <BlockStack gap="400">
        <FormLayout>
          <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
            <TextField
              label="セグメント名"
              value={form.name}
              onChange={(name) => onChange({ name })}
              autoComplete="off"
              maxLength={100}
            />
            <Select
              label="グループ"
              options={[{ label: 'なし', value: '' }, ...groups.map((g) => ({ label: g.name, value: g.id }))]}
              value={form.groupId}
              onChange={(groupId) => onChange({ groupId })}
            />
          </InlineGrid>
        </FormLayout>
        <Text as="h2" variant="headingSm">
          条件（すべて満たすお客様）
        </Text>
        <InlineGrid columns={{ xs: 1, md: 2 }} gap="400">
          <ChoiceList
            allowMultiple
            title="流入元（いずれか）"
            choices={
              sources.length > 0
                ? sources.map((s) => ({
                    label: `${trafficKey(s)}（契約${s.contracts.toLocaleString('ja-JP')}件）`,
                    value: trafficKey(s),
                  }))
                : [{ label: '計測された流入元はまだありません', value: '', disabled: true }]
            }
            selected={form.traffic}
            onChange={(traffic) => onChange({ traffic })}
          />
          <ChoiceList
            allowMultiple
            title="契約ステータス（いずれか）"
            choices={STATUSES.map((s) => ({ label: statusLabel[s], value: s }))}
            selected={form.statuses}
            onChange={(statuses) => onChange({ statuses: statuses as SubscriptionStatus[] })}
          />
        </InlineGrid>
        <InlineGrid columns={{ xs: 2, md: 4 }} gap="300">
          <TextField
            label="購入回数（以上）"
            type="number"
            value={form.orderMin}
            onChange={(orderMin) => onChange({ orderMin })}
            autoComplete="off"
            suffix="回"
          />
          <TextField
            label="購入回数（以下）"
            type="number"
            value={form.orderMax}
            onChange={(orderMax) => onChange({ orderMax })}
            autoComplete="off"
            suffix="回"
          />
          <TextField
            label="LTV（以上）"
            type="number"
            value={form.ltvMin}
            onChange={(ltvMin) => onChange({ ltvMin })}
            autoComplete="off"
            prefix="¥"
          />
          <TextField
            label="LTV（以下）"
            type="number"
            value={form.ltvMax}
            onChange={(ltvMax) => onChange({ ltvMax })}
            autoComplete="off"
            prefix="¥"
          />
        </InlineGrid>
        <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
          <DateField
            label="初回購入日（から）"
            value={form.firstFrom}
            onChange={(firstFrom) => onChange({ firstFrom })}
            clearable
          />
          <DateField
            label="初回購入日（まで）"
            value={form.firstTo}
            onChange={(firstTo) => onChange({ firstTo })}
            clearable
          />
        </InlineGrid>
        <ChoiceList
          allowMultiple
          title="販売プラン（いずれか）"
          choices={
            plans.length > 0
              ? plans.map((p) => ({ label: p.name, value: p.id }))
              : [{ label: '販売プランがありません', value: '', disabled: true }]
          }
          selected={form.sellingPlanGroupIds}
          onChange={(sellingPlanGroupIds) => onChange({ sellingPlanGroupIds })}
        />
        <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
          <TextField
            label="タグ（いずれかあり）"
            value={form.tagsAny}
            onChange={(tagsAny) => onChange({ tagsAny })}
            autoComplete="off"
            helpText="複数は読点（、）で区切ります"
          />
          <TextField
            label="タグ（いずれもなし）"
            value={form.tagsNone}
            onChange={(tagsNone) => onChange({ tagsNone })}
            autoComplete="off"
          />
        </InlineGrid>
      </BlockStack>
    </Card>
  )
}
