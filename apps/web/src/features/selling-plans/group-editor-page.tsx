import { Badge, BlockStack, Button, FormLayout, InlineStack, Layout, Page, TextField } from '@shopify/polaris'
import { PlusIcon } from '@shopify/polaris-icons'
import { type ReactNode, useEffect, useMemo, useState } from 'react'
import { useParams } from 'react-router-dom'
import { LeaveGuard } from '../../app/leave-guard.tsx'
import { LoadErrorState, LoadingState } from '../../app/load-state.tsx'
import { useProductPicker } from '../../app/product-picker.tsx'
import { SectionCard } from '../../app/section-card.tsx'
import { useUiState } from '../../app/ui-state.tsx'
import { useAppNavigate } from '../../app/use-app-navigate.ts'
import { useReducerState } from '../../app/use-reducer-state.ts'
import { draftProblems, isDraftDirty } from './group-draft.ts'
import { createEditorActions } from './group-editor-actions.ts'
import {
  type EditorAction,
  type EditorState,
  editorReducer,
  loadingState,
  newGroupState,
} from './group-editor-state.ts'
import { FreeShippingCard, GroupProductsCard, NewGroupProductsCard } from './group-products-card.tsx'
import { PlanCard } from './plan-card.tsx'
import { httpPlansApi } from './plans-api.ts'

/** 販売プランの作成・編集 (/selling-plans/new, /selling-plans/:id): one editor per group. */
export default function GroupEditorPage() {
  const { groupId: param } = useParams()
  const groupId = param && param !== 'new' ? param : null
  return <GroupEditor key={groupId ?? 'new'} groupId={groupId} />
}

