import { BlockStack, Button, Card, InlineStack, ProgressBar, Select, Text, TextField } from '@shopify/polaris'
import type { ExportEncoding, TagJob } from '@teiki/contract'
import { formatNumber } from '@teiki/domain'
import { useState } from 'react'
import { errorMessage } from '../../app/api.ts'
import { useUiState } from '../../app/ui-state.tsx'
import { customersApi } from './customers-api.ts'

const JOB_STATUS: Record<TagJob['status'], string> = {
  queued: '待機中',
  running: '実行中',
  done: '完了',
  failed: '中断',
}

/** A tag for every customer of the segment (a batch with progress), and the list mailed as CSV. */
export function SegmentActionsCard({
  segmentId,
  tagJob,
  onStarted,
}: {
  segmentId: string
  tagJob: TagJob | null
  onStarted: () => void
}) {
  const ui = useUiState()
  const [tag, setTag] = useState('')
  const [email, setEmail] = useState('')
  const [encoding, setEncoding] = useState<ExportEncoding>('utf-8')
  const [busy, setBusy] = useState<'tag' | 'mail' | null>(null)

  const addTag = async () => {
    setBusy('tag')
    try {
      await customersApi.tagSegment(segmentId, tag.trim())
      ui.showToast(`タグ「${tag.trim()}」の一括追加を開始しました`)
      setTag('')
      onStarted()
    } catch (error) {
      ui.showToast(errorMessage(error), { error: true })
    } finally {
      setBusy(null)
    }
  }
  const mail = async () => {
    setBusy('mail')
    try {
      const done = await customersApi.exportByMail(segmentId, email.trim(), encoding)
      ui.showToast(`${formatNumber(done.rows)}件のCSVを ${done.email} に送信しました`)
    } catch (error) {
      ui.showToast(errorMessage(error), { error: true })
    } finally {
      setBusy(null)
    }
  }
  const progress = tagJob?.total
    ? Math.round(((tagJob.done + tagJob.failed) / tagJob.total) * 100)
    : tagJob?.status === 'done'
      ? 100
      : 0
  return (
    <Card>
      <BlockStack gap="400">
        <Text as="h2" variant="headingSm">
          まとめて操作
        </Text>
        <InlineStack gap="200" blockAlign="end" wrap={false}>
          <div style={{ flex: 1 }}>
            <TextField
              label="全員にタグを追加"
              value={tag}
              onChange={setTag}
              autoComplete="off"
              maxLength={255}
              placeholder="例: 春キャンペーン"
            />
          </div>
          <Button onClick={() => void addTag()} loading={busy === 'tag'} disabled={tag.trim() === ''}>
            タグを追加
          </Button>
        </InlineStack>
        {tagJob ? (
          <BlockStack gap="100">
            <Text as="p" tone="subdued">
              タグ「{tagJob.tag}」: {JOB_STATUS[tagJob.status]}（{formatNumber(tagJob.done)}
              {tagJob.total !== null ? ` / ${formatNumber(tagJob.total)}` : ''}件
              {tagJob.failed > 0 ? `、失敗${formatNumber(tagJob.failed)}件` : ''}）
            </Text>
            <ProgressBar
              progress={progress}
              size="small"
              tone={tagJob.status === 'failed' ? 'critical' : 'primary'}
            />
            {tagJob.error ? (
              <Text as="p" tone="critical">
                {tagJob.error}
              </Text>
            ) : null}
          </BlockStack>
        ) : null}
        <BlockStack gap="200">
          <TextField
            label="お客様の一覧をCSVでメール送信"
            type="email"
            value={email}
            onChange={setEmail}
            autoComplete="email"
            placeholder="you@example.jp"
          />
          <InlineStack gap="200" blockAlign="end" wrap={false}>
            <div style={{ flex: 1 }}>
              <Select
                label="文字コード"
                options={[
                  { label: 'UTF-8（BOM付き）', value: 'utf-8' },
                  { label: 'Shift_JIS（Excel向け）', value: 'shift_jis' },
                ]}
                value={encoding}
                onChange={(v) => setEncoding(v as ExportEncoding)}
              />
            </div>
            <Button onClick={() => void mail()} loading={busy === 'mail'} disabled={email.trim() === ''}>
              送信
            </Button>
          </InlineStack>
        </BlockStack>
      </BlockStack>
    </Card>
  )
}
