import {
  Badge,
  BlockStack,
  Box,
  Card,
  EmptyState,
  IndexTable,
  Link,
  Page,
  SkeletonBodyText,
  Text,
} from '@shopify/polaris'
import type { BoxList, Box as BoxRow } from '@teiki/contract'
import { formatDateJa, formatNumber } from '@teiki/domain'
import { useCallback, useEffect, useState } from 'react'
import { errorMessage } from '../../app/api.ts'
import { EMPTY_STATE_IMAGE } from '../../app/empty-state-image.ts'
import { LoadErrorBanner } from '../../app/load-error-banner.tsx'
import { useUiState } from '../../app/ui-state.tsx'
import { useAppNavigate } from '../../app/use-app-navigate.ts'
import { httpBoxesApi } from './boxes-api.ts'

type ListState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; data: BoxList }

/** ボックス: the shop's boxes (a selection of a selling plan group's products). */
export default function BoxListPage() {
  const ui = useUiState()
  const navigate = useAppNavigate()
  const [state, setState] = useState<ListState>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const [creating, setCreating] = useState(false)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` re-runs the load.
  useEffect(() => {
    let cancelled = false
    setState({ status: 'loading' })
    httpBoxesApi.list(1).then(
      (data) => !cancelled && setState({ status: 'ready', data }),
      (error: unknown) => !cancelled && setState({ status: 'error', message: errorMessage(error) }),
    )
    return () => {
      cancelled = true
    }
  }, [attempt])

  // A box is created with the defaults at once, then filled in field by field (spec §4).
  const create = useCallback(async () => {
    setCreating(true)
    try {
      const box = await httpBoxesApi.create()
      navigate(`/boxes/${box.id}`)
    } catch (error) {
      ui.showToast(errorMessage(error), { error: true })
      setCreating(false)
    }
  }, [navigate, ui])

  return (
    <Page
      title="ボックス"
      subtitle="販売プランの商品から、お客様が選んで詰め合わせる定期便です。"
      primaryAction={{ content: 'ボックスを作成', loading: creating, onAction: () => void create() }}
    >
      <Card padding="0">
        <BoxListBody state={state} onRetry={() => setAttempt((n) => n + 1)} onCreate={() => void create()} />
      </Card>
    </Page>
  )
}

export function BoxListBody({
  state,
  onRetry,
  onCreate,
}: {
  state: ListState
  onRetry: () => void
  onCreate: () => void
}) {
  if (state.status === 'loading')
    return (
      <Box padding="400">
        <SkeletonBodyText lines={6} />
      </Box>
    )
  if (state.status === 'error')
    return (
      <Box padding="400">
        <LoadErrorBanner title="ボックスを読み込めませんでした" message={state.message} onRetry={onRetry} />
      </Box>
    )
  if (state.data.boxes.length === 0)
    return (
      <EmptyState
        heading="ボックスがまだありません"
        image={EMPTY_STATE_IMAGE}
        action={{ content: 'ボックスを作成', onAction: onCreate }}
      >
        <p>販売プランの商品から、お客様が好きな組み合わせを選べる定期便を作れます。</p>
      </EmptyState>
    )
  return (
    <IndexTable
      resourceName={{ singular: 'ボックス', plural: 'ボックス' }}
      itemCount={state.data.boxes.length}
      headings={[
        { title: 'ボックス' },
        { title: '販売プラン' },
        { title: '選べる数' },
        { title: '状態' },
        { title: '更新日' },
      ]}
      selectable={false}
    >
      {state.data.boxes.map((box, index) => (
        <BoxItem key={box.id} box={box} position={index} />
      ))}
    </IndexTable>
  )
}

/** 「3〜5品」, or what is still missing. */
export function selectionRange(box: Pick<BoxRow, 'minSelection' | 'maxSelection'>): string {
  if (box.minSelection === null || box.maxSelection === null) return '未設定'
  if (box.minSelection === box.maxSelection) return `${formatNumber(box.minSelection)}品`
  return `${formatNumber(box.minSelection)}〜${formatNumber(box.maxSelection)}品`
}

function BoxItem({ box, position }: { box: BoxRow; position: number }) {
  return (
    <IndexTable.Row id={`box-${box.id}`} position={position}>
      <IndexTable.Cell>
        <Link url={`/boxes/${box.id}`} removeUnderline monochrome>
          <Text as="span" fontWeight="semibold">
            {box.name ?? '（名前未設定）'}
          </Text>
        </Link>
      </IndexTable.Cell>
      <IndexTable.Cell>{box.sellingPlanGroup?.name ?? '未設定'}</IndexTable.Cell>
      <IndexTable.Cell>{selectionRange(box)}</IndexTable.Cell>
      <IndexTable.Cell>
        <BlockStack gap="050">
          {box.complete ? <Badge tone="success">設定済み</Badge> : <Badge tone="attention">未完成</Badge>}
        </BlockStack>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Text as="span" tone="subdued">
          {formatDateJa(box.updatedAt)}
        </Text>
      </IndexTable.Cell>
    </IndexTable.Row>
  )
}
