/** One of the app's own plans (プラン): a monthly price in yen and a free trial. */
export type AppPlanDefinition = {
  key: 'light' | 'standard' | 'pro'
  name: string
  /** Yen per 30 days. */
  monthlyPrice: number
  trialDays: number
  /** The plan-based flag of spec §6: delivery prep days may be changed whatever the contract count. */
  allowsDeliveryPrepDays: boolean
  features: string[]
}

export const APP_PLANS: readonly AppPlanDefinition[] = [
  {
    key: 'light',
    name: 'ライト',
    monthlyPrice: 4980,
    trialDays: 14,
    allowsDeliveryPrepDays: false,
    features: ['定期購買契約の管理', '販売プラン・ボックス', 'メールテンプレート'],
  },
  {
    key: 'standard',
    name: 'スタンダード',
    monthlyPrice: 9800,
    trialDays: 14,
    allowsDeliveryPrepDays: false,
    features: ['ライトの全機能', '分析・レポート', 'CSVエクスポート'],
  },
  {
    key: 'pro',
    name: 'プロ',
    monthlyPrice: 29800,
    trialDays: 14,
    allowsDeliveryPrepDays: true,
    features: ['スタンダードの全機能', 'お届け準備期間の変更（契約数にかかわらず）', '顧客データ分析'],
  },
]

/** The plan an app subscription's name stands for (`Teiki プロ`), or null. */
export function appPlanByName(name: string | null | undefined): AppPlanDefinition | null {
  if (!name) return null
  return APP_PLANS.find((p) => name === `Teiki ${p.name}`) ?? null
}

/** What the platform is asked to create for a plan: the subscription's name. */
export const appSubscriptionName = (plan: AppPlanDefinition) => `Teiki ${plan.name}`

/**
 * Spec §5: delivery prep days may be updated if the plan allows it or fewer than 5 contracts
 * exist. `contractCount` may be counted only up to 5.
 */
export function deliveryPrepDaysUpdatable(planAllows: boolean, contractCount: number): boolean {
  return planAllows || contractCount < DELIVERY_PREP_CONTRACT_THRESHOLD
}

export const DELIVERY_PREP_CONTRACT_THRESHOLD = 5
