import type { BillingRun } from '@teiki/contract'

/** How many recent runs the 請求予定 page shows. */
export const RECENT_RUNS = 10

export type RunsState =
  | { status: 'loading' }
  | { status: 'success'; runs: readonly BillingRun[] }
  | { status: 'error'; message: string }

const TRIGGER_LABELS: Record<BillingRun['trigger'], string> = {
  schedule: '自動',
  cli: 'コマンド',
  manual: '手動',
  resume: '再開',
}

/** Who started the run: the daily schedule, `npm run billing`, a person, or the resume of a stopped run. */
export const triggerLabel = (trigger: BillingRun['trigger']): string => TRIGGER_LABELS[trigger]

export type RunBadge = { label: string; tone: 'success' | 'info' | 'attention' | 'warning' | 'critical' }

/**
 * Where a run stands. Outcomes arrive after the run has asked for its charges (webhooks,
 * polling), so a finished run can still wait for some: 結果待ち until every attempted charge
 * has succeeded or failed. 中断: its process stopped mid-way; a 再開 run below it charged the rest.
 */
export function runBadge(
  run: Pick<BillingRun, 'error' | 'finishedAt' | 'abortedAt' | 'attempted' | 'succeeded' | 'failed'>,
): RunBadge {
  if (run.abortedAt !== null) return { label: '中断', tone: 'warning' }
  if (run.error !== null) return { label: 'エラー', tone: 'critical' }
  if (run.finishedAt === null) return { label: '実行中', tone: 'info' }
  if (run.succeeded + run.failed < run.attempted) return { label: '結果待ち', tone: 'attention' }
  return { label: '完了', tone: 'success' }
}

/** One line that says what the run did, for screen readers and the error banner. */
export function runSummary(
  run: Pick<BillingRun, 'due' | 'attempted' | 'succeeded' | 'failed' | 'skipped' | 'alreadyBilled'>,
): string {
  const parts = [
    `対象 ${run.due}件`,
    `請求 ${run.attempted}件`,
    `成功 ${run.succeeded}件`,
    `失敗 ${run.failed}件`,
  ]
  if (run.skipped > 0) parts.push(`見送り ${run.skipped}件`)
  if (run.alreadyBilled > 0) parts.push(`請求済み ${run.alreadyBilled}件`)
  return parts.join('・')
}
