import { z } from 'zod'
import { ZPlatformId, ZText } from './primitives.ts'

// Reports (spec §3 "Daily count", "Sales series", "Persistence data"; §7 "Reports",
// /subscriptions/persistence-rate; §9 periods and dates). Days are the shop's local calendar
// days; calls send them without zero padding (`2026-1-5`), answers carry `YYYY-MM-DD`.

/** Longest range a report answers, in days (the cumulative view from 2020-01-01 is ~7 years). */
export const REPORT_MAX_DAYS = 3700
const EARLIEST = '2000-01-01'

const pad2 = (n: number) => String(n).padStart(2, '0')

/** `2026-1-5` / `2026-01-05` → `2026-01-05`, or null when no such day. */
export function reportDay(text: string): string | null {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text)
  if (!m) return null
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const t = new Date(Date.UTC(2000, mo - 1, d))
  t.setUTCFullYear(y)
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d) return null
  return `${m[1]}-${pad2(mo)}-${pad2(d)}`
}

/**
 * A day of an analytics call (reports, persistence, traffic, LTV, cancellation reasons): spec §9
 * sends them unpadded (`2026-1-5`), a padded `2026-01-05` is the same day; answered as
 * `YYYY-MM-DD`. The one reader of such days: every analytics path takes its dates through it.
 */
export const ZAnalyticsDay = (label: string) =>
  z.string({ error: `${label}を指定してください` }).transform((value, ctx) => {
    const day = value.length <= 10 ? reportDay(value) : null
    if (day) return day
    ctx.addIssue({
      code: 'custom',
      message: /^\d{4}-\d{1,2}-\d{1,2}$/.test(value)
        ? `${label}に存在しない日付が指定されました`
        : `${label}は 2026-1-5 の形で指定してください`,
    })
    return z.NEVER
  })

const spanDays = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1

const rangeShape = { startDate: ZAnalyticsDay('開始日'), endDate: ZAnalyticsDay('終了日') }

/** The range rules on any query with startDate and endDate: in order, from 2000, at most ~10 years. */
export function withReportRange<T extends z.ZodObject<typeof rangeShape & z.ZodRawShape>>(schema: T) {
  return schema.superRefine((q, ctx) => {
    const { startDate, endDate } = q as { startDate: string; endDate: string }
    if (startDate > endDate)
      ctx.addIssue({
        code: 'custom',
        message: '開始日は終了日以前の日付を指定してください',
        path: ['startDate'],
      })
    else if (startDate < EARLIEST)
      ctx.addIssue({
        code: 'custom',
        message: '開始日は2000年1月1日以降を指定してください',
        path: ['startDate'],
      })
    else if (spanDays(startDate, endDate) > REPORT_MAX_DAYS)
      ctx.addIssue({
        code: 'custom',
        message: `期間は${REPORT_MAX_DAYS}日以内で指定してください`,
        path: ['endDate'],
      })
  })
}

/** startDate and endDate of every report call: both required. */
export const ZReportRangeQuery = withReportRange(z.object(rangeShape))
export const reportRangeShape = rangeShape
export type ReportRangeQuery = z.infer<typeof ZReportRangeQuery>

const ZCurrency = z.string().regex(/^[A-Z]{3}$/, '通貨は3文字の通貨コード（例: JPY）で指定してください')

/** daily-report/subtotal and cumulative/subtotal: optionally one currency. */
export const ZSubtotalQuery = withReportRange(z.object({ ...rangeShape, currency: ZCurrency.optional() }))
export type SubtotalQuery = z.infer<typeof ZSubtotalQuery>

/** current/active-contract: the range is optional (the figure is the current one). */
export const ZCurrentQuery = z.object({
  startDate: ZAnalyticsDay('開始日').optional(),
  endDate: ZAnalyticsDay('終了日').optional(),
})

/** Spec §3 "Daily count": one per day of the range (0 on days without facts). */
export const ZDailyCount = z.object({ date: z.string(), count: z.number().int() })
export type DailyCount = z.infer<typeof ZDailyCount>
export const ZDailyCounts = z.array(ZDailyCount)

/** Spec §3 "Sales series": one per day and currency (amounts as decimal text of the currency). */
export const ZSalesPoint = z.object({
  date: z.string(),
  sales: z.string(),
  currency: z.string(),
  orders: z.number().int(),
})
export type SalesPoint = z.infer<typeof ZSalesPoint>
export const ZSalesSeries = z.array(ZSalesPoint)

/** subtotal/currency: the currencies sold in during the range, most sales first. */
export const ZCurrencyList = z.array(
  z.object({ currency: z.string(), sales: z.string(), orders: z.number().int() }),
)

/** current/active-contract: contracts in ACTIVE now, and the shop-local day it is. */
export const ZCurrentCount = z.object({ date: z.string(), count: z.number().int() })

/** GET /subscriptions/persistence-rate (spec §7). */
export const ZPersistenceQuery = z.object({
  baseDate: ZAnalyticsDay('基準日'),
  sellingPlanGroupId: ZPlatformId('販売プランID').optional(),
  sellingPlanId: ZPlatformId('プランID').optional(),
  source: ZText('流入元', { max: 200 }).optional(),
  medium: ZText('メディア', { max: 200 }).optional(),
})
export type PersistenceQuery = z.infer<typeof ZPersistenceQuery>

/** Spec §3 "Persistence data": per cohort month (targetDate), order counts 1–12. */
export const ZPersistenceRow = z.object({
  targetDate: z.string(),
  contracts: z.number().int(),
  entries: z.array(
    z.object({
      orderCount: z.number().int(),
      count: z.number().int(),
      rate: z.number(),
      percent: z.string(),
    }),
  ),
})
export const ZPersistenceRate = z.object({ rows: z.array(ZPersistenceRow) })
export type PersistenceRate = z.infer<typeof ZPersistenceRate>
