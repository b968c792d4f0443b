/** One of the app's own plans (プラン): a monthly price in yen and a free trial. */
export type AppPlanDefinition = {
  key: AppPlanKey
  name: string
  /** Yen per 30 days. */
  monthlyPrice: number
  trialDays: number
}

export type AppPlanKey = 'light' | 'standard' | 'pro'

/** The catalogue, cheapest first: each plan includes every feature of the plans before it. */
export const APP_PLANS: readonly AppPlanDefinition[] = [
  { key: 'light', name: 'ライト', monthlyPrice: 4980, trialDays: 14 },
  { key: 'standard', name: 'スタンダード', monthlyPrice: 9800, trialDays: 14 },
  { key: 'pro', name: 'プロ', monthlyPrice: 29800, trialDays: 14 },
]

/** The plan an app subscription's name stands for (`Teiki プロ`), or null. */
export function appPlanByName(name: string | null | undefined): AppPlanDefinition | null {
  if (!name) return null
  return APP_PLANS.find((p) => name === appSubscriptionName(p)) ?? null
}

export function appPlanByKey(key: AppPlanKey): AppPlanDefinition {
  return APP_PLANS.find((p) => p.key === key)!
}

/** What the platform is asked to create for a plan: the subscription's name. */
export const appSubscriptionName = (plan: AppPlanDefinition) => `Teiki ${plan.name}`

/** 「スタンダードプラン」: a catalogue plan as the merchant reads it. */
export const planLabel = (plan: AppPlanDefinition) => `${plan.name}プラン`

/**
 * Spec §5: delivery prep days may be updated if the plan allows it or fewer than 5 contracts
 * exist. `contractCount` may be counted only up to 5.
 */
export function deliveryPrepDaysUpdatable(planAllows: boolean, contractCount: number): boolean {
  return planAllows || contractCount < DELIVERY_PREP_CONTRACT_THRESHOLD
}

export const DELIVERY_PREP_CONTRACT_THRESHOLD = 5
