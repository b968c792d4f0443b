import { BlockStack, Button, Card, DataTable, InlineStack, Select, Text, TextField } from '@shopify/polaris'
import type { MyPageTargetVariantList } from '@teiki/contract'
import { useEffect, useState } from 'react'
import { apiDelete, apiGet, apiPost, errorMessage } from '../../app/api.ts'
import { useUiState } from '../../app/ui-state.tsx'

/** The variants customers may switch to on their my page; group 2 only on shops with two customer groups. */
export function MyPageVariantsCard() {
  const ui = useUiState()
  const [list, setList] = useState<MyPageTargetVariantList | null>(null)
  const [variantId, setVariantId] = useState('')
  const [group, setGroup] = useState('1')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    apiGet<MyPageTargetVariantList>('/my-page-target-product-variants').then(setList, (cause: unknown) =>
      setError(errorMessage(cause)),
    )
  }, [])

  async function add() {
    setBusy(true)
    setError(null)
    try {
      setList(
        await apiPost<MyPageTargetVariantList>('/my-page-target-product-variants', {
          variantIds: [variantId.trim()],
          group: Number(group),
        }),
      )
      setVariantId('')
      ui.showToast('バリエーションを追加しました')
    } catch (cause) {
      setError(errorMessage(cause))
    } finally {
      setBusy(false)
    }
  }

  async function remove(id: string, g: number) {
    try {
      setList(
        await apiDelete<MyPageTargetVariantList>('/my-page-target-product-variants', {
          variantId: id,
          group: g,
        }),
      )
      ui.showToast('バリエーションを外しました')
    } catch (cause) {
      ui.showToast(errorMessage(cause), { error: true })
    }
  }

  const rows = (list?.variants ?? []).map((v) => [
    v.productTitle
      ? `${v.productTitle}${v.variantTitle ? `（${v.variantTitle}）` : ''}`
      : `バリエーション ${v.variantId}`,
    v.sku ?? '—',
    `グループ${v.group}`,
    <Button
      key={`${v.group}-${v.variantId}`}
      variant="plain"
      tone="critical"
      onClick={() => void remove(v.variantId, v.group)}
    >
      外す
    </Button>,
  ])
  return (
    <Card>
      <BlockStack gap="300">
        {rows.length > 0 ? (
          <DataTable
            columnContentTypes={['text', 'text', 'text', 'text']}
            headings={['商品', 'SKU', '顧客グループ', '']}
            rows={rows}
          />
        ) : (
          <Text as="p" tone="subdued">
            まだ登録されていません。
          </Text>
        )}
        <InlineStack gap="200" blockAlign="end" wrap={false}>
          <TextField
            label="バリエーションID"
            value={variantId}
            onChange={setVariantId}
            autoComplete="off"
            error={error ?? undefined}
          />
          {list?.twoCustomerGroups ? (
            <Select
              label="顧客グループ"
              options={[
                { value: '1', label: 'グループ1' },
                { value: '2', label: 'グループ2' },
              ]}
              value={group}
              onChange={setGroup}
            />
          ) : null}
          <Button onClick={() => void add()} loading={busy} disabled={variantId.trim() === ''}>
            追加
          </Button>
        </InlineStack>
      </BlockStack>
    </Card>
  )
}
