import { BlockStack, Button, InlineStack, Select, Text, TextField } from '@shopify/polaris'
import { PREFECTURES } from '@teiki/domain'
import type { DeliveryDraft } from './delivery-form.ts'

const prefectureOptions = PREFECTURES.map((p) => ({ label: p.name, value: p.code }))

/**
 * The days of 配送設定 the storefront's お届け希望日 calendar reads: the shortest days to delivery,
 * how far ahead a date may be chosen, the day's cutoff in Japan time, and the extra days of
 * far prefectures (the product page says them; the shopper's prefecture is not known there).
 */
export function DeliveryDaysFields({
  draft,
  change,
}: {
  draft: DeliveryDraft
  change: (p: Partial<DeliveryDraft>) => void
}) {
  const setExtra = (i: number, patch: Partial<DeliveryDraft['extra'][number]>) =>
    change({ extra: draft.extra.map((e, j) => (j === i ? { ...e, ...patch } : e)) })
  const unused = PREFECTURES.find((p) => !draft.extra.some((e) => e.prefecture === p.code))
  return (
    <BlockStack gap="300">
      <InlineStack gap="300" wrap>
        <div data-testid="delivery-lead-days">
          <TextField
            label="最短お届け日数"
            type="number"
            suffix="日後から"
            value={draft.leadDays}
            onChange={(leadDays) => change({ leadDays })}
            autoComplete="off"
            helpText="注文日（締め時刻以降は翌日）から"
          />
        </div>
        <div data-testid="delivery-horizon-days">
          <TextField
            label="指定できる期間"
            type="number"
            suffix="日先まで"
            value={draft.horizonDays}
            onChange={(horizonDays) => change({ horizonDays })}
            autoComplete="off"
          />
        </div>
        <div data-testid="delivery-cutoff">
          <TextField
            label="当日の締め時刻"
            value={draft.cutoff}
            onChange={(cutoff) => change({ cutoff })}
            autoComplete="off"
            helpText="日本時間。例: 12:00"
          />
        </div>
      </InlineStack>
      <Text as="p" variant="headingSm">
        都道府県ごとの追加日数
      </Text>
      {draft.extra.map((e, i) => (
        <InlineStack key={e.prefecture} gap="200" blockAlign="end" wrap={false}>
          <Select
            label="都道府県"
            labelHidden
            options={prefectureOptions}
            value={e.prefecture}
            onChange={(prefecture) => setExtra(i, { prefecture })}
          />
          <div data-testid={`delivery-extra-${e.prefecture}`}>
            <TextField
              label={`${PREFECTURES.find((p) => p.code === e.prefecture)?.name ?? e.prefecture}の追加日数`}
              labelHidden
              type="number"
              suffix="日"
              value={e.days}
              onChange={(days) => setExtra(i, { days })}
              autoComplete="off"
            />
          </div>
          <Button
            variant="plain"
            tone="critical"
            onClick={() => change({ extra: draft.extra.filter((_, j) => j !== i) })}
          >
            削除
          </Button>
        </InlineStack>
      ))}
      {unused ? (
        <InlineStack>
          <Button onClick={() => change({ extra: [...draft.extra, { prefecture: unused.code, days: '1' }] })}>
            都道府県を追加
          </Button>
        </InlineStack>
      ) : null}
    </BlockStack>
  )
}
