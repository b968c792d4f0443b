import {
  Autocomplete,
  Badge,
  Banner,
  BlockStack,
  Card,
  FormLayout,
  InlineGrid,
  Layout,
  Page,
  Text,
  TextField,
  Thumbnail,
} from '@shopify/polaris'
import { ImageIcon } from '@shopify/polaris-icons'
import type { BoxDetail, SellingPlanGroupSummary } from '@teiki/contract'
import type { BoxField } from '@teiki/domain'
import { useCallback, useEffect, useState } from 'react'
import { useParams } from 'react-router-dom'
import { errorMessage } from '../../app/api.ts'
import { LeaveGuard } from '../../app/leave-guard.tsx'
import { LoadErrorState, LoadingState } from '../../app/load-state.tsx'
import { SectionCard } from '../../app/section-card.tsx'
import { useUiState } from '../../app/ui-state.tsx'
import { useAppNavigate } from '../../app/use-app-navigate.ts'
import { type BoxDraft, boxDraftOf, changedFields, savedMessage, saveFields } from './box-draft.ts'
import { httpBoxesApi } from './boxes-api.ts'

type Loaded = { detail: BoxDetail; draft: BoxDraft; errors: Partial<Record<BoxField, string>> }

type GroupChoice = Pick<SellingPlanGroupSummary, 'id' | 'name' | 'productsCount'>
type EditorLoad =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | ({ status: 'ready' } & Loaded)

