import { ZAppUsageEligibility, ZErrorResponse, ZPlanChangeResponse, ZPlanResponse } from '@teiki/contract'
import { appPlanByName } from '@teiki/domain'
import { DEMO_DOMAIN, generateShop } from '@teiki/shopify-emulator'
import { beforeEach, describe, expect, it } from 'vitest'
import { withTransaction } from '../src/db/pool.ts'
import { pendingPlanChanges } from '../src/features/app-plan/repo.ts'
import { createAppPlanService, recordReportedPlan } from '../src/features/app-plan/service.ts'
import { setShopFlag } from '../src/features/shop-flags/service.ts'
import { appPlanRecord } from '../src/platform/app-plan-record.ts'
import { fetchActiveAppSubscriptions } from '../src/platform/operations/app-subscriptions.ts'
import { findInstalledShop } from '../src/platform/shops-repo.ts'
import { useEmulatedApp } from './support/emulated-app.ts'

const SECRET = 'app-plan-test-secret'
const A = `plan-a-${process.pid}.myshopify.com`
const B = `plan-b-${process.pid}.myshopify.com`
const C = `plan-c-${process.pid}.myshopify.com`
const env = useEmulatedApp({
  shops: [
    { domain: A, contracts: 2 },
    { domain: B, contracts: 0 },
    { domain: C, contracts: 0 },
  ],
  secret: SECRET,
})
beforeEach(() => env.emulator.faults.reset())

function call(domain: string, method: 'GET' | 'PUT', path: string, payload?: object) {
  return env.app.inject({
    method,
    url: `/app-admin${path}?shop=${domain}&secret=${SECRET}`,
    headers: { host: 'teiki.example.jp' },
    ...(payload ? { payload } : {}),
  })
}

/** The merchant on the platform's page: sees the charge, presses a button, is sent back. */
async function decide(confirmationUrl: string, decision: 'approve' | 'decline') {
  const page = await (await fetch(confirmationUrl)).text()
  const res = await fetch(confirmationUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `decision=${decision}`,
  })
  return { page, status: res.status, location: res.headers.get('location')! }
}

async function activeOnPlatform(domain: string) {
  const data = await env.clients[domain]!.request<{
    currentAppInstallation: { activeSubscriptions: Array<{ name: string; test: boolean; trialDays: number }> }
  }>('T', 'query T { currentAppInstallation { activeSubscriptions { name test trialDays } } }')
  return data.currentAppInstallation.activeSubscriptions
}

