import { z } from 'zod'
import { ZExportEncoding } from './exports.ts'
import { unknownKeys, ZPlatformId, ZText } from './primitives.ts'
import { reportDay, reportRangeShape, withReportRange } from './reports.ts'
import { ZDate, ZSubscriptionStatus } from './subscriptions.ts'

// Customer data platform (spec §2, §3 "Customer data platform", "LTV", §7 `cdp-*`, `/ltv/*`):
// segments (saved conditions on the customer mirror, ADR 0017), their groups, the customers of a
// segment 10 a page, a customer's detail and log, tags, and lifetime value with its CSV.

/** Spec §9: customer data platform customers are listed 10 at a time. */
export const CDP_CUSTOMER_PAGE_SIZE = 10
export const SEGMENT_NAME_MAX = 100
export const TAG_MAX = 255

/** A stored condition's day: `YYYY-MM-DD` as written, a real day (the analytics days' reader). */
const ZCalendarDay = (label: string) =>
  ZDate.refine((value) => reportDay(value) === value, { error: `${label}に存在しない日付が指定されました` })

const ZBound = (label: string, max: number, int: boolean) => {
  const n = z
    .number({ error: `${label}は数値で指定してください` })
    .min(0, `${label}は0以上で指定してください`)
  return (int ? n.int(`${label}は整数で指定してください`) : n).max(
    max,
    `${label}は${max}以下で指定してください`,
  )
}

const ZRange = (label: string, max: number, int: boolean) =>
  z
    .strictObject(
      {
        min: ZBound(`${label}の下限`, max, int).optional(),
        max: ZBound(`${label}の上限`, max, int).optional(),
      },
      unknownKeys,
    )
    .refine((r) => r.min === undefined || r.max === undefined || r.min <= r.max, {
      error: `${label}の下限は上限以下にしてください`,
    })

/** A tag as the platform keeps it: no comma (the platform splits on it), at most 255 characters. */
export const ZTag = ZText('タグ', { max: TAG_MAX })
  .refine((t) => t !== '', { error: 'タグを入力してください' })
  .refine((t) => !t.includes(','), { error: 'タグにカンマ（,）は使用できません' })

const ZTrafficText = (label: string) => ZText(label, { max: 255 })

/** The conditions of a segment (ADR 0017): AND between conditions, OR within a list. */
export const ZSegmentConditions = z.strictObject(
  {
    traffic: z
      .array(
        z.strictObject(
          {
            source: ZTrafficText('流入元（source）').refine((s) => s !== '', {
              error: '流入元（source）を指定してください',
            }),
            medium: ZTrafficText('メディア（medium）').optional(),
          },
          unknownKeys,
        ),
      )
      .max(50, '流入元は50件までです')
      .optional(),
    statuses: z.array(ZSubscriptionStatus).max(5).optional(),
    orderCount: ZRange('購入回数', 100_000, true).optional(),
    lifetimeValue: ZRange('LTV', 1_000_000_000_000, false).optional(),
    firstOrderDate: z
      .strictObject(
        {
          from: ZCalendarDay('初回購入日（開始）').optional(),
          to: ZCalendarDay('初回購入日（終了）').optional(),
        },
        unknownKeys,
      )
      .refine((d) => !d.from || !d.to || d.from <= d.to, {
        error: '初回購入日の開始日は終了日以前にしてください',
      })
      .optional(),
    sellingPlanGroupIds: z.array(ZPlatformId('販売プランID')).max(50, '販売プランは50件までです').optional(),
    tags: z
      .strictObject(
        {
          any: z.array(ZTag).max(50, 'タグは50件までです').optional(),
          none: z.array(ZTag).max(50, 'タグは50件までです').optional(),
        },
        unknownKeys,
      )
      .optional(),
  },
  unknownKeys,
)
export type SegmentConditionsInput = z.input<typeof ZSegmentConditions>

