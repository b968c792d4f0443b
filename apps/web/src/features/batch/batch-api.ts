import type { BatchItemStatus, BatchJob, BatchPreview } from '@teiki/contract'
import { api } from '../../app/api.ts'
import { type BatchBody, previewQuery } from './batch-form.ts'

export const PREVIEW_PAGE = 10
export const REPORT_PAGE = 20

/** The preview of a batch update: its body's shape says which of the three kinds it is. */
export function fetchPreview(body: BatchBody, offset: number): Promise<BatchPreview> {
  const page = { offset, limit: PREVIEW_PAGE }
  if ('variantIdFrom' in body)
    return api('GET /batch-product-update/preview', { query: { ...previewQuery(body), ...page } })
  if ('variantId' in body)
    return api('GET /batch-product-delete/preview', { query: { ...previewQuery(body), ...page } })
  return api('GET /batch-next-billing-date-update/preview', { query: { ...previewQuery(body), ...page } })
}

/** Starts the batch update the body describes. */
export function startBatch(body: BatchBody): Promise<BatchJob> {
  if ('variantIdFrom' in body) return api('POST /batch-product-update', { body })
  if ('variantId' in body) return api('POST /batch-product-delete', { body })
  return api('POST /batch-next-billing-date-update', { body })
}

export const fetchBatch = (id: string) => api('GET /batch-updates/:id', { params: { id } })

export const cancelBatch = (id: string) => api('POST /batch-updates/:id/cancel', { params: { id } })

export const fetchReport = (id: string, status: BatchItemStatus | '', offset: number) =>
  api('GET /batch-updates/:id/items', {
    params: { id },
    query: { status: status || undefined, offset, limit: REPORT_PAGE },
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
