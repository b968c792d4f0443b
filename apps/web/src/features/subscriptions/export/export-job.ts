import {
  type ExportEncoding,
  type ExportJob,
  type ExportRequest,
  type SubscriptionStatus,
  ZExportRequest,
} from '@teiki/contract'
import { DATE_FORMAT_MESSAGE, dateProblem, formatNumber, isValidCalendarDate } from '@teiki/domain'
import { ApiError, api, download } from '../../../app/api.ts'
import type { SearchFilters } from '../search-request.ts'

/**
 * The CSV export of the subscription list as pure steps: the modal's form → the request
 * (checked with the same zod schema the server uses, so the messages are the server's),
 * then the job: POST, poll its progress every 500 ms, download the file.
 */

export const POLL_INTERVAL_MS = 500

/** The modal's fields as typed (text fields hold text; '' = not set). */
export type ExportForm = {
  email: string
  nextBillingDateStartDate: string
  nextBillingDateEndDate: string
  createdDateStartDate: string
  createdDateEndDate: string
  statuses: SubscriptionStatus[]
  purchaseCountMin: string
  purchaseCountMax: string
  interval: '' | 'DAY' | 'WEEK' | 'MONTH'
  intervalCount: string
  encoding: ExportEncoding
}

export type ExportFormField = keyof ExportForm

export const EMPTY_EXPORT_FORM: ExportForm = {
  email: '',
  nextBillingDateStartDate: '',
  nextBillingDateEndDate: '',
  createdDateStartDate: '',
  createdDateEndDate: '',
  statuses: [],
  purchaseCountMin: '',
  purchaseCountMax: '',
  interval: '',
  intervalCount: '',
  encoding: 'utf-8',
}

/**
 * The form as the export dialog opens from the list: the list's status and next-billing filters,
 * so the file holds what the merchant was looking at (the search text has no export filter).
 */
export function exportFormFromList(filters: SearchFilters): ExportForm {
  return {
    ...EMPTY_EXPORT_FORM,
    statuses: [...filters.statuses],
    nextBillingDateStartDate: filters.nextBillingDateFrom,
    nextBillingDateEndDate: filters.nextBillingDateTo,
  }
}

/** What the dialog says it carried over from the list, or null when the list had no filter. */
export function carriedFiltersNote(filters: SearchFilters, searchText: string): string | null {
  const carried =
    filters.statuses.length > 0 || filters.nextBillingDateFrom !== '' || filters.nextBillingDateTo !== ''
  const parts: string[] = []
  if (carried) parts.push('一覧の絞り込み（ステータス・次回請求日）を引き継いでいます。')
  if (searchText.trim() !== '')
    parts.push(`検索語句「${searchText.trim()}」はエクスポートの条件に含まれません。`)
  return parts.length > 0 ? parts.join('') : null
}

export const INTERVAL_OPTIONS = [
  { label: '指定なし', value: '' },
  { label: '日ごと', value: 'DAY' },
  { label: '週ごと', value: 'WEEK' },
  { label: 'ヶ月ごと', value: 'MONTH' },
]

/** Whole number text as merchants type it (full-width digits, `1,000`); NaN when it is not one. */
function countValue(text: string): number | undefined {
  const plain = text.normalize('NFKC').replace(/[,\s]/g, '')
  if (plain === '') return undefined
  return /^-?\d+(\.\d+)?$/.test(plain) ? Number(plain) : Number.NaN
}

const optional = (text: string) => (text.trim() === '' ? undefined : text.trim())

export type ExportFormCheck =
  | { ok: true; request: ExportRequest }
  | { ok: false; errors: Partial<Record<ExportFormField, string>> }

// The request's field names that the form shows under another field.
const FORM_FIELD: Record<string, ExportFormField> = {
  statusFilter: 'statuses',
  statusFilterDirect: 'statuses',
}

