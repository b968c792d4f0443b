import { Badge, BlockStack, Button, Card, InlineStack, ProgressBar, Select, Text } from '@shopify/polaris'
import type { BatchItemStatus, BatchItems, BatchJob } from '@teiki/contract'
import { formatDateTimeJa, formatNumber } from '@teiki/domain'
import { useEffect, useState } from 'react'
import { errorMessage } from '../../app/api.ts'
import { useUiState } from '../../app/ui-state.tsx'
import { useAction } from '../../app/use-action.ts'
import {
  BATCH_STATUS_LABELS,
  cancelBatch,
  fetchBatch,
  fetchReport,
  isRunning,
  REPORT_PAGE,
  RESULT_LABELS,
} from './batch-api.ts'
import { BatchContractsTable } from './batch-contracts-table.tsx'

const POLL_MS = 1_000
const STATUS_TONES: Record<BatchJob['status'], 'info' | 'success' | 'warning' | 'critical' | 'attention'> = {
  queued: 'info',
  running: 'attention',
  done: 'success',
  cancelled: 'warning',
  failed: 'critical',
}
const FILTERS: Array<{ label: string; value: BatchItemStatus | '' }> = [
  { label: 'すべて', value: '' },
  ...(['changed', 'skipped', 'failed', 'pending'] as const).map((value) => ({
    label: RESULT_LABELS[value],
    value,
  })),
]

/** The batch under way or last run: its progress bar and counts while it runs, then its report. */
export function BatchProgressCard({ job, onChange }: { job: BatchJob; onChange: (job: BatchJob) => void }) {
  const { showToast } = useUiState()
  const running = isRunning(job)
  const { busy: cancelling, run } = useAction()

  useEffect(() => {
    if (!running) return
    const timer = setInterval(() => {
      fetchBatch(job.id).then(onChange, () => {})
    }, POLL_MS)
    return () => clearInterval(timer)
  }, [job.id, running, onChange])

  const cancel = () =>
    run('run', async () => {
      onChange(await cancelBatch(job.id))
      showToast('一括更新の中止を受け付けました（変更済みの契約はそのままです）')
    })

  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingMd">
            実行状況
          </Text>
          <div data-testid="batch-status">
            <Badge tone={STATUS_TONES[job.status]}>
              {job.cancelRequested && running ? '中止しています' : BATCH_STATUS_LABELS[job.status]}
            </Badge>
          </div>
        </InlineStack>
        <Text as="p">{job.summary}</Text>
        <div data-testid="batch-progress" data-percent={job.percent}>
          <ProgressBar progress={job.percent} tone={job.status === 'failed' ? 'critical' : 'primary'} />
        </div>
        <div data-testid="batch-counts">
          <Text as="p">
            {`${formatNumber(job.total)}件中 変更 ${formatNumber(job.changed)}件・スキップ ${formatNumber(job.skipped)}件・失敗 ${formatNumber(job.failed)}件・未処理 ${formatNumber(job.pending)}件（${job.percent}%）`}
          </Text>
        </div>
        <Text as="p" tone="subdued">
          {`受付 ${formatDateTimeJa(job.createdAt)}`}
          {job.executedAt ? ` ／ 開始 ${formatDateTimeJa(job.executedAt)}` : ''}
          {job.finishedAt ? ` ／ 終了 ${formatDateTimeJa(job.finishedAt)}` : ''}
          {job.notifyEmail ? ` ／ 結果の送信先 ${job.notifyEmail}` : ''}
        </Text>
        {job.error ? (
          <Text as="p" tone="critical">
            {job.error}
          </Text>
        ) : null}
        {running ? (
          <InlineStack align="end">
            <div data-testid="batch-cancel-button">
              <Button
                tone="critical"
                onClick={() => void cancel()}
                loading={cancelling}
                disabled={job.cancelRequested}
              >
                中止
              </Button>
            </div>
          </InlineStack>
        ) : (
          <BatchReport job={job} />
        )}
      </BlockStack>
    </Card>
  )
}

function BatchReport({ job }: { job: BatchJob }) {
  const [filter, setFilter] = useState<BatchItemStatus | ''>('')
  const [offset, setOffset] = useState(0)
  const [report, setReport] = useState<BatchItems | null>(null)
  const [failure, setFailure] = useState<string | null>(null)

  useEffect(() => {
    let live = true
    fetchReport(job.id, filter, offset).then(
      (r) => live && setReport(r),
      (error: unknown) => live && setFailure(errorMessage(error)),
    )
    return () => {
      live = false
    }
  }, [job.id, filter, offset])

  return (
    <BlockStack gap="200">
      <InlineStack align="space-between" blockAlign="center">
        <Text as="h3" variant="headingSm">
          契約ごとの結果
        </Text>
        <div data-testid="batch-report-filter">
          <Select
            label="結果で絞り込み"
            labelInline
            options={FILTERS}
            value={filter}
            onChange={(value) => {
              setFilter(value as BatchItemStatus | '')
              setOffset(0)
            }}
          />
        </div>
      </InlineStack>
      {failure ? (
        <Text as="p" tone="critical">
          {failure}
        </Text>
      ) : null}
      {report ? (
        <BatchContractsTable
          rows={report.items}
          total={report.total}
          offset={report.offset}
          limit={REPORT_PAGE}
          onPage={setOffset}
        />
      ) : null}
    </BlockStack>
  )
}
