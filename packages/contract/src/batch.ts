import { z } from 'zod'
import { unknownKeys, ZPlatformIdOrGid, ZText } from './primitives.ts'
import { ZDate, ZSubscriptionStatus } from './subscriptions.ts'

/**
 * Batch updates (一括更新, spec §3 "Variant swap", "Variant removal", "Next billing range", §7
 * "Batch and misc", issue 17). Each POST answers 202 with the queued job; a job-queue worker
 * changes the contracts one by one through the platform's drafts; GET /batch-updates/:id is the
 * job status (status, updatedAt, executedAt) with its counts, …/items the report page by page.
 * The same fields on GET …/preview answer how many contracts (and which) the batch would touch.
 */

const ZEmail = (label: string) =>
  ZText(label, { max: 254 }).pipe(z.email({ error: `${label}の形式が正しくありません` }))

const notify = {
  notifyEmail: ZEmail('結果の送信先メールアドレス')
    .optional()
    .describe('address the result (changed, skipped, failed with reasons) is mailed to'),
}

/** POST /batch-product-update: swap one variant for another in every contract that has it. */
export const ZBatchProductUpdateRequest = z
  .strictObject(
    {
      email: ZEmail('お客様のメールアドレス')
        .optional()
        .describe("only this customer's contracts (spec §3 Variant swap: email)"),
      variantIdFrom: ZPlatformIdOrGid('変更前のバリエーションID', 'ProductVariant'),
      variantIdTo: ZPlatformIdOrGid('変更後のバリエーションID', 'ProductVariant'),
      ...notify,
    },
    unknownKeys,
  )
  .refine((v) => v.variantIdFrom !== v.variantIdTo, {
    path: ['variantIdTo'],
    message: '変更前と変更後に同じバリエーションが指定されています',
  })
export type BatchProductUpdateRequest = z.input<typeof ZBatchProductUpdateRequest>

/** POST /batch-product-delete: remove one variant from every contract that has it. */
export const ZBatchProductDeleteRequest = z.strictObject(
  {
    email: ZEmail('お客様のメールアドレス').optional().describe("only this customer's contracts"),
    variantId: ZPlatformIdOrGid('削除するバリエーションID', 'ProductVariant'),
    ...notify,
  },
  unknownKeys,
)
export type BatchProductDeleteRequest = z.input<typeof ZBatchProductDeleteRequest>

/**
 * POST /batch-next-billing-date-update: every contract whose next billing date is the day
 * `nextBillingDateFrom` (shop's zone) moves to the day `nextBillingDateTo`, same time of day.
 */
export const ZBatchNextBillingDateUpdateRequest = z
  .strictObject(
    {
      nextBillingDateFrom: ZDate,
      nextBillingDateTo: ZDate,
      ...notify,
    },
    unknownKeys,
  )
  .refine((v) => v.nextBillingDateFrom !== v.nextBillingDateTo, {
    path: ['nextBillingDateTo'],
    message: '変更前と変更後に同じ日付が指定されています',
  })
export type BatchNextBillingDateUpdateRequest = z.input<typeof ZBatchNextBillingDateUpdateRequest>

const ZPaging = {
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(20),
}

/** The previews take the request's fields (as query parameters) and a page. */
export const ZBatchProductUpdatePreviewQuery = z
  .object({
    email: ZEmail('お客様のメールアドレス').optional(),
    variantIdFrom: ZPlatformIdOrGid('変更前のバリエーションID', 'ProductVariant'),
    variantIdTo: ZPlatformIdOrGid('変更後のバリエーションID', 'ProductVariant'),
    ...ZPaging,
  })
  .refine((v) => v.variantIdFrom !== v.variantIdTo, {
    path: ['variantIdTo'],
    message: '変更前と変更後に同じバリエーションが指定されています',
  })
