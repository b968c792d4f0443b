import { z } from 'zod'

/** The app's own plans (プラン): monthly price in yen and a free trial. */
export const APP_PLAN_KEYS = ['light', 'standard', 'pro'] as const
export type AppPlanKey = (typeof APP_PLAN_KEYS)[number]

/**
 * A feature of the plans (`analytics`, `csvExport`, `customerData`…): the keys and which plan
 * includes which are the tier table of packages/domain (`APP_FEATURES`), written there once.
 */
const ZAppFeatureKey = z.string().describe('packages/domain APP_FEATURE_KEYS')

export const ZAppPlanOffer = z.object({
  key: z.enum(APP_PLAN_KEYS),
  name: z.string(),
  /** Yen per 30 days, whole. */
  monthlyPrice: z.number().int(),
  trialDays: z.number().int(),
  /** The card's lines, from the tier table. */
  features: z.array(z.string()),
  /** Every feature the plan includes (its own and the cheaper plans'). */
  featureKeys: z.array(ZAppFeatureKey),
})
export type AppPlanOffer = z.infer<typeof ZAppPlanOffer>

/** GET /plans: what the merchant may choose. */
export const ZAppPlanOffers = z.object({ plans: z.array(ZAppPlanOffer) })

/**
 * PUT /plan: the plan chosen (`plan`, spec §3). `mobile`: the merchant is in the platform's
 * mobile app (App Bridge `shopify.environment.mobile`), where a page outside the admin has no
 * session: the platform is then asked to send them back into the admin's app (ADR 0029).
 */
export const ZPlanChangeBody = z.object({
  plan: z.enum(APP_PLAN_KEYS, { error: `プランは ${APP_PLAN_KEYS.join('、')} のいずれかで指定してください` }),
  mobile: z.boolean({ error: 'mobile は true か false で指定してください' }).optional(),
})
export type PlanChangeBody = z.input<typeof ZPlanChangeBody>

/** PUT /plan: where the merchant approves the charge on the platform. */
export const ZPlanChangeResponse = z.object({ confirmationUrl: z.string() })
export type PlanChangeResponse = z.infer<typeof ZPlanChangeResponse>

/** GET /shopifyPlan: the shop's plan on the platform. */
export const ZShopifyPlanResponse = z.object({
  displayName: z.string(),
  partnerDevelopment: z.boolean(),
  shopifyPlus: z.boolean(),
})

/**
 * GET /app-usage-eligibility: may the shop use the app (an active plan, a development or test
 * shop) and which features; the page gate reads it on every page load (ADR 0029).
 */
export const ZAppUsageEligibility = z.object({
  eligible: z.boolean(),
  /** Why, in Japanese (the plan was cancelled, declined, frozen…); null when there is nothing to say. */
  reason: z.string().nullable(),
  basis: z.enum(['plan', 'unlisted_plan', 'development_shop', 'test_shop', 'no_plan']),
  /** A heading for the reason. */
  title: z.string().nullable(),
  features: z.array(ZAppFeatureKey),
  /** The catalogue plan held (ACTIVE), else null. */
  planKey: z.enum(APP_PLAN_KEYS).nullable(),
})
export type AppUsageEligibility = z.infer<typeof ZAppUsageEligibility>

/** GET /shop-eligibility (spec §8: false on any failure). */
export const ZShopEligibility = z.object({ eligible: z.boolean() })

/** GET /app-handle: the app's handle in the admin (`/admin/apps/<handle>`). */
export const ZAppHandleResponse = z.object({ handle: z.string(), appUrl: z.string() })
