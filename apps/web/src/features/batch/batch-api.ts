import type { BatchItemStatus, BatchItems, BatchJob, BatchKind, BatchPreview } from '@teiki/contract'
import { apiGet, apiPost } from '../../app/api.ts'
import { KIND_PATHS } from './batch-form.ts'

export const PREVIEW_PAGE = 10
export const REPORT_PAGE = 20

export const fetchPreview = (kind: BatchKind, query: Record<string, string>, offset: number) =>
  apiGet<BatchPreview>(`${KIND_PATHS[kind]}/preview`, { ...query, offset, limit: PREVIEW_PAGE })

export const startBatch = (kind: BatchKind, body: Record<string, string>) =>
  apiPost<BatchJob>(KIND_PATHS[kind], body)

export const fetchBatch = (id: string) => apiGet<BatchJob>(`/batch-updates/${encodeURIComponent(id)}`)

export const fetchBatches = () => apiGet<{ batches: BatchJob[] }>('/batch-updates')

export const cancelBatch = (id: string) =>
  apiPost<BatchJob>(`/batch-updates/${encodeURIComponent(id)}/cancel`, {})

export const fetchReport = (id: string, status: BatchItemStatus | '', offset: number) =>
  apiGet<BatchItems>(`/batch-updates/${encodeURIComponent(id)}/items`, {
    status: status || undefined,
    offset,
    limit: REPORT_PAGE,
  })

/** 実行待ち, 実行中, … as the screen says the batch's state. */
export const BATCH_STATUS_LABELS: Record<BatchJob['status'], string> = {
  queued: '開始待ち',
  running: '実行中',
  done: '完了',
  cancelled: '中止',
  failed: '失敗',
}

export const RESULT_LABELS: Record<BatchItemStatus, string> = {
  pending: '未処理',
  changed: '変更済み',
  skipped: 'スキップ',
  failed: '失敗',
}

export const isRunning = (job: BatchJob) => job.status === 'queued' || job.status === 'running'
