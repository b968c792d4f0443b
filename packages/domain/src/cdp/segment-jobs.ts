import { formatDateTimeJa } from '../format/dates.ts'
import { formatNumber } from '../format/numbers.ts'

// What the segment screen says about its tag batch and its export (issue 15), one sentence each.

export type TagJobState = {
  tag: string
  status: 'queued' | 'running' | 'done' | 'failed'
  total: number | null
  done: number
  failed: number
  error: string | null
}

export type ExportJobState = {
  status: 'queued' | 'running' | 'done' | 'failed'
  email: string
  rows: number | null
  finishedAt: string | null
}

/** Customers handled so far out of the batch's total, 0–100 (100 once done). */
export function tagJobPercent(job: TagJobState): number {
  if (job.status === 'done') return 100
  if (!job.total) return 0
  return Math.min(100, Math.floor(((job.done + job.failed) / job.total) * 100))
}

/** 開始 / 実行中（N / M 件） / 完了 / 失敗, with the counts. */
export function tagJobText(job: TagJobState): string {
  const name = `タグ「${job.tag}」`
  const handled = job.done + job.failed
  const failed = job.failed > 0 ? `（失敗${formatNumber(job.failed)}件）` : ''
  switch (job.status) {
    case 'queued':
      return `${name}の一括追加を開始しました。まもなく追加が始まります。`
    case 'running':
      return job.total === null
        ? `${name}を追加する顧客を集計しています…`
        : `${name}を追加しています: ${formatNumber(handled)} / ${formatNumber(job.total)} 件${failed}`
    case 'done':
      return job.failed > 0
        ? `${name}を${formatNumber(job.done)}件の顧客に追加しました。${formatNumber(job.failed)}件は追加できませんでした。`
        : `${name}を${formatNumber(job.done)}件の顧客に追加しました。`
    case 'failed':
      return `${name}の一括追加が失敗しました（${formatNumber(handled)}件処理済み）。${job.error ?? ''}`.trim()
  }
}

/** The export's state: accepted, being written, mailed (with the rows), or failed. */
export function exportJobText(job: ExportJobState, timeZone?: string): string {
  switch (job.status) {
    case 'queued':
      return `CSVの作成を受け付けました。完了すると ${job.email} にメールでお送りします。`
    case 'running':
      return `CSVを作成しています。完了すると ${job.email} にメールでお送りします。`
    case 'done': {
      const at = job.finishedAt ? `（${formatDateTimeJa(job.finishedAt, timeZone)}）` : ''
      return `${formatNumber(job.rows ?? 0)}件のCSVを ${job.email} にメールで送信しました${at}。`
    }
    case 'failed':
      return `CSVを作成できませんでした。時間をおいてもう一度お試しください（${job.email} にもお知らせしました）。`
  }
}
