import { Badge, Button, DataTable, Text } from '@shopify/polaris'
import type { BatchJob } from '@teiki/contract'
import { formatDateTimeJa, formatNumber } from '@teiki/domain'
import { SectionCard } from '../../app/section-card.tsx'
import { BATCH_STATUS_LABELS } from './batch-api.ts'

/** 最近の一括更新: the shop's last batches; 表示 shows one's progress and report above. */
export function RecentBatchesCard({
  batches,
  shownId,
  onShow,
}: {
  batches: BatchJob[]
  shownId: string | null
  onShow: (job: BatchJob) => void
}) {
  if (batches.length === 0) return null
  const rows = batches.map((b) => [
    formatDateTimeJa(b.createdAt),
    b.summary,
    <Badge key="s">{BATCH_STATUS_LABELS[b.status]}</Badge>,
    `変更 ${formatNumber(b.changed)}・スキップ ${formatNumber(b.skipped)}・失敗 ${formatNumber(b.failed)} / ${formatNumber(b.total)}件`,
    b.id === shownId ? (
      <Text key="a" as="span" tone="subdued">
        表示中
      </Text>
    ) : (
      <Button key="a" variant="plain" onClick={() => onShow(b)}>
        表示
      </Button>
    ),
  ])
  return (
    <SectionCard title="最近の一括更新" gap="200">
      <div data-testid="batch-recent">
        <DataTable
          columnContentTypes={['text', 'text', 'text', 'text', 'text']}
          headings={['受付日時', '内容', '状態', '件数', '']}
          rows={rows}
          verticalAlign="middle"
        />
      </div>
    </SectionCard>
  )
}