/** The form as the POST body (only the fields set), or a Japanese message per wrong field. */
export function checkExportForm(form: ExportForm): ExportFormCheck {
  const request: ExportRequest = {
    email: optional(form.email),
    nextBillingDateStartDate: optional(form.nextBillingDateStartDate),
    nextBillingDateEndDate: optional(form.nextBillingDateEndDate),
    createdDateStartDate: optional(form.createdDateStartDate),
    createdDateEndDate: optional(form.createdDateEndDate),
    statusFilter: form.statuses.length > 0 ? [...form.statuses] : undefined,
    purchaseCountMin: countValue(form.purchaseCountMin),
    purchaseCountMax: countValue(form.purchaseCountMax),
    interval: form.interval === '' ? undefined : form.interval,
    intervalCount: countValue(form.intervalCount),
    encoding: form.encoding,
  }
  for (const key of Object.keys(request) as Array<keyof ExportRequest>) {
    if (request[key] === undefined) delete request[key]
  }
  const parsed = ZExportRequest.safeParse(request)
  const errors: Partial<Record<ExportFormField, string>> = typedDateErrors(form)
  if (parsed.success && Object.keys(errors).length === 0) return { ok: true, request }
  if (parsed.success) return { ok: false, errors }
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0] ?? '')
    const field = FORM_FIELD[key] ?? (key in form ? (key as ExportFormField) : 'email')
    errors[field] ??= issue.message
  }
  return { ok: false, errors }
}

const DATE_FIELDS = [
  'nextBillingDateStartDate',
  'nextBillingDateEndDate',
  'createdDateStartDate',
  'createdDateEndDate',
] as const

/** Date fields holding text that did not read as a day: a day that does not exist named, else the format. */
function typedDateErrors(form: ExportForm): Partial<Record<ExportFormField, string>> {
  const errors: Partial<Record<ExportFormField, string>> = {}
  for (const field of DATE_FIELDS) {
    const value = form[field].trim()
    if (value !== '' && !isValidCalendarDate(value)) errors[field] = dateProblem(value) ?? DATE_FORMAT_MESSAGE
  }
  return errors
}

/** 「1,234 / 100,000 件」; before the count is known 「0 / … 件」. */
export function progressLabel(job: Pick<ExportJob, 'doneRows' | 'totalRows'>): string {
  const total = job.totalRows === null ? '…' : formatNumber(job.totalRows)
  return `${formatNumber(job.doneRows)} / ${total} 件`
}

/** 0-100 for the progress bar. */
export function progressPercent(job: Pick<ExportJob, 'doneRows' | 'totalRows' | 'status'>): number {
  if (job.status === 'done') return 100
  if (!job.totalRows) return 0
  return Math.min(100, Math.round((job.doneRows / job.totalRows) * 100))
}

const sleepMs = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        reject(signal.reason ?? new DOMException('Aborted', 'AbortError'))
      },
      { once: true },
    )
  })

/**
 * Starts an export and follows it to its end: every state of the job goes to `onUpdate`
 * (queued, running with its counts, done). A failed job throws an `ApiError` with the
 * server's Japanese message; `signal` stops following (AbortError).
 */
export async function runExportJob(
  request: ExportRequest,
  opts: {
    onUpdate: (job: ExportJob) => void
    signal?: AbortSignal
    sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
  },
): Promise<ExportJob> {
  const sleep = opts.sleep ?? sleepMs
  let job = await api('POST /export-subscription-contracts', { body: request }, { signal: opts.signal })
  opts.onUpdate(job)
  while (job.status === 'queued' || job.status === 'running') {
    await sleep(POLL_INTERVAL_MS, opts.signal)
    job = await api(
      'GET /export-subscription-contracts/:id',
      { params: { id: job.id } },
      { signal: opts.signal },
    )
    opts.onUpdate(job)
  }
  if (job.status === 'failed') {
    throw new ApiError(200, 'EXPORT_FAILED', job.error ?? 'CSVの作成に失敗しました。')
  }
  return job
}

/** The finished file: its bytes and name (from Content-Disposition, else the job's). */
export function downloadExport(job: Pick<ExportJob, 'id' | 'fileName'>, signal?: AbortSignal) {
  return download(
    'GET /export-subscription-contracts/:id/download',
    job.fileName,
    { params: { id: job.id } },
    { signal },
  )
}
