import type { AppPlanKey, PlanResponse } from '@teiki/contract'
import { appPlanByKey, formatMoney } from '@teiki/domain'

/** The current plan as プラン shows it. */
export type CurrentPlanView = {
  /** As the catalogue names it (スタンダード), or the platform's own name for a plan it does not have. */
  name: string
  listed: boolean
  /** What the platform charges: 「¥9,800／月」. */
  monthly: string | null
  /** What the merchant should know about the name or the price, else null. */
  note: string | null
}

/**
 * The current plan named and priced as the catalogue names it (the cards below say the same);
 * a plan the catalogue does not have is shown by the platform's name, and said so; a price the
 * platform charges that is not the catalogue's (a plan approved at an earlier price) is said so.
 */
export function currentPlanView(data: PlanResponse): CurrentPlanView | null {
  const plan = data.currentPlan
  if (!plan) return null
  const charged = plan.price ? formatMoney(plan.price.amount, plan.price.currencyCode) : null
  if (!data.catalogueKey)
    return {
      name: plan.name,
      listed: false,
      monthly: charged ? `${charged}／月` : null,
      note: `「${plan.name}」は現在のプラン一覧にないプランです（以前の料金体系など）。料金はストアのご請求のとおりです。`,
    }
  const listed = appPlanByKey(data.catalogueKey)
  const price = formatMoney(listed.monthlyPrice, 'JPY')
  return {
    name: listed.name,
    listed: true,
    monthly: `${charged ?? price}／月`,
    note: charged && charged !== price ? `ご契約時の料金です（現在の一覧の料金は ${price}／月）。` : null,
  }
}

/** The plan held (active) shows 現在のプラン on its card; every other card offers the change. */
export function offerAction(key: AppPlanKey, data: Pick<PlanResponse, 'isActive' | 'catalogueKey'>) {
  return data.isActive && data.catalogueKey === key ? ('current' as const) : ('choose' as const)
}

/** Inside the platform's mobile app (App Bridge), where the approval must return into the admin. */
export const inMobileAdmin = () =>
  typeof window !== 'undefined' && window.shopify?.environment?.mobile === true
