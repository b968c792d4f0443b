import { z } from 'zod'

export const ZAppPlan = z.object({
  /** The platform's subscription id (numeric part); absent in records stored before it was kept. */
  id: z.string().optional(),
  /** The subscription's name as the platform has it (`Teiki スタンダード`). */
  name: z.string(),
  status: z.enum(['ACTIVE', 'PENDING', 'CANCELLED', 'DECLINED', 'EXPIRED', 'FROZEN', 'ACCEPTED']),
  /** Recurring price as the platform gives it: a decimal string ("4980.0") and its currency. */
  price: z.object({ amount: z.string(), currencyCode: z.string() }).nullable(),
  trialDays: z.number().int().nullable(),
  currentPeriodEnd: z.string().nullable(),
  test: z.boolean(),
})
export type AppPlan = z.infer<typeof ZAppPlan>

/** GET /plan: the app's own plan for this shop. */
export const ZPlanResponse = z.object({
  currentPlan: ZAppPlan.nullable(),
  isActive: z.boolean(),
  /**
   * The catalogue plan (`GET /plans`) the current plan is, by its name; null when the platform
   * reports a plan the catalogue does not have (or none).
   */
  catalogueKey: z.enum(['light', 'standard', 'pro']).nullable(),
  /** The platform plan of the shop (e.g. "Basic", "Shopify Plus"). */
  shopifyPlan: z.string().nullable(),
})
export type PlanResponse = z.infer<typeof ZPlanResponse>

/** GET /app-scope-eligibility: false with a redirect_uri when the app must be updated (new scopes). */
export const ZEligibilityResponse = z.object({ eligible: z.boolean(), redirect_uri: z.string().nullable() })
export type EligibilityResponse = z.infer<typeof ZEligibilityResponse>

/**
 * GET /order-history: how much of the shop's order history the app holds. The platform gives an
 * app the last 60 days of orders unless the merchant granted `read_all_orders`; figures built on
 * orders (分析, 継続率, LTV, 顧客詳細) are complete from `completeFrom` on.
 */
export const ZOrderHistoryResponse = z.object({
  /** Every order of the shop is in the app's figures. */
  complete: z.boolean(),
  /** The first shop-local day (`YYYY-MM-DD`) all of whose orders the app holds; null when complete. */
  completeFrom: z.string().nullable(),
  /** 「2026年9月28日以降の注文に基づく集計です」; null when complete. */
  message: z.string().nullable(),
  /** Why, and what would bring the older orders in; null when complete. */
  detail: z.string().nullable(),
  /** read_all_orders was granted since, and the older orders are being read now. */
  readingOlderOrders: z.boolean(),
})
export type OrderHistoryResponse = z.infer<typeof ZOrderHistoryResponse>

export const ZShopCurrencyResponse = z.object({ currencyCode: z.string() })
export const ZDomainResponse = z.object({ domain: z.string(), url: z.string() })
export const ZHealthResponse = z.object({ ok: z.literal(true) })