/** The box editor's state and flows: load, field-by-field save, delete (then back to the list). */
function useBoxEditor(boxId: string) {
  const ui = useUiState()
  const navigate = useAppNavigate()
  const [state, setState] = useState<EditorLoad>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const [saving, setSaving] = useState(false)
  const [group, setGroup] = useState<GroupChoice | null>(null)
  const [leaving, setLeaving] = useState(false)

  const load = useCallback(async () => {
    const detail = await httpBoxesApi.detail(boxId)
    setGroup(detail.box.sellingPlanGroup)
    setState({ status: 'ready', detail, draft: boxDraftOf(detail.box), errors: {} })
  }, [boxId])
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` re-runs the load.
  useEffect(() => {
    setState({ status: 'loading' })
    load().catch((error: unknown) => setState({ status: 'error', message: errorMessage(error) }))
  }, [load, attempt])
  useEffect(() => {
    if (leaving) navigate('/boxes', { replace: true })
  }, [leaving, navigate])

  const save = async () => {
    if (state.status !== 'ready' || saving) return
    setSaving(true)
    const result = await saveFields(httpBoxesApi, state.detail.box, state.draft, group?.productsCount ?? null)
    setSaving(false)
    if (result.saved.length > 0) ui.showToast(savedMessage(result.saved))
    if (Object.keys(result.errors).length > 0)
      ui.showToast('保存できなかった項目があります。赤字の内容をご確認ください。', { error: true })
    // What was saved is the stored box now; what failed stays in the draft with its error.
    const detail = await httpBoxesApi.detail(boxId).catch(() => ({ ...state.detail, box: result.box }))
    const kept = boxDraftOf(detail.box)
    for (const field of Object.keys(result.errors) as BoxField[]) kept[field] = state.draft[field]
    setState({ status: 'ready', detail, draft: kept, errors: result.errors })
  }

  const remove = () =>
    ui.openModal({
      title: 'ボックスを削除しますか？',
      body: 'このボックスの設定を削除します。販売プランと商品はそのまま残ります。',
      primaryAction: {
        content: '削除する',
        destructive: true,
        onAction: () => {
          ui.closeModal()
          httpBoxesApi.remove(boxId).then(
            () => {
              ui.showToast('ボックスを削除しました')
              setLeaving(true)
            },
            (error: unknown) => ui.showToast(errorMessage(error), { error: true }),
          )
        },
      },
      secondaryActions: [{ content: 'キャンセル', onAction: ui.closeModal }],
    })

  const dirty =
    state.status === 'ready' && !leaving && changedFields(state.detail.box, state.draft).length > 0
  return {
    state,
    setState,
    group,
    setGroup,
    saving,
    dirty,
    save,
    remove,
    retry: () => setAttempt((n) => n + 1),
  }
}

/** ボックスの編集 (/boxes/:id): the four settings, saved field by field, and the group's products. */
export default function BoxEditorPage() {
  const { boxId = '' } = useParams()
  const { state, setState, group, setGroup, saving, dirty, save, remove, retry } = useBoxEditor(boxId)
  const box = state.status === 'ready' ? state.detail.box : null
  const badge = box ? (
    box.complete ? (
      <Badge tone="success">設定済み</Badge>
    ) : (
      <Badge tone="attention">未完成</Badge>
    )
  ) : undefined
  return (
    <>
      <LeaveGuard when={dirty} />
      <Page
        backAction={{ content: 'ボックス', url: '/boxes' }}
        title={box?.name ?? 'ボックス'}
        titleMetadata={badge}
        primaryAction={{ content: '保存', loading: saving, disabled: !dirty, onAction: () => void save() }}
        secondaryActions={[
          { content: '削除', destructive: true, onAction: remove, disabled: state.status !== 'ready' },
        ]}
      >
        {state.status === 'loading' ? (
          <LoadingState lines={6} card />
        ) : state.status === 'error' ? (
          <LoadErrorState title="ボックスを読み込めませんでした" message={state.message} onRetry={retry} />
        ) : (
          <BoxEditorBody
            loaded={state}
            group={group}
            onDraft={(draft) => setState({ ...state, draft })}
            onGroup={(chosen) => {
              setGroup(chosen)
              setState({ ...state, draft: { ...state.draft, sellingPlanGroupId: chosen?.id ?? '' } })
            }}
          />
        )}
      </Page>
    </>
  )
}

export function BoxEditorBody({
  loaded,
  group,
  onDraft,
  onGroup,
}: {
  loaded: Loaded
  group: Pick<SellingPlanGroupSummary, 'id' | 'name' | 'productsCount'> | null
  onDraft: (draft: BoxDraft) => void
  onGroup: (group: Pick<SellingPlanGroupSummary, 'id' | 'name' | 'productsCount'> | null) => void
}) {
  const { detail, draft, errors } = loaded
  const field = (name: 'name' | 'minSelection' | 'maxSelection') => ({
    value: draft[name],
    onChange: (value: string) => onDraft({ ...draft, [name]: value }),
    error: errors[name],
    autoComplete: 'off',
  })
  const missing = Object.values(detail.box.problems)
  return (
    <Layout>
      <Layout.Section>
        <BlockStack gap="400">
          {missing.length > 0 ? (
            <Banner tone="warning" title="このボックスはまだ完成していません">
              <ul>
                {missing.map((m) => (
                  <li key={m}>{m}</li>
                ))}
              </ul>
            </Banner>
          ) : null}
          <Card>
            <FormLayout>
              <TextField label="ボックス名" {...field('name')} maxLength={255} />
              <GroupChooser group={group} error={errors.sellingPlanGroupId} onChoose={onGroup} />
              <FormLayout.Group>
                <TextField label="最小選択数" {...field('minSelection')} inputMode="numeric" suffix="品" />
                <TextField
                  label="最大選択数"
                  {...field('maxSelection')}
                  inputMode="numeric"
                  suffix="品"
                  helpText={group ? `販売プランの商品数（${group.productsCount}件）まで` : undefined}
                />
              </FormLayout.Group>
            </FormLayout>
          </Card>
        </BlockStack>
      </Layout.Section>
      <Layout.Section variant="oneThird">
        <SectionCard title="選べる商品" gap="300">
          {detail.products.length === 0 ? (
            <Text as="p" tone="subdued">
              販売プランを選んで保存すると、その商品が表示されます。
            </Text>
          ) : (
            <InlineGrid columns={1} gap="200">
              {detail.products.map((p) => (
                <InlineGrid key={p.id} columns="auto 1fr" gap="200" alignItems="center">
                  <Thumbnail source={p.imageUrl ?? ImageIcon} alt={p.title} size="small" />
                  <Text as="span">{p.title}</Text>
                </InlineGrid>
              ))}
            </InlineGrid>
          )}
        </SectionCard>
      </Layout.Section>
    </Layout>
  )
}

/** The selling plan group of the box: searched by name among the shop's groups. */
function GroupChooser({
  group,
  error,
  onChoose,
}: {
  group: Pick<SellingPlanGroupSummary, 'id' | 'name' | 'productsCount'> | null
  error: string | undefined
  onChoose: (group: Pick<SellingPlanGroupSummary, 'id' | 'name' | 'productsCount'> | null) => void
}) {
  const [text, setText] = useState(group?.name ?? '')
  const [options, setOptions] = useState<SellingPlanGroupSummary[]>([])
  const [loading, setLoading] = useState(false)
  useEffect(() => setText(group?.name ?? ''), [group])
  useEffect(() => {
    let cancelled = false
    setLoading(true)
    const timer = window.setTimeout(() => {
      httpBoxesApi.groups(text === group?.name ? '' : text).then(
        (list) => {
          if (cancelled) return
          setOptions(list.groups)
          setLoading(false)
        },
        () => !cancelled && setLoading(false),
      )
    }, 250)
    return () => {
      cancelled = true
      window.clearTimeout(timer)
    }
  }, [text, group])
  return (
    <div data-testid="box-group">
      <Autocomplete
        options={options.map((g) => ({ value: g.id, label: `${g.name}（${g.productsCount}商品）` }))}
        selected={group ? [group.id] : []}
        loading={loading}
        onSelect={(selected) => onChoose(options.find((g) => g.id === selected[0]) ?? null)}
        textField={
          <Autocomplete.TextField
            label="販売プラン"
            value={text}
            onChange={setText}
            autoComplete="off"
            placeholder="販売プラン名で検索して選ぶ"
            error={error}
          />
        }
      />
    </div>
  )
}
