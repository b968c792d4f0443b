import { APP_PLANS, type AppPlanDefinition, type AppPlanKey, appPlanByKey, planLabel } from './plans.ts'

/**
 * The tier table (ADR 0029): which plan first includes each feature. A plan includes its own
 * features and those of every cheaper plan. The plan cards (プラン), the server's refusals
 * (403 on every route of a feature) and the screens' upgrade prompts all read this table.
 */
export const APP_FEATURE_KEYS = [
  'contracts',
  'sellingPlans',
  'mailTemplates',
  'analytics',
  'csvExport',
  'deliveryPrepDays',
  'customerData',
] as const
export type AppFeatureKey = (typeof APP_FEATURE_KEYS)[number]

export type AppFeature = {
  key: AppFeatureKey
  /** The feature as messages name it: 「分析・レポートはスタンダードプランからご利用いただけます」. */
  name: string
  /** What it covers, on the plan card. */
  detail: string | null
  /** The cheapest plan that includes it. */
  plan: AppPlanKey
}

export const APP_FEATURES: readonly AppFeature[] = [
  { key: 'contracts', name: '定期購買契約の管理', detail: null, plan: 'light' },
  { key: 'sellingPlans', name: '販売プラン・ボックス', detail: null, plan: 'light' },
  { key: 'mailTemplates', name: 'メールテンプレート', detail: null, plan: 'light' },
  { key: 'analytics', name: '分析・レポート', detail: '分析・継続率・流入元', plan: 'standard' },
  { key: 'csvExport', name: 'CSVエクスポート', detail: '契約一覧', plan: 'standard' },
  {
    key: 'deliveryPrepDays',
    name: 'お届け準備期間の変更',
    detail: '契約数にかかわらず',
    plan: 'pro',
  },
  { key: 'customerData', name: '顧客データ分析', detail: 'セグメント・顧客詳細・LTV', plan: 'pro' },
]

const rank = (key: AppPlanKey) => APP_PLANS.findIndex((p) => p.key === key)

export function appFeature(key: AppFeatureKey): AppFeature {
  return APP_FEATURES.find((f) => f.key === key)!
}

/** Every feature the plan includes (its own and the cheaper plans'). */
export function featuresOfPlan(key: AppPlanKey): AppFeatureKey[] {
  return APP_FEATURES.filter((f) => rank(f.plan) <= rank(key)).map((f) => f.key)
}

/** The cheapest plan that includes the feature. */
export function planForFeature(key: AppFeatureKey): AppPlanDefinition {
  return appPlanByKey(appFeature(key).plan)
}

const featureLine = (f: AppFeature) => (f.detail ? `${f.name}（${f.detail}）` : f.name)

/**
 * The lines of a plan's card: the cheaper plan's features as one line, then the plan's own.
 * 「ライトの全機能」「分析・レポート（分析・継続率・流入元）」「CSVエクスポート（契約一覧）」
 */
export function planFeatureLines(key: AppPlanKey): string[] {
  const below = APP_PLANS[rank(key) - 1]
  const own = APP_FEATURES.filter((f) => f.plan === key).map(featureLine)
  return below ? [`${below.name}の全機能`, ...own] : own
}

/**
 * Why a feature is refused, naming the plan that includes it (the server's 403 and the screen's
 * upgrade prompt say the same): 「分析・レポートはスタンダードプランからご利用いただけます（現在のプラン:
 * ライトプラン）」.
 */
export function featureRefusal(key: AppFeatureKey, current: string | null): string {
  const needed = planLabel(planForFeature(key))
  const now = current ? `（現在のプラン: ${current}）` : ''
  return `${appFeature(key).name}は${needed}からご利用いただけます${now}。`
}
