import {
  Banner,
  BlockStack,
  Box,
  Button,
  DataTable,
  Form,
  InlineStack,
  Layout,
  Page,
  SkeletonBodyText,
  Text,
  TextField,
} from '@shopify/polaris'
import { CANCELLATION_REASON_MAX, type CancellationReason } from '@teiki/contract'
import { formatNumber } from '@teiki/domain'
import { useMemo } from 'react'
import { LeaveGuard } from '../../app/leave-guard.tsx'
import { LoadErrorState } from '../../app/load-state.tsx'
import { SectionCard } from '../../app/section-card.tsx'
import { useUiState } from '../../app/ui-state.tsx'
import { phase, useLoader, useLoadInto } from '../../app/use-api.ts'
import { useReducerState } from '../../app/use-reducer-state.ts'
import { createReasonsActions, httpReasonsApi } from './reasons-actions.ts'
import {
  type GroupedState,
  groupShareLabel,
  hasUnsavedText,
  initialReasonsState,
  type ReasonsAction,
  type ReasonsState,
  reasonsReducer,
} from './reasons-state.ts'
import { RetentionOffersCard } from './retention-offers-card.tsx'

/** 解約理由: the shop's list of cancellation reasons, how often each was chosen, and each one's 解約防止オファー. */
export default function CancellationReasonsPage() {
  const ui = useUiState()
  const [state, dispatch, getState] = useReducerState(reasonsReducer, initialReasonsState)
  // Keyed under the reasons' route: each edit's invalidation refetches the list too.
  const reload = useLoadInto(['GET /cancellation-reasons', 'list'], () => httpReasonsApi.list(), {
    loading: () => dispatch({ type: 'loading' }),
    loaded: (reasons) => dispatch({ type: 'loaded', reasons }),
    failed: (message) => dispatch({ type: 'loadFailed', message }),
  })
  const groupedAnswer = useLoader(['GET /subscription-contracts/cancellation-reasons-grouped-by'], () =>
    httpReasonsApi.groupedBy(),
  )
  const reloadGrouped = groupedAnswer.retry
  const groupedPhase = phase(groupedAnswer)
  const grouped: GroupedState =
    groupedPhase.status === 'done' ? { status: 'ready', data: groupedPhase.data } : groupedPhase

  const actions = useMemo(
    () =>
      createReasonsActions({
        api: httpReasonsApi,
        ui,
        dispatch,
        getState,
        reload,
        onChanged: reloadGrouped,
      }),
    [ui, reload, reloadGrouped, getState, dispatch],
  )

  return (
    <Page title="解約理由">
      <LeaveGuard when={hasUnsavedText(state)} />
      <Layout>
        <Layout.Section>
          <ReasonsCard
            state={state}
            dispatch={dispatch}
            onAdd={() => void actions.add()}
            onSave={() => void actions.save()}
            onDelete={actions.confirmDelete}
            onRetry={reload}
          />
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <GroupedCountsCard state={grouped} onRetry={reloadGrouped} />
        </Layout.Section>
        <Layout.Section>
          <RetentionOffersCard />
        </Layout.Section>
      </Layout>
    </Page>
  )
}

export function ReasonsCard({
  state,
  dispatch,
  onAdd,
  onSave,
  onDelete,
  onRetry,
}: {
  state: ReasonsState
  dispatch: (action: ReasonsAction) => void
  onAdd: () => void
  onSave: () => void
  onDelete: (reason: CancellationReason) => void
  onRetry: () => void
}) {
  const busy = state.busy !== null
  return (
    <SectionCard
      title="解約理由の一覧"
      description="契約を解約するときに選べる理由です。削除しても、記録済みの解約の理由はそのまま残ります。"
    >
      <div data-testid="cancellation-reason-add">
        <Form onSubmit={onAdd}>
          <TextField
            label="新しい解約理由"
            value={state.draft}
            onChange={(text) => dispatch({ type: 'draftChanged', text })}
            error={state.addError ?? undefined}
            maxLength={CANCELLATION_REASON_MAX}
            showCharacterCount
            autoComplete="off"
            placeholder="例：価格が高い"
            disabled={state.load.status !== 'ready'}
            connectedRight={
              <Button
                submit
                variant="primary"
                disabled={busy || state.load.status !== 'ready'}
                loading={state.busy?.kind === 'add'}
              >
                追加
              </Button>
            }
          />
        </Form>
      </div>
      {state.load.status === 'loading' ? (
        <SkeletonBodyText lines={3} />
      ) : state.load.status === 'error' ? (
        <LoadErrorState
          title="解約理由を読み込めませんでした"
          message={state.load.message}
          onRetry={onRetry}
        />
      ) : state.reasons.length === 0 ? (
        <Text as="p" tone="subdued">
          解約理由はまだ登録されていません。
        </Text>
      ) : (
        <div data-testid="cancellation-reason-list">
          <BlockStack gap="200">
            {state.reasons.map((reason) => (
              <ReasonRow
                key={reason.id}
                reason={reason}
                state={state}
                dispatch={dispatch}
                onSave={onSave}
                onDelete={onDelete}
              />
            ))}
          </BlockStack>
        </div>
      )}
    </SectionCard>
  )
}

