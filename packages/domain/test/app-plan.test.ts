import { describe, expect, it } from 'vitest'
import {
  APP_FEATURES,
  APP_PLANS,
  appUsage,
  featureRefusal,
  featuresOfPlan,
  nextPlanRecord,
  type PlanRecordLike,
  planFeatureLines,
} from '../src/index.ts'

describe('the tier table', () => {
  it('each plan includes its own features and every cheaper plan’s', () => {
    expect(featuresOfPlan('light')).toEqual(['contracts', 'sellingPlans', 'mailTemplates'])
    expect(featuresOfPlan('standard')).toEqual([...featuresOfPlan('light'), 'analytics', 'csvExport'])
    expect(featuresOfPlan('pro')).toEqual([...featuresOfPlan('standard'), 'deliveryPrepDays', 'customerData'])
    expect(new Set(APP_FEATURES.map((f) => f.plan))).toEqual(new Set(APP_PLANS.map((p) => p.key)))
  })

  it('the cards’ lines come from the table', () => {
    expect(planFeatureLines('light')).toEqual([
      '定期購買契約の管理',
      '販売プラン・ボックス',
      'メールテンプレート',
    ])
    expect(planFeatureLines('standard')).toEqual([
      'ライトの全機能',
      '分析・レポート（分析・継続率・流入元）',
      'CSVエクスポート（契約一覧）',
    ])
    expect(planFeatureLines('pro')).toEqual([
      'スタンダードの全機能',
      'お届け準備期間の変更（契約数にかかわらず）',
      '顧客データ分析（セグメント・顧客詳細・LTV）',
    ])
  })

  it('a refusal names the plan that includes the feature', () => {
    expect(featureRefusal('analytics', 'ライトプラン')).toBe(
      '分析・レポートはスタンダードプランからご利用いただけます（現在のプラン: ライトプラン）。',
    )
    expect(featureRefusal('customerData', null)).toBe('顧客データ分析はプロプランからご利用いただけます。')
  })
})

describe('appUsage', () => {
  const free = { testShop: false, developmentShop: false }
  it('an ACTIVE catalogue plan gives its tier', () => {
    expect(appUsage({ plan: { name: 'Teiki ライト', status: 'ACTIVE' }, ...free })).toEqual({
      eligible: true,
      basis: 'plan',
      title: null,
      reason: null,
      features: featuresOfPlan('light'),
      planKey: 'light',
    })
  })

  it('a plan the catalogue does not name keeps every feature, and says so', () => {
    const usage = appUsage({ plan: { name: 'スタンダードプラン', status: 'ACTIVE' }, ...free })
    expect(usage).toMatchObject({ eligible: true, basis: 'unlisted_plan', planKey: null })
    expect(usage.features).toEqual(featuresOfPlan('pro'))
    expect(usage.reason).toContain('「スタンダードプラン」は現在のプラン一覧にないプランです')
  })

  it.each([
    ['CANCELLED', 'プランが解約されました', 'スタンダードプランは解約されました。'],
    [
      'DECLINED',
      'プランの料金が承認されませんでした',
      'スタンダードプランの料金はストアで承認されませんでした。',
    ],
    ['EXPIRED', 'プランの承認期限が過ぎました', '期限（作成から2日）までに承認されませんでした'],
    [
      'FROZEN',
      'ストアが凍結されているため、プランが停止しています',
      'ストアが凍結され、スタンダードプランは停止しています',
    ],
    ['PENDING', 'プランは承認待ちです', 'スタンダードプランの料金はまだ承認されていません'],
  ])('a %s plan keeps the shop out and says why', (status, title, reason) => {
    const usage = appUsage({ plan: { name: 'Teiki スタンダード', status }, ...free })
    expect(usage).toMatchObject({ eligible: false, basis: 'no_plan', title, features: [], planKey: null })
    expect(usage.reason).toContain(reason)
  })

  it('a development or test shop passes with every feature while it holds no plan', () => {
    const cancelled = { name: 'Teiki ライト', status: 'CANCELLED' }
    expect(appUsage({ plan: cancelled, testShop: true, developmentShop: false })).toMatchObject({
      eligible: true,
      basis: 'test_shop',
      features: featuresOfPlan('pro'),
    })
    expect(appUsage({ plan: null, testShop: false, developmentShop: true }).basis).toBe('development_shop')
    // With a plan, the plan's tier: what the merchant chose is what they try.
    expect(
      appUsage({ plan: { name: 'Teiki ライト', status: 'ACTIVE' }, testShop: true, developmentShop: true })
        .planKey,
    ).toBe('light')
    expect(appUsage({ plan: null, ...free }).reason).toBe('有効なプランがありません。プランを選んでください')
  })
})

describe('nextPlanRecord', () => {
  const sub = (id: string | null, status: string): PlanRecordLike => ({ id, status })
  it('follows the plan held, takes a newly active one, and keeps the held plan when another charge ends', () => {
    expect(nextPlanRecord(sub('1', 'ACTIVE'), sub('1', 'FROZEN'))).toEqual(sub('1', 'FROZEN'))
    expect(nextPlanRecord(sub('1', 'FROZEN'), sub('1', 'ACTIVE'))).toEqual(sub('1', 'ACTIVE'))
    expect(nextPlanRecord(sub('1', 'ACTIVE'), sub('2', 'ACTIVE'))).toEqual(sub('2', 'ACTIVE'))
    for (const ended of ['DECLINED', 'EXPIRED', 'CANCELLED', 'PENDING'])
      expect(nextPlanRecord(sub('2', 'ACTIVE'), sub('1', ended))).toEqual(sub('2', 'ACTIVE'))
    expect(nextPlanRecord(sub('2', 'FROZEN'), sub('3', 'DECLINED'))).toEqual(sub('2', 'FROZEN'))
  })

  it('with no plan held the latest outcome becomes the record; a pending charge is no plan', () => {
    expect(nextPlanRecord(null, sub('3', 'DECLINED'))).toEqual(sub('3', 'DECLINED'))
    expect(nextPlanRecord(sub('1', 'CANCELLED'), sub('3', 'EXPIRED'))).toEqual(sub('3', 'EXPIRED'))
    expect(nextPlanRecord(sub('1', 'CANCELLED'), sub('3', 'PENDING'))).toEqual(sub('1', 'CANCELLED'))
    // A record kept before ids were stored matches nothing: it is never taken for another charge.
    expect(nextPlanRecord(sub(null, 'ACTIVE'), sub('3', 'DECLINED'))).toEqual(sub(null, 'ACTIVE'))
  })
})
