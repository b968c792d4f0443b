import { DEMO_BOX_CODE, DEMO_MULTI_CODE } from '@teiki/shopify-emulator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as demo from '../src/demo/app-data.ts'
import { DEMO_CANCELLATION_REASONS, DEMO_SEGMENTS } from '../src/demo/story.ts'
import { findInstalledShop } from '../src/platform/shops-repo.ts'
import { call, type PlanShops, plan, startPlanShops } from './support/selling-plans.ts'

// The demo shop's app-side data (issue 13 item 6): the recurring-multi plan's later cycles and a
// box, seeded once after the sync that brought their groups (the emulator's demo groups carry
// these merchant codes; here the groups are made through the API in a shop of the test's own).

let env: PlanShops
beforeAll(async () => {
  env = await startPlanShops('demo-seed')
}, 120_000)
afterAll(() => env?.close())

const seed = async () =>
  demo.seedDemoAppData(env.pool, (await findInstalledShop(env.pool, env.main))!, env.app.shopClients)

describe('seedDemoAppData', () => {
  it('uses the merchant codes the emulator gives the demo groups', () => {
    expect(demo.DEMO_MULTI_CODE).toBe(DEMO_MULTI_CODE)
    expect(demo.DEMO_BOX_CODE).toBe(DEMO_BOX_CODE)
  })

  it('does nothing before the groups exist, then seeds the rules and the box once', async () => {
    expect(await seed()).toEqual([])
    const products = env.emulator.store
      .shop(env.main)!
      .products.slice(0, 6)
      .map((p) => String(p.id))
    const multi = await call(env, 'POST', '/selling-plan-groups', {
      name: '回数割定期便',
      merchantCode: DEMO_MULTI_CODE,
      plans: [plan('毎月', { discountType: 'fixedDiscount', valueType: 'PERCENTAGE', initialValue: 30 })],
      productIds: products.slice(0, 3),
    })
    await call(env, 'POST', '/selling-plan-groups', {
      name: '選べる詰め合わせ',
      merchantCode: DEMO_BOX_CODE,
      plans: [plan('毎月')],
      productIds: products,
    })
    // The merchant's own: a reason the demo also has, and a contract cancelled with free text.
    expect((await call(env, 'POST', '/cancellation-reasons', { reason: '価格が高い' })).status).toBe(201)
    const active = (
      await env.pool.query<{ id: string; customer_id: string }>(
        `select c.id::text, c.customer_id::text from subscription_contracts c join shops s on s.id = c.shop_id
       where s.domain = $1 and c.status = 'ACTIVE' order by c.id limit 1`,
        [env.main],
      )
    ).rows[0]!
    const churned = await call(env, 'POST', '/churn', {
      contractId: active.id,
      customerId: active.customer_id,
      reason: 'お試しのつもりだった',
    })
    expect(churned.status).toBe(200)
    const seeded = await seed()
    expect(seeded.slice(0, 2)).toEqual([
      '回数割定期便の回数ごとの割引',
      'ボックス「選べる詰め合わせボックス」',
    ])
    // …and the traffic history (issue 14), once the contracts are in the mirror.
    // …then the shop's cancellation reasons and its segments (issue 22).
    expect(seeded.slice(2)).toEqual([
      expect.stringMatching(/^流入元の履歴（生成データ: 昨日まで、契約 \d+ 件に流入元）$/),
      expect.stringMatching(/^解約理由（解約 \d+ 件に理由）$/),
      'セグメント 3 件',
    ])
    // Labelled as generated, through yesterday (shop-local): today's figures are only measured ones.
    const label = await env.pool.query(
      `select g.generated_through::text as through, g.attributed_contracts,
         ((now() at time zone s.iana_timezone)::date - 1)::text as yesterday,
         (select max(day)::text from traffic_daily t where t.shop_id = s.id) as last_day,
         (select count(*)::int from contract_attributions a where a.shop_id = s.id) as attributions
       from traffic_generated_history g join shops s on s.id = g.shop_id where s.domain = $1`,
      [env.main],
    )
    expect(label.rows).toHaveLength(1)
    const row = label.rows[0]
    expect(row.through).toBe(row.yesterday)
    expect(row.last_day).toBe(row.through)
    expect(row.attributed_contracts).toBe(row.attributions)
    const planId = (multi.body as { plans: Array<{ id: string }> }).plans[0]!.id
    const list = await call(
      env,
      'GET',
      `/subscriptions/sellingPlanGroups/${(multi.body as { id: string }).id}/sellingPlans`,
    )
    expect(
      (list.body as { plans: Array<{ discountType: string; cycleDiscounts: unknown }> }).plans[0],
    ).toMatchObject({
      discountType: 'recurringMultiDiscount',
      cycleDiscounts: [
        { cycle: 1, value: 30 },
        { cycle: 2, value: 20 },
        { cycle: 4, value: 10 },
      ],
    })
    const boxes = (await call(env, 'GET', '/boxes')).body as {
      boxes: Array<{
        id: string
        name: string
        complete: boolean
        minSelection: number
        maxSelection: number
      }>
    }
    expect(boxes.boxes).toMatchObject([
      { name: '選べる詰め合わせボックス', minSelection: 3, maxSelection: 5, complete: true },
    ])
    expect(planId).toMatch(/^\d+$/)

    await expectTheStory()

    // Once: a deleted demo box stays deleted on the next start.
    expect((await call(env, 'DELETE', `/boxes/${boxes.boxes[0]!.id}`)).status).toBe(204)
    expect(await seed()).toEqual([])
    expect(((await call(env, 'GET', '/boxes')).body as { boxes: unknown[] }).boxes).toEqual([])
  })
})

