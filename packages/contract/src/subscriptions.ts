import { dateProblem } from '@teiki/domain'
import { z } from 'zod'
import { gidNumber, isPlatformId, ZPlatformId, ZText } from './primitives.ts'

export const SUBSCRIPTION_STATUSES = ['ACTIVE', 'FAILED', 'PAUSED', 'EXPIRED', 'CANCELLED'] as const
export const ZSubscriptionStatus = z.enum(SUBSCRIPTION_STATUSES)
export type SubscriptionStatus = z.infer<typeof ZSubscriptionStatus>

/**
 * Comma-separated statuses as text, e.g. `ACTIVE,PAUSED`: case-insensitive, trimmed and
 * de-duplicated. Empty means all.
 */
export const ZStatusListText = (label: string) =>
  ZText(label, { max: 200 }).transform((value, ctx) => {
    const parts = value
      .split(',')
      .map((part) => part.trim().toUpperCase())
      .filter(Boolean)
    for (const part of parts) {
      if (!ZSubscriptionStatus.safeParse(part).success) {
        ctx.addIssue({ code: 'custom', message: `不明なステータスです: ${part}` })
        return z.NEVER
      }
    }
    return [...new Set(parts)] as SubscriptionStatus[]
  })

/** Statuses in a query string; absent means all. */
const ZStatusList = ZStatusListText('ステータス')
  .optional()
  .transform((value) => value ?? [])

const YMD = /^\d{4}-\d{2}-\d{2}$/

/**
 * A calendar date `YYYY-MM-DD` that exists, read in the shop's zone (Japan time for Japanese
 * shops): `2026-13-45` is refused with 「2026年13月45日は存在しない日付です」, never dropped or
 * read as another day.
 */
export const ZDate = z
  .string()
  .regex(YMD, '日付は YYYY-MM-DD の形式で指定してください')
  .superRefine((value, ctx) => {
    const problem = YMD.test(value) ? dateProblem(value) : null
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })

const ZPaging = {
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(10),
}

export const ZSearchSubscriptionsQuery = z.object({
  nextBillingDateFrom: ZDate.optional(),
  nextBillingDateTo: ZDate.optional(),
  statuses: ZStatusList,
  ...ZPaging,
  /** A numeric contract id (the classifier's "contract" kind). */
  contractId: ZPlatformId('契約ID').optional(),
  /** Free customer input (the classifier's "customer" kind): e-mail, phone or name. */
  customerQuery: ZText('検索語', { max: 200 }).min(1, '検索語を入力してください').optional(),
})
export type SearchSubscriptionsQuery = z.input<typeof ZSearchSubscriptionsQuery>

const VARIANT_ID_MESSAGE =
  'バリエーションIDは14桁の数字（または gid://shopify/ProductVariant/…）で指定してください'

export const ZSearchVariantQuery = z.object({
  /** 14 digits (spec §5), or the variant's gid, whose number may have any length. */
  variantId: z
    .string({ error: 'バリエーションIDを指定してください' })
    .max(64, VARIANT_ID_MESSAGE)
    .transform((value, ctx) => {
      const fromGid = gidNumber('ProductVariant', value)
      if (fromGid ? isPlatformId(fromGid) : /^[1-9][0-9]{13}$/.test(value)) return fromGid ?? value
      ctx.addIssue({ code: 'custom', message: VARIANT_ID_MESSAGE })
      return z.NEVER
    }),
  statuses: ZStatusList,
  ...ZPaging,
})
export type SearchVariantQuery = z.input<typeof ZSearchVariantQuery>

export const ZSubscriptionRow = z.object({
  status: ZSubscriptionStatus,
  customerId: z.string(),
  displayName: z.string(),
  contractId: z.string(),
  /** ISO 8601 instant; the UI shows it as a Japan-time date. */
  nextBillingDate: z.string().nullable(),
  /** Opaque position of the row, stable for the same query. */
  cursor: z.string(),
})
export type SubscriptionRow = z.infer<typeof ZSubscriptionRow>

export const ZPageInfo = z.object({ hasNextPage: z.boolean(), hasPreviousPage: z.boolean() })

/**
 * How many contracts match, as the platform's own `Count` says it: exact, or AT_LEAST when the
 * count stopped at its limit (ADR 0004: counting a 100k-contract shop on every page would cost
 * more than the page itself).
 */
export const ZSearchTotal = z.object({
  count: z.number().int(),
  precision: z.enum(['EXACT', 'AT_LEAST']),
})
export type SearchTotal = z.infer<typeof ZSearchTotal>

/** GET /subscriptions/latest: the shop's newest contract (optionally of these statuses). */
export const ZLatestSubscriptionQuery = z.object({ statuses: ZStatusList })
/** The newest contract as a list row (spec §3 "Search list row"); null when the shop has none. */
export const ZLatestSubscription = z.object({ subscription: ZSubscriptionRow.nullable() })
export type LatestSubscription = z.infer<typeof ZLatestSubscription>

export const ZSearchSubscriptionsResponse = z.object({
  subscriptions: z.array(ZSubscriptionRow),
  pageInfo: ZPageInfo,
  offset: z.number().int(),
  limit: z.number().int(),
  total: ZSearchTotal,
})
export type SearchSubscriptionsResponse = z.infer<typeof ZSearchSubscriptionsResponse>
