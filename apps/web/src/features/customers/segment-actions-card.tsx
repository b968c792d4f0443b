import { BlockStack, Button, Card, InlineStack, ProgressBar, Text, TextField } from '@shopify/polaris'
import type { ExportEncoding, SegmentExportJob, TagJob } from '@teiki/contract'
import { exportJobText, tagJobPercent, tagJobText } from '@teiki/domain'
import { useState } from 'react'
import { EmailField } from '../../app/email-field.tsx'
import { EncodingSelect } from '../../app/encoding-select.tsx'
import { useUiState } from '../../app/ui-state.tsx'
import { useAction } from '../../app/use-action.ts'
import { customersApi } from './customers-api.ts'

/**
 * A tag for every customer of the segment and the list mailed as CSV, both jobs on the server:
 * the card shows the latest of each as the page reads it again (every second while one runs).
 */
export function SegmentActionsCard({
  segmentId,
  tagJob,
  exportJob,
  onStarted,
}: {
  segmentId: string
  tagJob: TagJob | null
  exportJob: SegmentExportJob | null
  onStarted: () => void
}) {
  const ui = useUiState()
  const [tag, setTag] = useState('')
  const [email, setEmail] = useState('')
  const [encoding, setEncoding] = useState<ExportEncoding>('utf-8')
  const { running: busy, run } = useAction<'tag' | 'mail'>()

  const addTag = () =>
    run('tag', async () => {
      await customersApi.tagSegment(segmentId, tag.trim())
      ui.showToast(`タグ「${tag.trim()}」の一括追加を開始しました`)
      setTag('')
      onStarted()
    })
  const mail = () =>
    run('mail', async () => {
      const { exportJob: accepted } = await customersApi.exportByMail(segmentId, email.trim(), encoding)
      ui.showToast(`CSVの作成を開始しました。完了すると ${accepted.email} にメールでお送りします`)
      onStarted()
    })
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
        {tagJob ? <TagJobProgress job={tagJob} /> : null}
        <BlockStack gap="200">
          <EmailField
            label="お客様の一覧をCSVでメール送信"
            value={email}
            onChange={setEmail}
            placeholder="you@example.jp"
          />
          <InlineStack gap="200" blockAlign="end" wrap={false}>
            <div style={{ flex: 1 }}>
              <EncodingSelect value={encoding} onChange={setEncoding} />
            </div>
            <Button onClick={() => void mail()} loading={busy === 'mail'} disabled={email.trim() === ''}>
              送信
            </Button>
          </InlineStack>
          {exportJob ? (
            <Text as="p" tone={exportJob.status === 'failed' ? 'critical' : 'subdued'}>
              {exportJobText(exportJob)}
            </Text>
          ) : null}
        </BlockStack>
      </BlockStack>
    </Card>
  )
}

/** The batch's state in one sentence, its progress, and the customers the platform refused. */
function TagJobProgress({ job }: { job: TagJob }) {
  return (
    <BlockStack gap="100">
      <Text as="p" tone={job.status === 'failed' ? 'critical' : 'subdued'}>
        {tagJobText(job)}
      </Text>
      <ProgressBar
        progress={tagJobPercent(job)}
        size="small"
        tone={job.status === 'failed' ? 'critical' : 'primary'}
      />
      {job.failures.length > 0 ? (
        <BlockStack gap="050">
          <Text as="p" variant="bodySm" tone="critical">
            追加できなかった顧客{job.failed > job.failures.length ? `（最初の${job.failures.length}件）` : ''}
            :
          </Text>
          {job.failures.map((f) => (
            <Text key={f.customerId} as="p" variant="bodySm" tone="subdued">
              {f.name || `顧客ID ${f.customerId}`}: {f.reason}
            </Text>
          ))}
        </BlockStack>
      ) : null}
    </BlockStack>
  )
}
