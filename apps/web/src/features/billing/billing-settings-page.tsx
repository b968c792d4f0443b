import { Badge, Button, Form, FormLayout, Layout, Page, Select, TextField } from '@shopify/polaris'
import { useCallback, useEffect, useMemo, useState } from 'react'
import { LeaveGuard } from '../../app/leave-guard.tsx'
import { LoadErrorState, SkeletonCard } from '../../app/load-state.tsx'
import { SectionCard } from '../../app/section-card.tsx'
import { useUiState } from '../../app/ui-state.tsx'
import { useReducerState } from '../../app/use-reducer-state.ts'
import { httpBillingApi } from './billing-api.ts'
import { createSettingsActions } from './settings-actions.ts'
import {
  FINAL_ACTION_OPTIONS,
  HOUR_OPTIONS,
  initialSettingsState,
  isDirty,
  type SettingsAction,
  type SettingsField,
  type SettingsState,
  settingsReducer,
} from './settings-state.ts'

export const DUNNING_EXPLANATION =
  '決済に失敗した場合、設定した間隔で再試行し、最後まで失敗したときに最終処理を行います。'

/** 請求・再試行の設定: billing hour, payment and out-of-stock retries, delivery preparation. */
export default function BillingSettingsPage() {
  const ui = useUiState()
  const [state, dispatch, getState] = useReducerState(settingsReducer, initialSettingsState)
  const [attempt, setAttempt] = useState(0)
  const retry = useCallback(() => setAttempt((n) => n + 1), [])

  const actions = useMemo(
    () => createSettingsActions({ api: httpBillingApi, ui, dispatch, getState }),
    [ui, getState, dispatch],
  )

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` re-runs the load.
  useEffect(() => actions.load(), [actions, attempt])

  const dirty = isDirty(state)
  return (
    <>
      {/* Polaris' ContextualSaveBar is built to replace a TopBar, which this frame has not: it
          covered the page's title and actions and the menu's first item. The header's 保存 and
          変更を破棄 with the 未保存 badge say the same, and the guard warns before leaving. */}
      <LeaveGuard when={dirty} />
      <BillingSettingsView
        state={state}
        dispatch={dispatch}
        onSave={() => void actions.save()}
        onRetry={retry}
      />
    </>
  )
}

type ViewProps = {
  state: SettingsState
  dispatch: (action: SettingsAction) => void
  onSave: () => void
  onRetry: () => void
}

export function BillingSettingsView({ state, dispatch, onSave, onRetry }: ViewProps) {
  const dirty = isDirty(state)
  const ready = state.load.status === 'ready'
  return (
    <Page
      title="請求・再試行の設定"
      titleMetadata={
        dirty ? (
          <span data-testid="billing-settings-unsaved">
            <Badge tone="attention">未保存の変更があります</Badge>
          </span>
        ) : undefined
      }
      primaryAction={
        <div data-testid="billing-settings-save">
          <Button
            variant="primary"
            onClick={onSave}
            disabled={!ready || !dirty || state.saving}
            loading={state.saving}
          >
            保存
          </Button>
        </div>
      }
      secondaryActions={[
        {
          content: '変更を破棄',
          onAction: () => dispatch({ type: 'discarded' }),
          disabled: !ready || !dirty || state.saving,
        },
      ]}
    >
      {state.load.status === 'loading' ? (
        <SettingsSkeleton />
      ) : state.load.status === 'error' ? (
        <LoadErrorState
          title="請求の設定を読み込めませんでした"
          message={state.load.message}
          onRetry={onRetry}
        />
      ) : (
        <Form onSubmit={onSave}>
          <SettingsForm state={state} dispatch={dispatch} />
        </Form>
      )}
    </Page>
  )
}

function SettingsForm({ state, dispatch }: Pick<ViewProps, 'state' | 'dispatch'>) {
  const bind = (field: SettingsField) => ({
    value: state.draft[field],
    onChange: (value: string) => dispatch({ type: 'fieldChanged', field, value }),
    error: state.errors[field],
  })
  const number = (field: SettingsField, min: number, max: number) => ({
    ...bind(field),
    type: 'number' as const,
    inputMode: 'numeric' as const,
    min,
    max,
    step: 1,
    autoComplete: 'off',
  })

  return (
    <Layout>
      <Layout.Section>
        <SectionCard
          title="請求"
          description="毎日の請求処理をいつ、どこまでさかのぼって行うかを設定します。"
        >
          <FormLayout>
            <FormLayout.Group>
              <div data-testid="billing-hour-select">
                <Select
                  label="請求時刻"
                  options={HOUR_OPTIONS}
                  {...bind('billingHour')}
                  helpText="毎日この時刻に、請求日を迎えた契約の請求を行います。"
                />
              </div>
              <div data-testid="lookback-days-input">
                <TextField
                  label="さかのぼる日数"
                  {...number('lookbackDays', 0, 14)}
                  suffix="日"
                  helpText="この日数前までに請求日を迎え、まだ請求していない契約もまとめて請求します（0〜14日）。"
                />
              </div>
            </FormLayout.Group>
          </FormLayout>
        </SectionCard>
      </Layout.Section>
      <Layout.Section>
        <SectionCard title="決済失敗時の再試行" description={DUNNING_EXPLANATION}>
          <FormLayout>
            <FormLayout.Group>
              <div data-testid="retry-attempts-input">
                <TextField
                  label="再試行回数"
                  {...number('retryAttempts', 0, 10)}
                  suffix="回"
                  helpText="0〜10回。0回にすると、最初の失敗で最終処理を行います。"
                />
              </div>
              <div data-testid="retry-interval-input">
                <TextField
                  label="再試行の間隔（日）"
                  {...number('retryIntervalDays', 1, 14)}
                  helpText="1〜14日"
                />
              </div>
            </FormLayout.Group>
            <div data-testid="final-action-select">
              <Select
                label="最終処理"
                options={FINAL_ACTION_OPTIONS}
                {...bind('finalAction')}
                helpText="すべての再試行に失敗したときの契約の扱いです。"
              />
            </div>
          </FormLayout>
        </SectionCard>
      </Layout.Section>
      <Layout.Section>
        <SectionCard
          title="在庫切れ時の再試行"
          description="在庫切れで注文を作成できなかった場合は、決済失敗とは別にこの設定で再試行します。"
        >
          <FormLayout>
            <FormLayout.Group>
              <div data-testid="inventory-retry-attempts-input">
                <TextField
                  label="再試行回数"
                  {...number('inventoryRetryAttempts', 0, 10)}
                  suffix="回"
                  helpText="0〜10回"
                />
              </div>
              <div data-testid="inventory-retry-interval-input">
                <TextField
                  label="再試行の間隔（日）"
                  {...number('inventoryRetryIntervalDays', 1, 14)}
                  helpText="1〜14日"
                />
              </div>
            </FormLayout.Group>
            <div data-testid="inventory-final-action-select">
              <Select
                label="最終処理"
                options={FINAL_ACTION_OPTIONS}
                {...bind('inventoryFinalAction')}
                helpText="在庫切れのまま再試行を終えたときの契約の扱いです。"
              />
            </div>
          </FormLayout>
        </SectionCard>
      </Layout.Section>
      <Layout.Section>
        <SectionCard title="お届け">
          <div data-testid="delivery-prep-days-input">
            <TextField
              label="お届け準備期間（日）"
              {...number('deliveryPrepDays', 0, 30)}
              helpText="次回お届け日は、請求日にこの日数を足した日になります（0〜30日）。"
            />
          </div>
        </SectionCard>
      </Layout.Section>
    </Layout>
  )
}

function SettingsSkeleton() {
  return (
    <Layout>
      {['billing', 'dunning', 'inventory', 'delivery'].map((key) => (
        <Layout.Section key={key}>
          <SkeletonCard lines={3} />
        </Layout.Section>
      ))}
    </Layout>
  )
}