function ReasonRow({
  reason,
  state,
  dispatch,
  onSave,
  onDelete,
}: {
  reason: CancellationReason
  state: ReasonsState
  dispatch: (action: ReasonsAction) => void
  onSave: () => void
  onDelete: (reason: CancellationReason) => void
}) {
  const busy = state.busy !== null
  const editing = state.editing?.id === reason.id ? state.editing : null
  if (editing) {
    return (
      <Box borderColor="border" borderWidth="025" borderRadius="200" padding="300">
        <Form onSubmit={onSave}>
          <BlockStack gap="200">
            <TextField
              label="解約理由"
              labelHidden
              value={editing.text}
              onChange={(text) => dispatch({ type: 'editChanged', text })}
              error={editing.error ?? undefined}
              maxLength={CANCELLATION_REASON_MAX}
              autoComplete="off"
              autoFocus
            />
            <InlineStack gap="200" align="end">
              <Button onClick={() => dispatch({ type: 'editCancelled' })} disabled={busy}>
                キャンセル
              </Button>
              <Button submit variant="primary" disabled={busy} loading={state.busy?.kind === 'save'}>
                保存
              </Button>
            </InlineStack>
          </BlockStack>
        </Form>
      </Box>
    )
  }
  return (
    <Box borderColor="border" borderWidth="025" borderRadius="200" padding="300">
      <InlineStack gap="200" align="space-between" blockAlign="center" wrap={false}>
        <Text as="span" breakWord>
          {reason.reason}
        </Text>
        <InlineStack gap="200" wrap={false}>
          <Button
            onClick={() => dispatch({ type: 'editStarted', id: reason.id })}
            disabled={busy || state.editing !== null}
            accessibilityLabel={`「${reason.reason}」を編集`}
          >
            編集
          </Button>
          <Button
            tone="critical"
            onClick={() => onDelete(reason)}
            disabled={busy}
            loading={state.busy?.kind === 'delete' && state.busy.id === reason.id}
            accessibilityLabel={`「${reason.reason}」を削除`}
          >
            削除
          </Button>
        </InlineStack>
      </InlineStack>
    </Box>
  )
}

export function GroupedCountsCard({ state, onRetry }: { state: GroupedState; onRetry: () => void }) {
  return (
    <SectionCard title="理由ごとの解約数" gap="300">
      {state.status === 'loading' ? (
        <SkeletonBodyText lines={3} />
      ) : state.status === 'error' ? (
        <Banner tone="critical" action={{ content: '再試行', onAction: onRetry }}>
          <p>{state.message}</p>
        </Banner>
      ) : state.data.groups.length === 0 ? (
        <Text as="p" tone="subdued">
          理由が記録された解約はまだありません。
        </Text>
      ) : (
        <div data-testid="cancellation-reason-counts">
          <DataTable
            columnContentTypes={['text', 'numeric', 'numeric']}
            headings={['解約理由', '件数', '割合']}
            rows={state.data.groups.map((group) => [
              group.reasonId === null ? `${group.reason}（自由記述）` : group.reason,
              `${formatNumber(group.count)}件`,
              groupShareLabel(group.count, state.data.total),
            ])}
            totals={['', `${formatNumber(state.data.total)}件`, '']}
            showTotalsInFooter
            totalsName={{ singular: '合計', plural: '合計' }}
          />
        </div>
      )}
    </SectionCard>
  )
}
