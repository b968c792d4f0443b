import { z } from 'zod'

export const SUBSCRIPTION_STATUSES = ['ACTIVE', 'FAILED', 'PAUSED', 'EXPIRED', 'CANCELLED'] as const
export const ZSubscriptionStatus = z.enum(SUBSCRIPTION_STATUSES)
export type SubscriptionStatus = z.infer<typeof ZSubscriptionStatus>

/** Comma-separated statuses in a query string, e.g. `ACTIVE,PAUSED`. Empty means all. */
const ZStatusList = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (!value) return [] as SubscriptionStatus[]
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

/** A calendar date `YYYY-MM-DD`, read in the shop's zone (Japan time for Japanese shops). */
export const ZDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '日付は YYYY-MM-DD の形式で指定してください')

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
  contractId: z
    .string()
    .regex(/^\d{1,20}$/, '契約IDは数字で指定してください')
    .optional(),
  /** Free customer input (the classifier's "customer" kind): e-mail, phone or name. */
  customerQuery: z.string().trim().min(1).max(200).optional(),
})
export type SearchSubscriptionsQuery = z.input<typeof ZSearchSubscriptionsQuery>

export const ZSearchVariantQuery = z.object({
  variantId: z.string().regex(/^\d{14}$/, 'バリエーションIDは14桁の数字で指定してください'),
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

export const ZSearchSubscriptionsResponse = z.object({
  subscriptions: z.array(ZSubscriptionRow),
  pageInfo: ZPageInfo,
  offset: z.number().int(),
  limit: z.number().int(),
  total: ZSearchTotal,
})
export type SearchSubscriptionsResponse = z.infer<typeof ZSearchSubscriptionsResponse>
