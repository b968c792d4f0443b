import { BlockStack, Button, Card, DataTable, InlineStack, Select, Text, TextField } from '@shopify/polaris'
import type { MyPageTargetVariantList } from '@teiki/contract'
import { useState } from 'react'
import { api, errorMessage } from '../../app/api.ts'
import { useUiState } from '../../app/ui-state.tsx'
import { useAction } from '../../app/use-action.ts'
import { setCached, useApi } from '../../app/use-api.ts'

/** The variants customers may switch to on their my page; group 2 only on shops with two customer groups. */
export function MyPageVariantsCard() {
  const ui = useUiState()
  const loaded = useApi('GET /my-page-target-product-variants')
  const list = loaded.data ?? null
  const [variantId, setVariantId] = useState('')
  const [group, setGroup] = useState('1')
  const adding = useAction({ inline: true })
  const removing = useAction()
  const busy = adding.busy
  const error = adding.error ?? (loaded.error ? errorMessage(loaded.error) : null)
  // Each edit answers the whole new list: it becomes the cached one.
  const setList = (next: MyPageTargetVariantList) =>
    setCached('GET /my-page-target-product-variants', undefined, next)

  const add = () =>
    adding.run('run', async () => {
      const body = { variantIds: [variantId.trim()], group: group === '2' ? (2 as const) : (1 as const) }
      await setList(await api('POST /my-page-target-product-variants', { body }))
      setVariantId('')
      ui.showToast('バリエーションを追加しました')
    })

  const remove = (id: string, g: number) =>
    removing.run('run', async () => {
      const query = { variantId: id, group: g }
      await setList(await api('DELETE /my-page-target-product-variants', { query }))
      ui.showToast('バリエーションを外しました')
    })

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
