import { z } from 'zod'

/**
 * Billing engine settings and views (issue 5). Dunning defaults follow Shopify's own
 * subscriptions app: 3 retries 7 days apart then cancel; inventory failures 5 retries 1 day
 * apart then skip the cycle.
 */

export const FINAL_ACTIONS = ['CANCEL', 'PAUSE', 'SKIP'] as const
export const ZFinalAction = z.enum(FINAL_ACTIONS, {
  error: '最終処理は 解約・一時停止・スキップ のいずれかを指定してください',
})
export type FinalAction = z.infer<typeof ZFinalAction>

const int = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label}を数値で指定してください` })
    .int(`${label}は整数で指定してください`)
    .min(min, `${label}は${min}以上で指定してください`)
    .max(max, `${label}は${max}以下で指定してください`)

/** GET /app-admin/billing-settings answers this; PUT takes it whole. */
export const ZBillingSettings = z.object({
  /** Local hour (shop's zone) the daily billing run starts at. */
  billingHour: int('請求時刻', 0, 23),
  /** A run also bills contracts that were due this many days ago and were missed. */
  lookbackDays: int('さかのぼる日数', 0, 14),
  /** Payment failures: retries after the first attempt, days between them, then the final action. */
  retryAttempts: int('再試行回数', 0, 10),
  retryIntervalDays: int('再試行の間隔', 1, 14),
  finalAction: ZFinalAction,
  /** Out-of-stock failures are retried on their own schedule. */
  inventoryRetryAttempts: int('在庫切れ時の再試行回数', 0, 10),
  inventoryRetryIntervalDays: int('在庫切れ時の再試行の間隔', 1, 14),
  inventoryFinalAction: ZFinalAction,
  /** お届け準備期間: the next delivery date is the billing date plus these days. */
  deliveryPrepDays: int('お届け準備期間', 0, 30),
})
export type BillingSettings = z.infer<typeof ZBillingSettings>

export const DEFAULT_BILLING_SETTINGS: BillingSettings = {
  billingHour: 10,
  lookbackDays: 2,
  retryAttempts: 3,
  retryIntervalDays: 7,
  finalAction: 'CANCEL',
  inventoryRetryAttempts: 5,
  inventoryRetryIntervalDays: 1,
  inventoryFinalAction: 'SKIP',
  deliveryPrepDays: 0,
}

/** GET /app-admin/billing/upcoming?days=7: contracts to be billed soon, with totals. */
export const ZUpcomingChargesQuery = z.object({
  days: z.coerce
    .number()
    .int()
    .min(1, '日数は1以上で指定してください')
    .max(31, '日数は31以下で指定してください')
    .default(7),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(20),
})

const ZMoney = z.object({ amount: z.string(), currencyCode: z.string() })

export const ZUpcomingCharge = z.object({
  contractId: z.string(),
  customerId: z.string(),
  displayName: z.string(),
  /** ISO instant of the charge. */
  nextBillingDate: z.string(),
  /** This cycle's amount: line prices for the cycle × quantities, plus delivery. */
  amount: ZMoney,
  /** 1-based index of the cycle about to be billed. */
  cycle: z.number().int(),
  /** A failed cycle waiting for its retry. */
  isRetry: z.boolean(),
  /**
   * Set when the charge waits for the customer's 3-D Secure (本人認証待ち): the ISO instant
   * until which the customer may authenticate; `nextBillingDate` is then the cycle's due date.
   */
  authenticationDeadline: z.string().nullable(),
})

export const ZUpcomingChargesResponse = z.object({
  /** Japan-time (shop zone) calendar range covered, inclusive. */
  from: z.string(),
  to: z.string(),
  totals: z.array(z.object({ currencyCode: z.string(), amount: z.string(), count: z.number().int() })),
  charges: z.array(ZUpcomingCharge),
  total: z.number().int(),
})
export type UpcomingChargesResponse = z.infer<typeof ZUpcomingChargesResponse>

/** What one billing run did (the `npm run billing` summary and GET /app-admin/billing/runs). */
export const ZBillingRunSummary = z.object({
  shop: z.string(),
  now: z.string(),
  due: z.number().int(),
  attempted: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  alreadyBilled: z.number().int(),
})
export type BillingRunSummary = z.infer<typeof ZBillingRunSummary>

/** One run as GET /app-admin/billing/runs lists it: the summary plus when and why it ran. */
export const ZBillingRun = ZBillingRunSummary.extend({
  id: z.string(),
  /** `resume`: started to finish a run whose process stopped mid-way (that one is `abortedAt`). */
  trigger: z.enum(['schedule', 'cli', 'manual', 'resume']),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** The run's process stopped mid-way (killed, crashed): shown as 中断; a resume run continues it. */
  abortedAt: z.string().nullable(),
  error: z.string().nullable(),
})
export type BillingRun = z.infer<typeof ZBillingRun>
/** How many of the latest billing runs to list (the run log, newest first). */
export const ZBillingRunsQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1, '件数は1以上で指定してください')
    .max(100, '件数は100以下で指定してください')
    .default(20),
})

export const ZBillingRunsResponse = z.object({ runs: z.array(ZBillingRun) })
export type BillingRunsResponse = z.infer<typeof ZBillingRunsResponse>