describe('the app plan through the platform’s confirmation', () => {
  it('PUT /plan creates the charge; approved on the platform’s page, GET /plan shows it and the gate lets in', async () => {
    await env.pool.query(`update shops set app_plan = null where domain = $1`, [A])
    expect(ZPlanResponse.parse((await call(A, 'GET', '/plan')).json()).isActive).toBe(false)
    const res = await call(A, 'PUT', '/plan', { plan: 'pro' })
    expect(res.statusCode).toBe(200)
    const { confirmationUrl } = ZPlanChangeResponse.parse(res.json())
    expect(confirmationUrl.startsWith(env.url)).toBe(true)
    expect(env.emulator.callLog.some((c) => c.operationName === 'AppSubscriptionCreate')).toBe(true)
    // Not approved yet: still no plan.
    expect(ZPlanResponse.parse((await call(A, 'GET', '/plan')).json()).isActive).toBe(false)
    const back = await decide(confirmationUrl, 'approve')
    expect(back.page).toContain('Teiki プロ')
    expect(back.page).toContain('¥29,800／30日')
    expect(back.page).toContain('14日間')
    expect(back.status).toBe(303)
    const returned = new URL(back.location)
    expect(`${returned.origin}${returned.pathname}`).toBe('http://teiki.example.jp/plans')
    expect(returned.searchParams.get('shop')).toBe(A)
    expect(returned.searchParams.get('charge_id')).toMatch(/^\d+$/)
    expect(returned.searchParams.has('secret')).toBe(false)
    const plan = ZPlanResponse.parse((await call(A, 'GET', '/plan')).json())
    expect(plan).toMatchObject({
      isActive: true,
      currentPlan: {
        name: 'Teiki プロ',
        status: 'ACTIVE',
        price: { amount: '29800.0', currencyCode: 'JPY' },
        trialDays: 14,
        test: false,
      },
    })
    // Stored: the next GET reads no platform.
    const calls = env.emulator.callLog.length
    expect(ZPlanResponse.parse((await call(A, 'GET', '/plan')).json()).isActive).toBe(true)
    expect(env.emulator.callLog.length).toBe(calls)
    // The プロ plan allows the delivery prep days (spec §6's plan-based flag).
    expect((await call(A, 'GET', '/current-delivery-prep-days-operation')).json().planAllows).toBe(true)
  })

  it('a declined charge leaves the plan as it was; a later change replaces the active plan', async () => {
    const { confirmationUrl } = ZPlanChangeResponse.parse(
      (await call(A, 'PUT', '/plan', { plan: 'light' })).json(),
    )
    const declined = await decide(confirmationUrl, 'decline')
    expect(declined.status).toBe(303)
    expect(ZPlanResponse.parse((await call(A, 'GET', '/plan')).json()).currentPlan?.name).toBe('Teiki プロ')
    const again = ZPlanChangeResponse.parse((await call(A, 'PUT', '/plan', { plan: 'standard' })).json())
    await decide(again.confirmationUrl, 'approve')
    expect(ZPlanResponse.parse((await call(A, 'GET', '/plan')).json()).currentPlan?.name).toBe(
      'Teiki スタンダード',
    )
    expect((await activeOnPlatform(A)).map((s) => s.name)).toEqual(['Teiki スタンダード'])
  })

  it('the webhook settles the change between the request reading the shop and GET /plan: the answer is the new plan', async () => {
    const { confirmationUrl } = ZPlanChangeResponse.parse(
      (await call(C, 'PUT', '/plan', { plan: 'light' })).json(),
    )
    // The shop row as the request read it, before the approval.
    const before = (await findInstalledShop(env.pool, C))!
    await decide(confirmationUrl, 'approve')
    // The app_subscriptions/update delivery records the approval first (no change pending any more).
    const [approved] = await fetchActiveAppSubscriptions(env.clients[C]!)
    await withTransaction(env.pool, (tx) => recordReportedPlan(tx, before.id, appPlanRecord(approved!)))
    expect(await pendingPlanChanges(env.pool, before.id)).toEqual([])
    const service = createAppPlanService(env.pool, env.app.shopClients)
    const answer = await service.planOf(before, { warn: () => {} })
    expect(answer.currentPlan?.name).toBe('Teiki ライト')
  })

  it('a test shop (flag) gets a test charge', async () => {
    const { rows } = await env.pool.query<{ id: string }>('select id::text from shops where domain = $1', [B])
    await setShopFlag(env.pool, rows[0]!.id, 'test_shop', true)
    const { confirmationUrl } = ZPlanChangeResponse.parse(
      (await call(B, 'PUT', '/plan', { plan: 'light' })).json(),
    )
    expect((await decide(confirmationUrl, 'approve')).page).toContain('テスト請求')
    expect(await activeOnPlatform(B)).toEqual([{ name: 'Teiki ライト', test: true, trialDays: 14 }])
    expect(ZPlanResponse.parse((await call(B, 'GET', '/plan')).json()).currentPlan?.test).toBe(true)
  })

  it('mobile: the platform sends the merchant back into the admin’s app, where the mobile app has a session', async () => {
    const res = await call(A, 'PUT', '/plan', { plan: 'pro', mobile: true })
    expect(res.statusCode).toBe(200)
    const back = await decide(ZPlanChangeResponse.parse(res.json()).confirmationUrl, 'decline')
    const returned = new URL(back.location)
    expect(`${returned.origin}${returned.pathname}`).toBe(
      `https://admin.shopify.com/store/plan-a-${process.pid}/apps/teiki/plans`,
    )
    expect(returned.searchParams.get('charge_id')).toMatch(/^\d+$/)
    // mobile: false is the page's own address, as without it.
    const desktop = await call(A, 'PUT', '/plan', { plan: 'pro', mobile: false })
    const again = await decide(ZPlanChangeResponse.parse(desktop.json()).confirmationUrl, 'decline')
    expect(new URL(again.location).origin).toBe('http://teiki.example.jp')
  })

  it.each([[{ plan: 'gold' }], [{}], [{ plan: 'pro', mobile: 'yes' }]])(
    'PUT /plan %j → 400',
    async (body) => {
      const res = await call(A, 'PUT', '/plan', body)
      expect(res.statusCode).toBe(400)
      expect(ZErrorResponse.parse(res.json()).error.message).toContain('入力内容が正しくありません')
    },
  )

  it('a platform that cannot be reached: PUT /plan is 502, GET /plan answers the stored plan', async () => {
    const { confirmationUrl } = ZPlanChangeResponse.parse(
      (await call(A, 'PUT', '/plan', { plan: 'light' })).json(),
    )
    expect(confirmationUrl).toBeTruthy()
    env.emulator.faults.set({ errorRate: 1 })
    expect((await call(A, 'PUT', '/plan', { plan: 'pro' })).statusCode).toBe(502)
    const plan = await call(A, 'GET', '/plan')
    expect(plan.statusCode).toBe(200)
    expect(ZPlanResponse.parse(plan.json()).currentPlan?.name).toBe('Teiki スタンダード')
  })
})