/** The editor's state and flows; leaves once a save or delete has settled the draft. */
function useGroupEditor(groupId: string | null) {
  const ui = useUiState()
  const navigate = useAppNavigate()
  const [state, dispatch, getState] = useReducerState(
    editorReducer,
    groupId ? loadingState() : newGroupState(),
  )
  const [goTo, setGoTo] = useState<string | null>(null)
  const [attempt, setAttempt] = useState(0)
  const currencyCode = state.detail?.currencyCode ?? 'JPY'
  const picker = useProductPicker(currencyCode)

  const actions = useMemo(
    () =>
      createEditorActions({
        api: httpPlansApi,
        ui,
        dispatch,
        getState,
        groupId,
        goTo: setGoTo,
      }),
    [ui, groupId, getState, dispatch],
  )
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` re-runs the load.
  useEffect(() => actions.load(), [actions, attempt])

  const dirty = isDraftDirty(state.loaded, state.draft)
  // Leaves once the save or delete has settled the draft, so the leave guard lets it through.
  useEffect(() => {
    if (goTo && !dirty) {
      setGoTo(null)
      navigate(goTo, { replace: true })
    }
  }, [goTo, dirty, navigate])

  const pickProducts = async () => {
    const picked = await picker.pick({ title: '商品を選択' })
    if (!picked) return
    if (groupId) await actions.changeProducts({ add: picked })
    else dispatch({ type: 'productsPicked', productIds: picked.productIds, variantIds: picked.variantIds })
  }

  return {
    ui,
    state,
    dispatch,
    actions,
    dirty,
    picker,
    pickProducts,
    currencyCode,
    retry: () => setAttempt((n) => n + 1),
  }
}

function GroupEditor({ groupId }: { groupId: string | null }) {
  const { ui, state, dispatch, actions, dirty, picker, pickProducts, currencyCode, retry } =
    useGroupEditor(groupId)
  return (
    <>
      <LeaveGuard when={dirty} />
      {picker.element}
      <Page
        backAction={{ content: '販売プラン', url: '/selling-plans' }}
        title={groupId ? (state.detail?.name ?? '販売プラン') : '販売プランを作成'}
        titleMetadata={dirty ? <Badge tone="attention">未保存の変更があります</Badge> : undefined}
        primaryAction={
          <div data-testid="plan-group-save">
            <Button
              variant="primary"
              onClick={() => void actions.save()}
              loading={state.saving}
              disabled={state.load.status !== 'ready' || (!dirty && groupId !== null)}
            >
              {groupId ? '保存' : '作成'}
            </Button>
          </div>
        }
        secondaryActions={[
          {
            content: '変更を破棄',
            disabled: !dirty || state.saving,
            onAction: () => dispatch({ type: 'discarded' }),
          },
          ...(groupId ? [{ content: '削除', destructive: true, onAction: actions.confirmDelete }] : []),
        ]}
      >
        {state.load.status === 'loading' ? (
          <LoadingState lines={10} card />
        ) : state.load.status === 'error' ? (
          <LoadErrorState
            title="販売プランを読み込めませんでした"
            message={state.load.message}
            onRetry={retry}
          />
        ) : (
          <EditorBody
            state={state}
            dispatch={dispatch}
            currencyCode={currencyCode}
            side={
              <SidePanel
                state={state}
                groupId={groupId}
                onPick={() => void pickProducts()}
                onRemove={(productId) => void actions.changeProducts({ removeProductId: productId })}
                ui={ui}
              />
            }
          />
        )}
      </Page>
    </>
  )
}

/** A saved group's products and free shipping, or a new group's picked products. */
function SidePanel({
  state,
  groupId,
  onPick,
  onRemove,
  ui,
}: {
  state: EditorState
  groupId: string | null
  onPick: () => void
  onRemove: (productId: string) => void
  ui: ReturnType<typeof useUiState>
}) {
  if (!groupId || !state.detail)
    return (
      <NewGroupProductsCard
        picked={{ productIds: state.draft.productIds, variantIds: state.draft.variantIds }}
        onPick={onPick}
      />
    )
  return (
    <BlockStack gap="400">
      <GroupProductsCard detail={state.detail} onAdd={onPick} onRemove={onRemove} />
      <FreeShippingCard api={httpPlansApi} groupId={groupId} ui={ui} />
    </BlockStack>
  )
}

export function EditorBody({
  state,
  dispatch,
  currencyCode,
  side,
}: {
  state: EditorState
  dispatch: (action: EditorAction) => void
  currencyCode: string
  side: ReactNode
}) {
  const problems = draftProblems(state.draft)
  const shown = state.showProblems ? problems : { plans: {}, count: 0 }
  const field = (name: 'name' | 'merchantCode' | 'option' | 'description') => ({
    value: state.draft[name],
    onChange: (value: string) => dispatch({ type: 'groupChanged', field: name, value }),
    autoComplete: 'off',
  })
  return (
    <Layout>
      <Layout.Section>
        <BlockStack gap="400">
          <SectionCard title="基本情報" gap="300">
            <FormLayout>
              <TextField
                label="販売プラン名"
                {...field('name')}
                error={shown.name}
                maxLength={255}
                helpText="ストアの商品ページに表示されます（例：定期便）"
              />
              <FormLayout.Group>
                <TextField
                  label="管理コード"
                  {...field('merchantCode')}
                  placeholder={state.draft.name || '空欄は販売プラン名'}
                  helpText="管理画面でだけ使う名前"
                />
                <TextField
                  label="選択肢の名前"
                  {...field('option')}
                  helpText="ストアでプランを選ぶ欄の見出し（例：お届け頻度）"
                />
              </FormLayout.Group>
              <TextField label="説明" {...field('description')} multiline={2} />
            </FormLayout>
          </SectionCard>
          {state.draft.plans.map((plan, index) => (
            <PlanCard
              key={plan.key}
              plan={plan}
              index={index}
              problems={shown.plans[plan.key] ?? {}}
              currencyCode={currencyCode}
              canRemove={state.draft.plans.length > 1}
              dispatch={dispatch}
            />
          ))}
          <InlineStack>
            <Button
              icon={PlusIcon}
              onClick={() => dispatch({ type: 'planAdded' })}
              disabled={state.draft.plans.length >= 10}
            >
              プランを追加
            </Button>
          </InlineStack>
        </BlockStack>
      </Layout.Section>
      <Layout.Section variant="oneThird">{side}</Layout.Section>
    </Layout>
  )
}
