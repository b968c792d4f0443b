import {
  Banner,
  BlockStack,
  Button,
  ButtonGroup,
  Card,
  Checkbox,
  FormLayout,
  InlineStack,
  Select,
  Text,
  TextField,
} from '@shopify/polaris'
import { CARRIER_KEYS, CARRIERS, type CarrierKey, DELIVERY_TIME_LABELS } from '@teiki/domain'
import { useEffect } from 'react'
import { Loaded } from '../../app/load-state.tsx'
import { DeliveryDaysFields } from './delivery-days-fields.tsx'
import type { DeliveryDraft } from './delivery-form.ts'
import { useDeliveryForm } from './use-delivery-form.ts'

const carrierOptions = CARRIER_KEYS.map((key) => ({ label: CARRIERS[key].name, value: key }))

/**
 * 設定 › 配送設定: the carrier (its slots are the ones 契約詳細 and the product page offer, and
 * its codes go on every renewal's order), the days the storefront's お届け希望日 calendar reads
 * (delivery-days-fields.tsx), and the days without delivery (a renewal's お届け予定日 moves past
 * them; the calendar leaves them out). Saving publishes them to the store (teiki.delivery).
 */
export function DeliverySettingsCard({ onDirtyChange }: { onDirtyChange: (dirty: boolean) => void }) {
  const form = useDeliveryForm()
  // The page's one leave guard holds unsaved changes back (the router honours a single blocker).
  useEffect(() => onDirtyChange(form.dirty), [form.dirty, onDirtyChange])
  return (
    <Loaded state={form.load} errorTitle="配送設定を読み込めませんでした" lines={8}>
      {() =>
        form.draft ? (
          <Card>
            <BlockStack gap="400">
              {form.problem ? (
                <Banner tone="critical">
                  <p data-testid="delivery-settings-problem">{form.problem}</p>
                </Banner>
              ) : null}
              <DeliveryFields draft={form.draft} change={form.change} />
              <InlineStack align="end">
                <ButtonGroup>
                  <Button onClick={form.discard} disabled={!form.dirty || form.saving}>
                    変更を破棄
                  </Button>
                  <Button
                    variant="primary"
                    onClick={() => void form.save()}
                    disabled={!form.dirty || form.saving}
                    loading={form.saving}
                  >
                    配送設定を保存
                  </Button>
                </ButtonGroup>
              </InlineStack>
            </BlockStack>
          </Card>
        ) : null
      }
    </Loaded>
  )
}

function DeliveryFields({
  draft,
  change,
}: {
  draft: DeliveryDraft
  change: (p: Partial<DeliveryDraft>) => void
}) {
  const carrier = CARRIERS[draft.carrier as CarrierKey] ?? CARRIERS.yamato
  return (
    <FormLayout>
      <div data-testid="delivery-carrier">
        <Select
          label="配送業者"
          options={carrierOptions}
          value={draft.carrier}
          onChange={(value) => change({ carrier: value })}
        />
      </div>
      <Text as="p" tone="subdued">
        <span data-testid="delivery-slots">
          配送時間帯（コード）:{' '}
          {carrier.slots.map((s) => `${DELIVERY_TIME_LABELS[s.slot]}（${s.code}）`).join('、')}
        </span>
      </Text>
      <DeliveryDaysFields draft={draft} change={change} />
      <Checkbox
        label="年末年始（12月31日〜1月3日）はお届けしない"
        checked={draft.closedYearEnd}
        onChange={(closedYearEnd) => change({ closedYearEnd })}
      />
      <div data-testid="delivery-closed-dates">
        <TextField
          label="休配日（1行に1日）"
          multiline={3}
          helpText="例: 2027年5月3日"
          value={draft.closedDates}
          onChange={(closedDates) => change({ closedDates })}
          autoComplete="off"
        />
      </div>
    </FormLayout>
  )
}
