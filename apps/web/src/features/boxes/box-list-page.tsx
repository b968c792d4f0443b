import { Badge, BlockStack, Card, IndexTable, Page } from '@shopify/polaris'
import type { BoxList, Box as BoxRow } from '@teiki/contract'
import { formatNumber } from '@teiki/domain'
import { useCallback, useState } from 'react'
import { errorMessage } from '../../app/api.ts'
import { DateCell } from '../../app/date-cell.tsx'
import { EmptyListState, Loaded } from '../../app/load-state.tsx'
import { RowLink } from '../../app/row-link.tsx'
import { useUiState } from '../../app/ui-state.tsx'
import { type ApiState, invalidate, useApi } from '../../app/use-api.ts'
import { useAppNavigate } from '../../app/use-app-navigate.ts'
import { httpBoxesApi } from './boxes-api.ts'

/** ボックス: the shop's boxes (a selection of a selling plan group's products). */
export default function BoxListPage() {
  const ui = useUiState()
  const navigate = useAppNavigate()
  const state = useApi('GET /boxes', { query: { page: 1 } })
  const [creating, setCreating] = useState(false)

  // A box is created with the defaults at once, then filled in field by field (spec §4).
  const create = useCallback(async () => {
    setCreating(true)
    try {
      const box = await httpBoxesApi.create()
      void invalidate('GET /boxes')
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
        <BoxListBody state={state} onCreate={() => void create()} />
      </Card>
    </Page>
  )
}

export function BoxListBody({ state, onCreate }: { state: ApiState<BoxList>; onCreate: () => void }) {
  return (
    <Loaded state={state} errorTitle="ボックスを読み込めませんでした">
      {({ boxes }) => <BoxRows boxes={boxes} onCreate={onCreate} />}
    </Loaded>
  )
}

function BoxRows({ boxes, onCreate }: { boxes: BoxRow[]; onCreate: () => void }) {
  if (boxes.length === 0)
    return (
      <EmptyListState
        heading="ボックスがまだありません"
        action={{ content: 'ボックスを作成', onAction: onCreate }}
      >
        <p>販売プランの商品から、お客様が好きな組み合わせを選べる定期便を作れます。</p>
      </EmptyListState>
    )
  return (
    <IndexTable
      resourceName={{ singular: 'ボックス', plural: 'ボックス' }}
      itemCount={boxes.length}
      headings={[
        { title: 'ボックス' },
        { title: '販売プラン' },
        { title: '選べる数' },
        { title: '状態' },
        { title: '更新日' },
      ]}
      selectable={false}
    >
      {boxes.map((box, index) => (
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
        <RowLink url={`/boxes/${box.id}`}>{box.name ?? '（名前未設定）'}</RowLink>
      </IndexTable.Cell>
      <IndexTable.Cell>{box.sellingPlanGroup?.name ?? '未設定'}</IndexTable.Cell>
      <IndexTable.Cell>{selectionRange(box)}</IndexTable.Cell>
      <IndexTable.Cell>
        <BlockStack gap="050">
          {box.complete ? <Badge tone="success">設定済み</Badge> : <Badge tone="attention">未完成</Badge>}
        </BlockStack>
      </IndexTable.Cell>
      <DateCell at={box.updatedAt} />
    </IndexTable.Row>
  )
}
