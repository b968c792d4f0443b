import { z } from 'zod'
import { ZText } from './primitives.ts'
import { type SubscriptionStatus, ZDate, ZStatusListText, ZSubscriptionStatus } from './subscriptions.ts'

/**
 * CSV export of contracts (spec §3 "Subscription export filter", §7
 * POST /export-subscription-contracts). The export runs as a job: the POST answers 202 with
 * the job, GET .../:id reports its progress, GET .../:id/download serves the file.
 */

export const EXPORT_ENCODINGS = ['utf-8', 'shift_jis'] as const
/** `utf-8`: UTF-8 with BOM (Excel recognises it); `shift_jis`: Windows-31J (CP932). */
export const ZExportEncoding = z.enum(EXPORT_ENCODINGS, {
  error: '文字コードは utf-8 または shift_jis を指定してください',
})
export type ExportEncoding = z.infer<typeof ZExportEncoding>

export const EXPORT_INTERVALS = ['DAY', 'WEEK', 'MONTH'] as const
export const ZExportInterval = z.enum(EXPORT_INTERVALS, {
  error: '請求間隔の単位は DAY・WEEK・MONTH のいずれかを指定してください',
})

/**
 * `statusFilterDirect`: statuses as text, one or a comma-separated list (`ACTIVE` or
 * `ACTIVE,PAUSED`), case-insensitive, the form the search endpoint's `statuses` takes.
 */
const ZStatusText = ZStatusListText('statusFilterDirect')

const ZCount = (label: string) =>
  z
    .number({ error: `${label}は数値で指定してください` })
    .int(`${label}は整数で指定してください`)
    .min(0, `${label}は0以上で指定してください`)
    .max(1_000_000, `${label}は1000000以下で指定してください`)

/**
 * POST /app-admin/export-subscription-contracts. Every filter is optional (none: every
 * contract of the shop) and they combine with AND. Dates are calendar days in the shop's zone
 * (Japan time), both ends inclusive. `statusFilter` (array) and `statusFilterDirect` (text)
 * are two spellings of the status filter: the contract matches any status of their union;
 * both empty means every status. `email`, when given, receives the finished file by mail.
 */
export const ZExportRequest = z
  .strictObject(
    {
      email: ZText('メールアドレス', { max: 254 })
        .pipe(z.email({ error: 'メールアドレスの形式が正しくありません' }))
        .optional()
        .describe('address the finished CSV is mailed to (attached up to 10 MB)'),
      nextBillingDateStartDate: ZDate.optional(),
      nextBillingDateEndDate: ZDate.optional(),
      createdDateStartDate: ZDate.optional(),
      createdDateEndDate: ZDate.optional(),
      statusFilter: z
        .array(ZSubscriptionStatus, { error: 'statusFilter はステータスの配列で指定してください' })
        .max(10)
        .optional(),
      statusFilterDirect: ZStatusText.optional().describe(
        'statuses as text, one or comma-separated (ACTIVE,PAUSED); combined with statusFilter as a union',
      ),
      purchaseCountMin: ZCount('購入回数の最小').optional(),
      purchaseCountMax: ZCount('購入回数の最大').optional(),
      interval: ZExportInterval.optional(),
      intervalCount: z
        .number({ error: '請求間隔の数は数値で指定してください' })
        .int('請求間隔の数は整数で指定してください')
        .min(1, '請求間隔の数は1以上で指定してください')
        .max(1000, '請求間隔の数は1000以下で指定してください')
        .optional(),
      encoding: ZExportEncoding.default('utf-8'),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys' ? `不明な項目です: ${issue.keys.join(', ')}` : undefined,
    },
  )
  .superRefine((value, ctx) => {
    const ordered = (from: string | undefined, to: string | undefined) => !from || !to || from <= to
    if (!ordered(value.nextBillingDateStartDate, value.nextBillingDateEndDate)) {
      ctx.addIssue({
        code: 'custom',
        path: ['nextBillingDateEndDate'],
        message: '次回請求日の開始日は終了日以前の日付を指定してください',
      })
    }
    if (!ordered(value.createdDateStartDate, value.createdDateEndDate)) {
      ctx.addIssue({
        code: 'custom',
        path: ['createdDateEndDate'],
        message: '作成日の開始日は終了日以前の日付を指定してください',
      })
    }
    if (
      value.purchaseCountMin !== undefined &&
      value.purchaseCountMax !== undefined &&
      value.purchaseCountMin > value.purchaseCountMax
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['purchaseCountMax'],
        message: '購入回数の最小は最大以下で指定してください',
      })
    }
  })
export type ExportRequest = z.input<typeof ZExportRequest>
export type ExportRequestParsed = z.output<typeof ZExportRequest>

/** The filter of a job as stored and echoed back: the request without email and encoding. */
export type ExportFilter = Omit<ExportRequestParsed, 'email' | 'encoding'>

/** The union of `statusFilter` and `statusFilterDirect`, in the admin's order; [] = all. */
export function exportStatuses(filter: Pick<ExportFilter, 'statusFilter' | 'statusFilterDirect'>) {
  const wanted = new Set<SubscriptionStatus>([
    ...(filter.statusFilter ?? []),
    ...(filter.statusFilterDirect ?? []),
  ])
  return ZSubscriptionStatus.options.filter((status) => wanted.has(status))
}

export const EXPORT_JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const

export const ZExportJob = z.object({
  id: z.string(),
  status: z.enum(EXPORT_JOB_STATUSES),
  encoding: ZExportEncoding,
  /** Where the file is mailed when done, or null. */
  email: z.string().nullable(),
  /** Contracts matching the filter (known once the job started); equals doneRows when done. */
  totalRows: z.number().int().nullable(),
  /** Rows written so far. */
  doneRows: z.number().int(),
  /** Size of the file in bytes, once done. */
  byteSize: z.number().int().nullable(),
  /**
   * Japanese text of what went wrong: the failure of a failed job, or, on a done job, a
   * mail that could not be sent (the file itself is fine).
   */
  error: z.string().nullable(),
  /** ISO 8601 instants. */
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** The download file name, e.g. `subscriptions-20261122-1305.csv` (shop's zone). */
  fileName: z.string(),
  /** `/app-admin/export-subscription-contracts/:id/download` once done, else null. */
  downloadPath: z.string().nullable(),
})
export type ExportJob = z.infer<typeof ZExportJob>

export const ZExportJobList = z.object({ exports: z.array(ZExportJob) })
export type ExportJobList = z.infer<typeof ZExportJobList>

/** A malformed id is answered 404 like another shop's (features/exports/service.ts). */
export const ZExportIdParam = z.object({ id: ZText('エクスポートID', { max: 64, trim: false }) })
