import { z } from 'zod'

/** The app's own plans (プラン): monthly price in yen and a free trial. */
export const APP_PLAN_KEYS = ['light', 'standard', 'pro'] as const
export type AppPlanKey = (typeof APP_PLAN_KEYS)[number]

export const ZAppPlanOffer = z.object({
  key: z.enum(APP_PLAN_KEYS),
  name: z.string(),
  /** Yen per 30 days, whole. */
  monthlyPrice: z.number().int(),
  trialDays: z.number().int(),
  features: z.array(z.string()),
})
export type AppPlanOffer = z.infer<typeof ZAppPlanOffer>

/** GET /plans: what the merchant may choose. */
export const ZAppPlanOffers = z.object({ plans: z.array(ZAppPlanOffer) })

/** PUT /plan: the plan chosen; `plan` as spec §3 names it, `mobile` is the admin app's hint. */
export const ZPlanChangeBody = z.object({
  plan: z.enum(APP_PLAN_KEYS, { error: `プランは ${APP_PLAN_KEYS.join('、')} のいずれかで指定してください` }),
  mobile: z.boolean().optional(),
})
export type PlanChangeBody = z.input<typeof ZPlanChangeBody>

/** PUT /plan: where the merchant approves the charge on the platform. */
export const ZPlanChangeResponse = z.object({ confirmationUrl: z.string() })

/** GET /shopifyPlan: the shop's plan on the platform. */
export const ZShopifyPlanResponse = z.object({
  displayName: z.string(),
  partnerDevelopment: z.boolean(),
  shopifyPlus: z.boolean(),
})

/** GET /app-usage-eligibility: may the shop use the app (an active plan, or a test shop). */
export const ZAppUsageEligibility = z.object({
  eligible: z.boolean(),
  reason: z.string().nullable(),
})

/** GET /shop-eligibility (spec §8: false on any failure). */
export const ZShopEligibility = z.object({ eligible: z.boolean() })

/** GET /app-handle: the app's handle in the admin (`/admin/apps/<handle>`). */
export const ZAppHandleResponse = z.object({ handle: z.string(), appUrl: z.string() })
