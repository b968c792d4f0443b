import { ZAppUsageEligibility, ZPlanChangeResponse, ZPlanResponse } from '@teiki/contract'
import { describe, expect, it } from 'vitest'
import { useEmulatedApp } from './support/emulated-app.ts'
import { signedDelivery } from './support/webhook-bodies.ts'

// Issue 23 item 3: the plan is the platform's. Every state the platform moves the app's plan
// to (approved, declined, expired, cancelled, frozen, resumed) reaches the app through
// app_subscriptions/update, signed and bound to its shop, and from there the page gate
// (/app-usage-eligibility) and the plan's features. Before, the plan was read at install and
// while a change awaited approval only, so all of these stayed ACTIVE in the app.

const SECRET = 'app-plan-states-secret'
const SHOP = `plan-states-${process.pid}.myshopify.com`
const OTHER = `plan-states-other-${process.pid}.myshopify.com`
const env = useEmulatedApp({
  shops: [
    { domain: SHOP, contracts: 2 },
    { domain: OTHER, contracts: 0 },
  ],
  secret: SECRET,
  webhooks: true,
})

function call(method: 'GET' | 'PUT', path: string, payload?: object) {
  return env.app.inject({
    method,
    url: `/app-admin${path}?shop=${SHOP}&secret=${SECRET}`,
    headers: { host: 'teiki.example.jp' },
    ...(payload ? { payload } : {}),
  })
}

const usage = async () => ZAppUsageEligibility.parse((await call('GET', '/app-usage-eligibility')).json())
const plan = async () => ZPlanResponse.parse((await call('GET', '/plan')).json())

/** The platform moves the plan, and its webhooks have been answered by the app. */
async function platformMoves(
  status: 'ACTIVE' | 'CANCELLED' | 'DECLINED' | 'EXPIRED' | 'FROZEN',
  id?: string,
) {
  env.emulator.setAppSubscriptionStatus(SHOP, status, id)
  await env.emulator.idle()
}

async function approveOnPlatformPage(key: 'light' | 'standard' | 'pro', decision = 'approve') {
  const { confirmationUrl } = ZPlanChangeResponse.parse((await call('PUT', '/plan', { plan: key })).json())
  const res = await fetch(confirmationUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `decision=${decision}`,
  })
  expect(res.status).toBe(303)
  // The merchant does not come back (closed the tab): only the webhook tells the app.
  await env.emulator.idle()
  return new URL(confirmationUrl).pathname.split('/').at(-2)!
}

const changes = async () =>
  (
    await env.pool.query<{ subscription_id: string; status: string }>(
      `select subscription_id::text, status from app_plan_changes c join shops s on s.id = c.shop_id
       where s.domain = $1 order by created_at, subscription_id`,
      [SHOP],
    )
  ).rows

