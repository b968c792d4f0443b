import { Banner, BlockStack, Box, Layout, Page, Text } from '@shopify/polaris'
import type { SegmentGroup, SegmentSetting, SellingPlanGroupList } from '@teiki/contract'
import { formatNumber } from '@teiki/domain'
import { useEffect, useRef, useState } from 'react'
import { useParams } from 'react-router-dom'
import { api, errorMessage } from '../../app/api.ts'
import { Loaded } from '../../app/load-state.tsx'
import { useUiState } from '../../app/ui-state.tsx'
import { type ApiState, invalidate, useApi, useLoader } from '../../app/use-api.ts'
import { useAppNavigate } from '../../app/use-app-navigate.ts'
import { customersApi } from './customers-api.ts'
import { SegmentActionsCard } from './segment-actions-card.tsx'
import { SegmentCustomersCard } from './segment-customers-card.tsx'
import { SegmentFormCard } from './segment-form.tsx'
import { EMPTY_FORM, type SegmentForm, toDraft, toForm } from './segment-form-model.ts'

type Choices = {
  setting: SegmentSetting | null
  groups: SegmentGroup[]
  plans: SellingPlanGroupList['groups']
}

/** セグメントの作成・編集: its conditions, the customers it holds, and what to do with them. */
export default function SegmentPage() {
  const { segmentId = 'new' } = useParams()
  const isNew = segmentId === 'new'
  const ui = useUiState()
  const navigate = useAppNavigate()
  const [version, setVersion] = useState(0)
  const choices = useLoader(['segment-choices'], async (): Promise<Choices> => {
    const [setting, groups, plans] = await Promise.all([
      api('GET /cdp-segment-setting', { query: {} }),
      customersApi.groups(),
      api('GET /subscriptions/sellingPlanGroups', { query: { page: 1 } }).catch(() => ({ groups: [] })),
    ])
    return { setting, groups: groups.groups, plans: plans.groups }
  })
  const state = useApi(isNew ? null : 'GET /cdp-segment-data', { query: { segmentId } })
  const reload = state.retry
  // What the page waits for before it shows the form: the segment (unless new), else the choices.
  const waiting: ApiState<unknown> = isNew ? choices : state
  const [form, setForm] = useState<SegmentForm>(EMPTY_FORM)
  const [saving, setSaving] = useState(false)
  const loaded = state.data ?? null
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is filled once per segment loaded.
  useEffect(() => {
    if (loaded) setForm(toForm(loaded.segment))
    else if (isNew) setForm(EMPTY_FORM)
  }, [loaded?.segment.id, loaded?.segment.updatedAt, isNew])

  // While a tag batch or an export runs, its progress is read again every second.
  const open = (job: { status: string } | null | undefined) =>
    job?.status === 'queued' || job?.status === 'running'
  const running = open(loaded?.tagJob) || open(loaded?.exportJob)
  useEffect(() => {
    if (!running) return
    const timer = setTimeout(reload, 1000)
    return () => clearTimeout(timer)
  })
  // A tag batch that has just ended changed the customers' tags: their list is read again.
  const tagging = open(loaded?.tagJob)
  const wasTagging = useRef(false)
  const [tagsChanged, setTagsChanged] = useState(0)
  useEffect(() => {
    if (wasTagging.current && !tagging) setTagsChanged((n) => n + 1)
    wasTagging.current = tagging
  }, [tagging])

  const save = async () => {
    setSaving(true)
    try {
      const saved = isNew
        ? await customersApi.create(toDraft(form))
        : await customersApi.update(segmentId, toDraft(form))
      ui.showToast('セグメントを保存しました')
      if (isNew) navigate(`/segments/${saved.id}`)
      else {
        setVersion((v) => v + 1)
        reload()
      }
      void invalidate('GET /cdp-segment-list')
    } catch (error) {
      ui.showToast(errorMessage(error), { error: true })
    } finally {
      setSaving(false)
    }
  }
  const remove = () =>
    ui.openModal({
      title: 'セグメントを削除しますか？',
      body: <Text as="p">「{form.name}」を削除します。お客様やタグは変わりません。</Text>,
      primaryAction: {
        content: '削除',
        destructive: true,
        onAction: () => {
          customersApi.remove(segmentId).then(
            () => {
              ui.closeModal()
              ui.showToast('セグメントを削除しました')
              void invalidate('GET /cdp-segment-list')
              navigate('/segments')
            },
            (error: unknown) => ui.showToast(errorMessage(error), { error: true }),
          )
        },
      },
      secondaryActions: [{ content: 'キャンセル', onAction: () => ui.closeModal() }],
    })

  const title = isNew ? 'セグメントを作成' : (loaded?.segment.name ?? 'セグメント')
  return (
    <Page
      title={title}
      backAction={{ content: 'セグメント', url: '/segments' }}
      subtitle={loaded ? `該当するお客様 ${formatNumber(loaded.total)}人` : undefined}
      primaryAction={{ content: '保存', loading: saving, onAction: () => void save() }}
      secondaryActions={isNew ? [] : [{ content: '削除', destructive: true, onAction: remove }]}
    >
      {(!isNew && !loaded) || (!choices.data && !choices.error) ? (
        <Loaded state={waiting} errorTitle="セグメントを読み込めませんでした" lines={8} card>
          {() => null}
        </Loaded>
      ) : (
        <Layout>
          <Layout.Section>
            <BlockStack gap="400">
              {loaded?.segment.error ? <Banner tone="critical" title={loaded.segment.error} /> : null}
              {choices.error && !choices.data ? (
                <Banner tone="warning" title="条件の選択肢を読み込めませんでした" />
              ) : null}
              <SegmentFormCard
                form={form}
                onChange={(patch) => setForm((f) => ({ ...f, ...patch }))}
                setting={choices.data?.setting ?? null}
                groups={choices.data?.groups ?? []}
                plans={choices.data?.plans ?? []}
              />
              {loaded ? (
                <SegmentCustomersCard
                  segmentId={loaded.segment.id}
                  total={loaded.total}
                  version={version + tagsChanged}
                />
              ) : (
                <Box padding="200">
                  <Text as="p" tone="subdued">
                    保存すると、該当するお客様の一覧が表示されます。
                  </Text>
                </Box>
              )}
            </BlockStack>
          </Layout.Section>
          {loaded ? (
            <Layout.Section variant="oneThird">
              <SegmentActionsCard
                segmentId={loaded.segment.id}
                tagJob={loaded.tagJob}
                exportJob={loaded.exportJob}
                onStarted={reload}
              />
            </Layout.Section>
          ) : null}
        </Layout>
      )}
    </Page>
  )
}
