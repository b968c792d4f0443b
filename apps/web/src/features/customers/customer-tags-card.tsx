import { BlockStack, Button, Card, InlineStack, Tag, Text, TextField } from '@shopify/polaris'
import { useState } from 'react'
import { errorMessage } from '../../app/api.ts'
import { useUiState } from '../../app/ui-state.tsx'
import { customersApi } from './customers-api.ts'

/** タグ: added and removed through the platform (tagsAdd / tagsRemove); the answer is shown. */
export function CustomerTagsCard({
  customerId,
  tags,
  onChanged,
}: {
  customerId: string
  tags: string[]
  onChanged: () => void
}) {
  const ui = useUiState()
  const [text, setText] = useState('')
  const [busy, setBusy] = useState(false)
  const run = async (action: () => Promise<unknown>, done: string) => {
    setBusy(true)
    try {
      await action()
      ui.showToast(done)
      onChanged()
    } catch (error) {
      ui.showToast(errorMessage(error), { error: true })
    } finally {
      setBusy(false)
    }
  }
  const added = text
    .split(/[、,]/)
    .map((t) => t.trim())
    .filter((t) => t !== '')
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingSm">
          タグ
        </Text>
        {tags.length === 0 ? (
          <Text as="p" tone="subdued">
            タグはありません
          </Text>
        ) : (
          <InlineStack gap="100">
            {tags.map((t) => (
              <Tag
                key={t}
                disabled={busy}
                onRemove={() =>
                  void run(() => customersApi.removeTags(customerId, [t]), `タグ「${t}」を削除しました`)
                }
              >
                {t}
              </Tag>
            ))}
          </InlineStack>
        )}
        <InlineStack gap="200" blockAlign="end" wrap={false}>
          <div style={{ flex: 1 }}>
            <TextField
              label="タグを追加"
              labelHidden
              value={text}
              onChange={setText}
              autoComplete="off"
              placeholder="例: VIP（複数は読点で区切る）"
              maxLength={255}
            />
          </div>
          <Button
            loading={busy}
            disabled={added.length === 0}
            onClick={() =>
              void run(
                async () => {
                  await customersApi.addTags(customerId, added)
                  setText('')
                },
                `タグ「${added.join('、')}」を追加しました`,
              )
            }
          >
            追加
          </Button>
        </InlineStack>
      </BlockStack>
    </Card>
  )
}