/**
 * Issue 22 item 5: 解約理由 counts every cancellation 分析 counts (the demo's cancellations
 * carried no reason: «解約理由はまだ登録されていません» beside 49 cancellations), each at the day
 * it happened; the segments list customers.
 */
async function expectTheStory() {
  const { rows } = await env.pool.query<{ n: number }>(
    `select count(*)::int as n from contract_events e join shops s on s.id = e.shop_id
     where s.domain = $1 and e.type = 'status_changed' and e.payload->>'to' = 'CANCELLED'`,
    [env.main],
  )
  const cancellations = rows[0]!.n
  expect(cancellations).toBeGreaterThan(0)
  const reasons = (await call(env, 'GET', '/cancellation-reasons')).body as {
    reasons: Array<{ reason: string }>
  }
  // The merchant's 価格が高い stays first; the demo adds the others after it, none twice.
  expect(reasons.reasons.map((r) => r.reason)).toEqual([
    '価格が高い',
    ...DEMO_CANCELLATION_REASONS.map((r) => r.reason).filter((r) => r !== '価格が高い'),
  ])
  const grouped = (await call(env, 'GET', '/subscription-contracts/cancellation-reasons-grouped-by'))
    .body as {
    groups: Array<{ reason: string; count: number }>
    total: number
  }
  expect(grouped.total).toBe(cancellations)
  // The merchant's free-text reason is kept; their 価格が高い is the demo's, listed once.
  expect(grouped.groups).toContainEqual(expect.objectContaining({ reason: 'お試しのつもりだった', count: 1 }))
  expect(grouped.groups.every((g) => g.count > 0)).toBe(true)
  const segments = (await call(env, 'GET', '/cdp-segment-list')).body as {
    segments: Array<{ id: string; name: string }>
  }
  expect(segments.segments.map((s) => s.name).sort()).toEqual(DEMO_SEGMENTS.map((s) => s.name).sort())
  const cancelledCustomers = segments.segments.find((s) => s.name === '解約したお客様')!
  const data = (await call(env, 'GET', `/cdp-segment-data?segmentId=${cancelledCustomers.id}`)).body as {
    total: number
  }
  expect(data.total).toBeGreaterThan(0)
}
