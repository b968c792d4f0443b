import { APP_FEATURE_KEYS, type AppFeatureKey, featuresOfPlan } from './features.ts'
import { type AppPlanKey, appPlanByName, planLabel } from './plans.ts'

/** The app plan as the app last learnt it from the platform (any status). */
export type HeldPlan = { name: string; status: string }

export type UsageInput = {
  plan: HeldPlan | null
  /** The operator's `test_shop` flag (spec §6). */
  testShop: boolean
  /** A partner development store (`shop.plan.partnerDevelopment`): it can only be charged test charges. */
  developmentShop: boolean
}

/** Why the shop may (or may not) use the app. */
export type UsageBasis = 'plan' | 'unlisted_plan' | 'development_shop' | 'test_shop' | 'no_plan'

/** What `/app-usage-eligibility` answers and every route of a tiered feature checks (ADR 0029). */
export type AppUsage = {
  eligible: boolean
  basis: UsageBasis
  /** A heading for the reason (the プラン page's banner), null when there is nothing to say. */
  title: string | null
  reason: string | null
  features: AppFeatureKey[]
  /** The catalogue plan held (ACTIVE), else null. */
  planKey: AppPlanKey | null
}

/** 「スタンダードプラン」 for a catalogue plan; the platform's own name in brackets otherwise. */
export function heldPlanLabel(name: string): string {
  const plan = appPlanByName(name)
  return plan ? planLabel(plan) : `「${name}」`
}

/** Why a plan that is not ACTIVE does not let the shop in, by the platform's status. */
function lapsed(plan: HeldPlan | null): { title: string; reason: string } {
  if (!plan)
    return { title: '有効なプランがありません', reason: '有効なプランがありません。プランを選んでください' }
  const label = heldPlanLabel(plan.name)
  switch (plan.status) {
    case 'CANCELLED':
      return {
        title: 'プランが解約されました',
        reason: `${label}は解約されました。引き続きご利用いただくには、プランを選んでください。`,
      }
    case 'DECLINED':
      return {
        title: 'プランの料金が承認されませんでした',
        reason: `${label}の料金はストアで承認されませんでした。ご利用いただくには、プランを選んで承認してください。`,
      }
    case 'EXPIRED':
      return {
        title: 'プランの承認期限が過ぎました',
        reason: `${label}の料金は期限（作成から2日）までに承認されませんでした。もう一度プランを選んでください。`,
      }
    case 'FROZEN':
      return {
        title: 'ストアが凍結されているため、プランが停止しています',
        reason: `Shopifyのご請求が未払いのためストアが凍結され、${label}は停止しています。Shopifyの管理画面でご請求をお支払いいただくと、プランは自動で再開します。`,
      }
    default:
      return {
        title: 'プランは承認待ちです',
        reason: `${label}の料金はまだ承認されていません。プランを選び、ストアの承認ページで承認してください。`,
      }
  }
}

const ALL = [...APP_FEATURE_KEYS]

/**
 * May the shop use the app, and which features: an ACTIVE catalogue plan gives its tier; an
 * ACTIVE plan the catalogue does not name (sold by an earlier version) keeps every feature, and
 * says so; a development or test shop passes with every feature while it holds no plan (nothing
 * is billed there); otherwise the shop is kept out, with the reason of the plan's state.
 */
export function appUsage(input: UsageInput): AppUsage {
  const { plan } = input
  if (plan?.status === 'ACTIVE') {
    const listed = appPlanByName(plan.name)
    if (listed)
      return {
        eligible: true,
        basis: 'plan',
        title: null,
        reason: null,
        features: featuresOfPlan(listed.key),
        planKey: listed.key,
      }
    return {
      eligible: true,
      basis: 'unlisted_plan',
      title: 'プラン一覧にないプランです',
      reason: `ご利用中の「${plan.name}」は現在のプラン一覧にないプランです。すべての機能をご利用いただけます。`,
      features: ALL,
      planKey: null,
    }
  }
  const free = (basis: UsageBasis, reason: string): AppUsage => ({
    eligible: true,
    basis,
    title: null,
    reason,
    features: ALL,
    planKey: null,
  })
  if (input.developmentShop) return free('development_shop', '開発ストアのため無料でご利用いただけます')
  if (input.testShop) return free('test_shop', 'テストストアのため無料でご利用いただけます')
  return { eligible: false, basis: 'no_plan', ...lapsed(plan), features: [], planKey: null }
}