export const ZSegment = z.object({
  id: z.string(),
  name: z.string(),
  groupId: z.string().nullable(),
  groupName: z.string().nullable(),
  conditions: ZSegmentConditions,
  /** The conditions in Japanese, one phrase each. */
  description: z.array(z.string()),
  /** Spec §8: a segment view keeps an error text (a selling plan group deleted since), else null. */
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type Segment = z.infer<typeof ZSegment>

export const ZSegmentGroup = z.object({ id: z.string(), name: z.string(), segmentCount: z.number().int() })
export type SegmentGroup = z.infer<typeof ZSegmentGroup>

/** GET /cdp-segment-list: every segment of the shop (newest first) and the groups. */
export const ZSegmentList = z.object({ segments: z.array(ZSegment), groups: z.array(ZSegmentGroup) })
export type SegmentList = z.infer<typeof ZSegmentList>

export const ZSegmentIdQuery = z.object({ segmentId: ZPlatformId('セグメントID') })

export const ZTagJob = z.object({
  id: z.string(),
  tag: z.string(),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  total: z.number().int().nullable(),
  done: z.number().int(),
  failed: z.number().int(),
  error: z.string().nullable(),
  /** The first 20 customers the platform refused, with its reason in Japanese. */
  failures: z.array(z.object({ customerId: z.string(), name: z.string(), reason: z.string() })),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
})
export type TagJob = z.infer<typeof ZTagJob>

/** The segment's latest export (`cdp-customer-list-export`), a job that mails the CSV. */
export const ZSegmentExportJob = z.object({
  id: z.string(),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  email: z.string(),
  rows: z.number().int().nullable(),
  fileName: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
})
export type SegmentExportJob = z.infer<typeof ZSegmentExportJob>

/** GET /cdp-segment-data: the segment, how many customers it holds now, its latest tag batch and export. */
export const ZSegmentData = z.object({
  segment: ZSegment,
  total: z.number().int(),
  tagJob: ZTagJob.nullable(),
  exportJob: ZSegmentExportJob.nullable(),
})
export type SegmentData = z.infer<typeof ZSegmentData>

/** GET /cdp-segment-setting: the traffic sources and media seen (filtered by source / medium when given). */
export const ZSegmentSettingQuery = z.object({
  source: ZTrafficText('流入元（source）').optional(),
  medium: ZTrafficText('メディア（medium）').optional(),
})
export const ZSegmentSetting = z.object({
  sources: z.array(
    z.object({
      source: z.string(),
      medium: z.string(),
      contracts: z.number().int(),
      customers: z.number().int(),
    }),
  ),
})
export type SegmentSetting = z.infer<typeof ZSegmentSetting>

const ZSegmentFields = {
  name: ZText('セグメント名', { max: SEGMENT_NAME_MAX }).refine((s) => s !== '', {
    error: 'セグメント名を入力してください',
  }),
  groupId: ZPlatformId('グループID').nullable().optional(),
  conditions: ZSegmentConditions,
}

/** POST /cdp-segment-create with `data` (spec §7). */
export const ZSegmentCreateRequest = z.strictObject(
  { data: z.strictObject(ZSegmentFields, unknownKeys) },
  unknownKeys,
)
export type SegmentCreateRequest = z.input<typeof ZSegmentCreateRequest>

/** POST /cdp-segment-update with `data`, which names the segment. */
export const ZSegmentUpdateRequest = z.strictObject(
  { data: z.strictObject({ id: ZPlatformId('セグメントID'), ...ZSegmentFields }, unknownKeys) },
  unknownKeys,
)
export type SegmentUpdateRequest = z.input<typeof ZSegmentUpdateRequest>

export const ZSegmentDeleted = z.object({ deleted: z.literal(true), segmentId: z.string() })

/** POST /cdp-group-list/ with `name`: adds the group when it is new; answers every group. */
export const ZGroupListRequest = z.strictObject(
  {
    name: ZText('グループ名', { max: SEGMENT_NAME_MAX })
      .refine((s) => s !== '', { error: 'グループ名を入力してください' })
      .optional(),
  },
  unknownKeys,
)
export const ZGroupList = z.object({ groups: z.array(ZSegmentGroup) })
export type GroupList = z.infer<typeof ZGroupList>

const ZOffset = z.coerce
  .number({ error: '開始位置は数値で指定してください' })
  .int('開始位置は整数で指定してください')
  .min(0, '開始位置は0以上で指定してください')
  .max(1_000_000, '開始位置が大きすぎます')
  .default(0)
const ZCount = (fallback: number) =>
  z.coerce
    .number({ error: '件数は数値で指定してください' })
    .int('件数は整数で指定してください')
    .min(1, '件数は1以上で指定してください')
    .max(100, '件数は100以下で指定してください')
    .default(fallback)

/** GET /cdp-customer-list: `count` customers of the segment from `offset` (default 10). */
export const ZCustomerListQuery = z.object({
  segmentId: ZPlatformId('セグメントID'),
  offset: ZOffset,
  count: ZCount(CDP_CUSTOMER_PAGE_SIZE),
})

const ZMoneyAmount = z.object({ currencyCode: z.string(), amount: z.number(), orderCount: z.number().int() })

export const ZCdpCustomerRow = z.object({
  id: z.string(),
  displayName: z.string(),
  email: z.string().nullable(),
  tags: z.array(z.string()),
  orderCount: z.number().int(),
  /** Lifetime totals per currency (never summed across currencies). */
  lifetime: z.array(ZMoneyAmount),
  firstOrderAt: z.string().nullable(),
})
export type CdpCustomerRow = z.infer<typeof ZCdpCustomerRow>

/** The page, whether another follows, and the 1-based range it covers (1〜10件). */
export const ZCustomerList = z.object({
  customers: z.array(ZCdpCustomerRow),
  hasNext: z.boolean(),
  range: z.object({ from: z.number().int(), to: z.number().int() }),
})
export type CustomerList = z.infer<typeof ZCustomerList>

/** POST /cdp-customer-list-export: the segment's customers as CSV, mailed to `email`. */
export const ZCustomerListExportRequest = z.strictObject(
  {
    segmentId: ZPlatformId('セグメントID'),
    email: ZText('メールアドレス', { max: 254 }).pipe(
      z.email({ error: 'メールアドレスの形式が正しくありません' }),
    ),
    encoding: ZExportEncoding.default('utf-8'),
  },
  unknownKeys,
)
export type CustomerListExportRequest = z.input<typeof ZCustomerListExportRequest>
/** 202: the export is recorded and queued; the job writes the CSV and mails it. */
export const ZCustomerListExport = z.object({ exportJob: ZSegmentExportJob })
export type CustomerListExport = z.infer<typeof ZCustomerListExport>

/**
 * GET /ltv/cdp-customer-list and /ltv/cdp-customer-list-export: calendar days in the shop's
 * zone, inclusive, read like every analytics call's (`2026-1-5`, spec §9) with the same range rules.
 */
export const ZLtvQuery = withReportRange(
  z.object({ ...reportRangeShape, offset: ZOffset, count: ZCount(50) }),
)
export const ZLtvExportQuery = withReportRange(
  z.object({ ...reportRangeShape, encoding: ZExportEncoding.default('utf-8') }),
)

export const ZLtvRow = z.object({
  customerId: z.string(),
  displayName: z.string(),
  email: z.string().nullable(),
  currencyCode: z.string(),
  ltv: z.number(),
  orderCount: z.number().int(),
})
export type LtvRow = z.infer<typeof ZLtvRow>

/** Spec §3 LTV: list, maxLtv (bar scale), currencyCode (the shop's), errors (spec §8). */
export const ZLtvList = z.object({
  list: z.array(ZLtvRow),
  maxLtv: z.number(),
  currencyCode: z.string(),
  errors: z.array(
    z.object({
      customerId: z.string(),
      displayName: z.string(),
      currencyCodes: z.array(z.string()),
      message: z.string(),
    }),
  ),
  total: z.number().int(),
  hasNext: z.boolean(),
})
export type LtvList = z.infer<typeof ZLtvList>

export const ZCustomerIdQuery = z.object({ customerId: ZPlatformId('顧客ID') })

export const ZCustomerData = z.object({
  customer: z.object({
    id: z.string(),
    displayName: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    address: z.string().nullable(),
    tags: z.array(z.string()),
    createdAt: z.string().nullable(),
  }),
  contracts: z.array(
    z.object({
      id: z.string(),
      status: ZSubscriptionStatus,
      nextBillingDate: z.string().nullable(),
      orderCount: z.number().int(),
      currencyCode: z.string(),
      items: z.string(),
      createdAt: z.string(),
    }),
  ),
  orders: z.array(
    z.object({
      id: z.string(),
      name: z.string().nullable(),
      contractId: z.string().nullable(),
      amount: z.number().nullable(),
      /** Refunded of it so far (0 when none); LTV and the lifetime totals count amount − refunded. */
      refunded: z.number(),
      currencyCode: z.string().nullable(),
      test: z.boolean(),
      cancelled: z.boolean(),
      createdAt: z.string(),
    }),
  ),
  lifetime: z.array(ZMoneyAmount),
  firstOrderAt: z.string().nullable(),
})
export type CustomerData = z.infer<typeof ZCustomerData>

export const LOG_KINDS = ['contract', 'billing', 'mail', 'tag'] as const
export const ZCustomerLog = z.object({
  entries: z.array(
    z.object({
      at: z.string(),
      kind: z.enum(LOG_KINDS),
      /** What happened, in Japanese. */
      title: z.string(),
      detail: z.string().nullable(),
      contractId: z.string().nullable(),
      /** Who made a contract change: お客様 (on マイページ) or ストア (the app's screens); null otherwise. */
      by: z.string().nullable(),
    }),
  ),
})
export type CustomerLog = z.infer<typeof ZCustomerLog>

/**
 * POST /cdp-customer-tag-add/: tags for one customer (`customerId`, answered with their tags),
 * or one tag for every customer of a segment (`segmentId`, answered 202 with the batch job).
 */
export const ZTagAddRequest = z
  .strictObject(
    {
      customerId: ZPlatformId('顧客ID').optional(),
      segmentId: ZPlatformId('セグメントID').optional(),
      tags: z.array(ZTag).min(1, 'タグを入力してください').max(50, 'タグは50件までです'),
    },
    unknownKeys,
  )
  .refine((b) => (b.customerId === undefined) !== (b.segmentId === undefined), {
    error: '顧客IDかセグメントIDのどちらか一方を指定してください',
  })
  .refine((b) => b.customerId !== undefined || b.tags.length === 1, {
    error: 'セグメントの顧客に一括で追加するタグは1件ずつ指定してください',
  })
export type TagAddRequest = z.input<typeof ZTagAddRequest>

/** POST /cdp-customer-tag-delete/: tags removed from one customer. */
export const ZTagDeleteRequest = z.strictObject(
  {
    customerId: ZPlatformId('顧客ID'),
    tags: z.array(ZTag).min(1, 'タグを入力してください').max(50, 'タグは50件までです'),
  },
  unknownKeys,
)
export type TagDeleteRequest = z.input<typeof ZTagDeleteRequest>

export const ZCustomerTags = z.object({ customerId: z.string(), tags: z.array(z.string()) })
export type CustomerTags = z.infer<typeof ZCustomerTags>
export const ZTagJobAccepted = z.object({ tagJob: ZTagJob })
