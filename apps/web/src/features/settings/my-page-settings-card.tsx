import {
  Banner,
  BlockStack,
  Button,
  ButtonGroup,
  Card,
  ChoiceList,
  FormLayout,
  InlineStack,
  TextField,
} from '@shopify/polaris'
import { MY_PAGE_ACTIONS } from '@teiki/contract'
import { MAX_LOCK_DAYS, SUBSCRIBER_ACTION_LABELS } from '@teiki/domain'
import { useEffect } from 'react'
import { Loaded } from '../../app/load-state.tsx'
import { type MyPageDraft, selectedActions, withSelectedActions } from './my-page-settings-form.ts'
import { type MyPageSettingsForm, useMyPageSettingsForm } from './use-my-page-settings-form.ts'

export const LOCK_DAYS_HELP =
  '次回のご注文日の○日前を過ぎると、お客様はマイページから変更・解約できません（0日: 前日まで）。カード情報の更新メールはいつでも送れます。'

const actionChoices = MY_PAGE_ACTIONS.map((action) => ({
  label: SUBSCRIBER_ACTION_LABELS[action],
  value: action,
}))

/**
 * 設定 › マイページ: which changes subscribers may make themselves on マイページ (one checkbox
 * each; off, the page does not offer it and the server refuses it) and the change lock.
 */
export function MyPageSettingsCard({ onDirtyChange }: { onDirtyChange: (dirty: boolean) => void }) {
  const form = useMyPageSettingsForm()
  // The page's one leave guard holds unsaved changes back (the router honours a single blocker).
  useEffect(() => onDirtyChange(form.dirty), [form.dirty, onDirtyChange])
  return <MyPageSettingsView form={form} />
}

/** The card for a form's state. */
export function MyPageSettingsView({ form }: { form: MyPageSettingsForm }) {
  return (
    <Loaded state={form.load} errorTitle="マイページの設定を読み込めませんでした" lines={6}>
      {() =>
        form.draft ? (
          <Card>
            <BlockStack gap="400">
              {form.problem ? (
                <Banner tone="critical">
                  <p data-testid="my-page-settings-problem">{form.problem}</p>
                </Banner>
              ) : null}
              <MyPageSettingsFields draft={form.draft} change={form.change} />
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
                    マイページの設定を保存
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

function MyPageSettingsFields({
  draft,
  change,
}: {
  draft: MyPageDraft
  change: (next: MyPageDraft) => void
}) {
  return (
    <FormLayout>
      <div data-testid="my-page-actions">
        <ChoiceList
          allowMultiple
          title="お客様がマイページでできること"
          choices={actionChoices}
          selected={selectedActions(draft)}
          onChange={(selected) => change(withSelectedActions(draft, selected))}
        />
      </div>
      <div data-testid="my-page-lock-days">
        <TextField
          type="number"
          label="変更受付の締切"
          min={0}
          max={MAX_LOCK_DAYS}
          suffix="日前まで"
          helpText={LOCK_DAYS_HELP}
          value={draft.lockDays}
          onChange={(lockDays) => change({ ...draft, lockDays })}
          autoComplete="off"
        />
      </div>
    </FormLayout>
  )
}