export const ZBatchProductDeletePreviewQuery = z.object({
  email: ZEmail('お客様のメールアドレス').optional(),
  variantId: ZPlatformIdOrGid('削除するバリエーションID', 'ProductVariant'),
  ...ZPaging,
})
export const ZBatchNextBillingDatePreviewQuery = z
  .object({
    nextBillingDateFrom: ZDate,
    nextBillingDateTo: ZDate,
    ...ZPaging,
  })
  .refine((v) => v.nextBillingDateFrom !== v.nextBillingDateTo, {
    path: ['nextBillingDateTo'],
    message: '変更前と変更後に同じ日付が指定されています',
  })

export const BATCH_KINDS = ['product-update', 'product-delete', 'next-billing-date-update'] as const
export const ZBatchKind = z.enum(BATCH_KINDS)
export type BatchKind = z.infer<typeof ZBatchKind>

export const BATCH_STATUSES = ['queued', 'running', 'done', 'cancelled', 'failed'] as const
export type BatchStatus = (typeof BATCH_STATUSES)[number]

/** A contract a batch touches, as the preview and the report list it. */
export const ZBatchContract = z.object({
  contractId: z.string(),
  customerName: z.string(),
  email: z.string().nullable(),
  status: ZSubscriptionStatus,
  /** YYYY-MM-DD in the shop's zone, or null. */
  nextBillingDate: z.string().nullable(),
})

export const ZBatchPreview = z.object({
  kind: ZBatchKind,
  /** What the batch does, in the merchant's words (「A を B に変更」). */
  summary: z.string(),
  /** Contracts the batch would touch now (the mirror; ended contracts are not counted). */
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
  contracts: z.array(ZBatchContract),
})
export type BatchPreview = z.infer<typeof ZBatchPreview>

/** The job status (spec §3 Job status: status, updatedAt, executedAt) with its counts. */
export const ZBatchJob = z.object({
  id: z.string(),
  kind: ZBatchKind,
  summary: z.string(),
  status: z.enum(BATCH_STATUSES),
  notifyEmail: z.string().nullable(),
  total: z.number().int(),
  changed: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  /** Contracts not decided yet (left untouched when the batch was cancelled). */
  pending: z.number().int(),
  /** Whole percent decided. */
  percent: z.number().int(),
  cancelRequested: z.boolean(),
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** When a worker first started it; null while queued. */
  executedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
})
export type BatchJob = z.infer<typeof ZBatchJob>

export const ZBatchJobList = z.object({ batches: z.array(ZBatchJob) })

export const ZBatchIdParam = z.object({ id: ZText('一括更新ID', { max: 64 }) })

export const BATCH_ITEM_STATUSES = ['pending', 'changed', 'skipped', 'failed'] as const
export type BatchItemStatus = (typeof BATCH_ITEM_STATUSES)[number]

export const ZBatchItemsQuery = z.object({
  status: z
    .enum(BATCH_ITEM_STATUSES, { error: 'status は pending・changed・skipped・failed のいずれかです' })
    .optional(),
  ...ZPaging,
})

export const ZBatchItems = z.object({
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
  items: z.array(
    ZBatchContract.extend({
      result: z.enum(BATCH_ITEM_STATUSES),
      /** Why it was skipped or failed (Japanese), or null. */
      reason: z.string().nullable(),
    }),
  ),
})
export type BatchItems = z.infer<typeof ZBatchItems>

/** GET /bulk-query: the shop's latest bulk operation on the platform, or null. */
export const ZBulkQueryResponse = z.object({
  bulkOperation: z
    .object({
      id: z.string(),
      status: z.string(),
      /** The status in Japanese (実行中, 完了, …). */
      statusLabel: z.string(),
      errorCode: z.string().nullable(),
      createdAt: z.string(),
      completedAt: z.string().nullable(),
      objectCount: z.string(),
    })
    .nullable(),
})
export type BulkQueryResponse = z.infer<typeof ZBulkQueryResponse>