describe('the demo shop’s plan (issue 22 item 2)', () => {
  it('is a catalogue plan at the catalogue’s price, so プラン names and prices it as its cards do', async () => {
    // Before: 「スタンダードプラン」 at ¥4,980 above a catalogue pricing スタンダード at ¥9,800.
    const demo = generateShop({
      domain: DEMO_DOMAIN,
      contracts: 1,
      seed: 1,
      now: new Date('2026-11-22T00:00:00Z'),
    })
    const [held] = demo.installation.subscriptions
    const listed = appPlanByName(held!.name)
    expect(listed?.key).toBe('pro')
    const price = held!.lineItems[0]!.plan.pricingDetails.price as { amount: string }
    expect(Number(price.amount)).toBe(listed!.monthlyPrice)
    // GET /plan says which catalogue plan the platform's plan is (null for one it does not have).
    expect(ZPlanResponse.parse((await call(A, 'GET', '/plan')).json()).catalogueKey).toBe('standard')
    await env.pool.query(
      `update shops set app_plan = jsonb_set(app_plan, '{name}', '"スタンダードプラン"') where domain = $1`,
      [A],
    )
    expect(ZPlanResponse.parse((await call(A, 'GET', '/plan')).json())).toMatchObject({
      isActive: true,
      catalogueKey: null,
    })
    await env.pool.query(
      `update shops set app_plan = jsonb_set(app_plan, '{name}', '"Teiki スタンダード"') where domain = $1`,
      [A],
    )
  })
})

describe('eligibility and the shop', () => {
  it('/shop-eligibility is true from the platform, and false on any failure (spec §8)', async () => {
    expect((await call(A, 'GET', '/shop-eligibility')).json()).toEqual({ eligible: true })
    env.emulator.faults.set({ errorRate: 1 })
    const failed = await call(A, 'GET', '/shop-eligibility')
    expect(failed.statusCode).toBe(200)
    expect(failed.json()).toEqual({ eligible: false })
  })

  it('/shopifyPlan and /app-handle come from the platform', async () => {
    const plan = (await call(A, 'GET', '/shopifyPlan')).json()
    expect(plan).toEqual({
      displayName: expect.any(String),
      partnerDevelopment: expect.any(Boolean),
      shopifyPlus: expect.any(Boolean),
    })
    const handle = (await call(A, 'GET', '/app-handle')).json()
    expect(handle).toEqual({
      handle: 'teiki',
      appUrl: `https://admin.shopify.com/store/plan-a-${process.pid}/apps/teiki`,
    })
    env.emulator.faults.set({ errorRate: 1 })
    expect((await call(A, 'GET', '/shopifyPlan')).statusCode).toBe(502)
  })

  it('/app-usage-eligibility: an active plan, or a test shop; otherwise not, saying why', async () => {
    expect(ZAppUsageEligibility.parse((await call(A, 'GET', '/app-usage-eligibility')).json())).toEqual({
      eligible: true,
      reason: null,
      basis: 'plan',
      title: null,
      features: ['contracts', 'sellingPlans', 'mailTemplates', 'analytics', 'csvExport'],
      planKey: 'standard',
    })
    await env.pool.query(`update shops set app_plan = null where domain = $1`, [B])
    expect((await call(B, 'GET', '/app-usage-eligibility')).json()).toMatchObject({
      eligible: true,
      basis: 'test_shop',
      reason: 'テストストアのため無料でご利用いただけます',
      features: expect.arrayContaining(['analytics', 'customerData', 'deliveryPrepDays']),
    })
    const { rows } = await env.pool.query<{ id: string }>('select id::text from shops where domain = $1', [B])
    await setShopFlag(env.pool, rows[0]!.id, 'test_shop', false)
    expect((await call(B, 'GET', '/app-usage-eligibility')).json()).toMatchObject({
      eligible: false,
      basis: 'no_plan',
      reason: '有効なプランがありません。プランを選んでください',
      features: [],
    })
    // A partner development store (the platform's shop.plan.partnerDevelopment, kept by the
    // sync) passes too, and its plan charges are test charges: it can take no other.
    env.emulator.setPlan(B, 'Developer Preview')
    await env.sync(B)
    await env.pool.query(`update shops set app_plan = null where domain = $1`, [B])
    expect((await call(B, 'GET', '/app-usage-eligibility')).json()).toMatchObject({
      eligible: true,
      basis: 'development_shop',
      reason: '開発ストアのため無料でご利用いただけます',
    })
    const { confirmationUrl } = ZPlanChangeResponse.parse(
      (await call(B, 'PUT', '/plan', { plan: 'standard' })).json(),
    )
    expect((await decide(confirmationUrl, 'approve')).page).toContain('テスト請求')
  })
})
