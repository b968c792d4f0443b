import { Badge, BlockStack, Box, Card, DataTable, SkeletonBodyText, Text } from '@shopify/polaris'
import type { BillingRun } from '@teiki/contract'
import { formatDateTimeJa } from '@teiki/domain'
import { LoadErrorState } from '../../app/load-state.tsx'
import { type RunsState, runBadge, runSummary, triggerLabel } from './runs-format.ts'

const HEADINGS = ['実行日時', '種別', '対象', '請求', '成功', '失敗', '状態']
const TYPES: Array<'text' | 'numeric'> = ['text', 'text', 'numeric', 'numeric', 'numeric', 'numeric', 'text']

/**
 * 最近の請求実行: what the latest billing runs did, so the merchant can see that today's run
 * happened and how it went (failures are retried on the 請求設定 schedule).
 */
export function RecentRunsCard({ state, onRetry }: { state: RunsState; onRetry: () => void }) {
  return (
    <Card padding="0">
      <Box padding="400" paddingBlockEnd="200">
        <BlockStack gap="100">
          <Text as="h2" variant="headingMd">
            最近の請求実行
          </Text>
          <Text as="p" tone="subdued">
            毎日の請求実行の結果です。失敗した請求は請求設定の間隔で再試行されます。途中で止まった実行（中断）の残りは自動で再開されます。
          </Text>
        </BlockStack>
      </Box>
      <RunsBody state={state} onRetry={onRetry} />
    </Card>
  )
}

function RunsBody({ state, onRetry }: { state: RunsState; onRetry: () => void }) {
  if (state.status === 'loading') {
    return (
      <Box padding="400">
        <SkeletonBodyText lines={3} />
      </Box>
    )
  }
  if (state.status === 'error') {
    return (
      <Box padding="400">
        <LoadErrorState
          title="請求実行の履歴を読み込めませんでした"
          message={state.message}
          onRetry={onRetry}
        />
      </Box>
    )
  }
  if (state.runs.length === 0) {
    return (
      <Box padding="400">
        <Text as="p" tone="subdued">
          まだ請求は実行されていません。
        </Text>
      </Box>
    )
  }
  return (
    <div data-testid="billing-runs">
      <DataTable columnContentTypes={TYPES} headings={HEADINGS} rows={state.runs.map(runRow)} />
    </div>
  )
}

function runRow(run: BillingRun) {
  const badge = runBadge(run)
  return [
    <span key="at" title={runSummary(run)}>
      {formatDateTimeJa(run.startedAt, 'Asia/Tokyo')}
    </span>,
    triggerLabel(run.trigger),
    run.due,
    run.attempted,
    run.succeeded,
    run.failed,
    // The error line (why a run stopped) as the badge's title, like the summary on the date.
    <span key="status" title={run.error ?? undefined}>
      <Badge tone={badge.tone}>{badge.label}</Badge>
    </span>,
  ]
}