describe('app_subscriptions/update keeps the app’s plan the platform’s', () => {
  it('is subscribed: the platform delivers it to the app, which applies it', async () => {
    await platformMoves('FROZEN')
    const delivered = env.emulator.webhooks.deliveries.filter((d) => d.topic === 'app_subscriptions/update')
    expect(delivered.map((d) => [d.shop, d.status, d.lastStatus])).toEqual([[SHOP, 'delivered', 200]])
  })

  it('a frozen plan keeps the merchant out and says why; paying resumes it', async () => {
    expect(await usage()).toMatchObject({
      eligible: false,
      title: 'ストアが凍結されているため、プランが停止しています',
      features: [],
    })
    expect((await usage()).reason).toContain(
      'Shopifyのご請求が未払いのためストアが凍結され、プロプランは停止しています',
    )
    expect((await plan()).currentPlan).toMatchObject({ name: 'Teiki プロ', status: 'FROZEN' })
    // The plan's features go with it, on the server.
    const refused = await call('GET', '/cdp-segment-list')
    expect(refused.statusCode).toBe(403)
    expect(refused.json().error).toEqual({
      code: 'PLAN_REQUIRED',
      message: '顧客データ分析はプロプランからご利用いただけます。',
    })
    await platformMoves('ACTIVE')
    expect(await usage()).toMatchObject({ eligible: true, basis: 'plan', planKey: 'pro' })
    expect((await call('GET', '/cdp-segment-list')).statusCode).toBe(200)
  })

  it('a cancelled plan sends the merchant to /plans with the reason; a later sync keeps why', async () => {
    await platformMoves('CANCELLED')
    expect(await usage()).toMatchObject({
      eligible: false,
      basis: 'no_plan',
      title: 'プランが解約されました',
      reason: 'プロプランは解約されました。引き続きご利用いただくには、プランを選んでください。',
    })
    // The platform lists no active plan now; the sync must not forget why there is none.
    await env.sync(SHOP)
    expect((await usage()).title).toBe('プランが解約されました')
  })

  it('a declined charge with no plan held says so; an approval the merchant never returns from still counts', async () => {
    const declined = await approveOnPlatformPage('light', 'decline')
    expect(await usage()).toMatchObject({
      eligible: false,
      title: 'プランの料金が承認されませんでした',
      reason:
        'ライトプランの料金はストアで承認されませんでした。ご利用いただくには、プランを選んで承認してください。',
    })
    const approved = await approveOnPlatformPage('standard')
    expect(await usage()).toMatchObject({ eligible: true, basis: 'plan', planKey: 'standard' })
    expect(await changes()).toEqual([
      { subscription_id: declined, status: 'declined' },
      { subscription_id: approved, status: 'active' },
    ])
    // スタンダード: analytics and CSV export, not customer data.
    expect((await call('GET', '/current/active-contract')).statusCode).toBe(200)
    expect((await call('GET', '/cdp-segment-list')).json().error.message).toBe(
      '顧客データ分析はプロプランからご利用いただけます（現在のプラン: スタンダードプラン）。',
    )
  })

  it('a change that expires, or is declined, while a plan is held leaves the plan', async () => {
    const { confirmationUrl } = ZPlanChangeResponse.parse(
      (await call('PUT', '/plan', { plan: 'pro' })).json(),
    )
    const pending = new URL(confirmationUrl).pathname.split('/').at(-2)!
    await platformMoves('EXPIRED', pending)
    await approveOnPlatformPage('light', 'decline')
    expect(await usage()).toMatchObject({ eligible: true, planKey: 'standard' })
    expect((await changes()).find((c) => c.subscription_id === pending)?.status).toBe('expired')
  })

  it('a late or replayed delivery is read back: the platform’s state now decides, not the body', async () => {
    const held = (await plan()).currentPlan!
    const body = {
      app_subscription: {
        admin_graphql_api_id: `gid://shopify/AppSubscription/${held.id}`,
        name: held.name,
        status: 'CANCELLED',
        admin_graphql_api_shop_id: `gid://shopify/Shop/${env.emulator.store.shop(SHOP)!.info.id}`,
        created_at: '2026-11-22T00:00:00Z',
        updated_at: '2026-11-22T00:00:00Z',
      },
    }
    const res = await env.app.inject(signedDelivery('app_subscriptions/update', JSON.stringify(body), SHOP))
    expect(res.statusCode).toBe(200)
    expect(await usage()).toMatchObject({ eligible: true, planKey: 'standard' })
  })

  it('a body naming another shop is refused; a subscription the shop does not have changes nothing', async () => {
    const otherShopId = env.emulator.store.shop(OTHER)!.info.id
    const otherSub = env.emulator.store.shop(OTHER)!.installation.subscriptions[0]!
    await env.sync(OTHER)
    await env.sync(SHOP)
    const foreign = {
      app_subscription: {
        admin_graphql_api_id: `gid://shopify/AppSubscription/${otherSub.id}`,
        name: 'Teiki プロ',
        status: 'CANCELLED',
        admin_graphql_api_shop_id: `gid://shopify/Shop/${otherShopId}`,
      },
    }
    expect(
      (await env.app.inject(signedDelivery('app_subscriptions/update', JSON.stringify(foreign), SHOP)))
        .statusCode,
    ).toBe(401)
    const ownShop = `gid://shopify/Shop/${env.emulator.store.shop(SHOP)!.info.id}`
    const unknown = { app_subscription: { ...foreign.app_subscription, admin_graphql_api_shop_id: ownShop } }
    const ignored = await env.app.inject(
      signedDelivery('app_subscriptions/update', JSON.stringify(unknown), SHOP),
    )
    expect(ignored.statusCode).toBe(200)
    expect(await usage()).toMatchObject({ eligible: true, planKey: 'standard' })
  })
})
