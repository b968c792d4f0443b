import { createHmac } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Emulator } from '../src/server.ts'
import { gql, SHOP, smallEmulator, webhookReceiver } from './support/harness.ts'
import * as m from './support/mutations.ts'

// Issue 23 item 1: the app's plan moves through the platform's states (ACTIVE, CANCELLED,
// DECLINED, EXPIRED, FROZEN), each reachable through the test controls (and the approval page),
// each sending `app_subscriptions/update` as the platform does (docs/platform-fidelity.md).

type Receiver = Awaited<ReturnType<typeof webhookReceiver>>
let emulator: Emulator
let receiver: Receiver
let url: string

beforeEach(async () => {
  receiver = await webhookReceiver()
  emulator = await smallEmulator({
    apiSecret: 'secret',
    webhooks: { callbackUrl: receiver.url, topics: ['app_subscriptions/update'] },
  })
  url = (await emulator.listen(0)).url
})
afterEach(async () => {
  await emulator.close()
  await receiver.close()
})

/** The test control, over HTTP as a test fixture drives it. */
async function control(body: object) {
  const res = await fetch(`${url}/emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: res.status, body: await res.json() }
}

const move = (status: string, id?: string | number) =>
  control({ appSubscriptionStatus: { shop: SHOP, status, ...(id === undefined ? {} : { id }) } })

/** The app_subscription bodies delivered since the last call, in order. */
let seen = 0
async function delivered(): Promise<Array<Record<string, unknown>>> {
  await emulator.idle()
  const fresh = receiver.received.slice(seen)
  seen = receiver.received.length
  for (const r of fresh) {
    expect(r.headers['x-shopify-topic']).toBe('app_subscriptions/update')
    expect(r.headers['x-shopify-hmac-sha256']).toBe(
      createHmac('sha256', 'secret').update(r.body).digest('base64'),
    )
  }
  return fresh.map((r) => JSON.parse(r.body).app_subscription)
}
beforeEach(() => {
  seen = 0
})

async function createCharge(name: string) {
  const data = await gql(emulator, m.appSubscriptionCreate, {
    name,
    returnUrl: 'https://app.example/plans',
    lineItems: [
      {
        plan: {
          appRecurringPricingDetails: {
            price: { amount: '9800', currencyCode: 'JPY' },
            interval: 'EVERY_30_DAYS',
          },
        },
      },
    ],
  })
  return data.appSubscriptionCreate as { appSubscription: { id: string }; confirmationUrl: string }
}

async function platformView(id: string) {
  return gql(
    emulator,
    `query S($id: ID!) {
      node(id: $id) { ... on AppSubscription { id status currentPeriodEnd } }
      currentAppInstallation { activeSubscriptions { id } }
    }`,
    { id },
  )
}

describe('the app subscription states', () => {
  it('freezes, resumes and cancels the plan held, each with app_subscriptions/update', async () => {
    const held = emulator.store.shop(SHOP)!.installation.subscriptions[0]!
    const gid = `gid://shopify/AppSubscription/${held.id}`
    const shopGid = `gid://shopify/Shop/${emulator.store.shop(SHOP)!.info.id}`

    expect((await move('FROZEN')).status).toBe(200)
    expect(await delivered()).toEqual([
      {
        admin_graphql_api_id: gid,
        name: 'Teiki プロ',
        status: 'FROZEN',
        admin_graphql_api_shop_id: shopGid,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        currency: 'JPY',
        price: '29800.00',
        interval: 'every_30_days',
      },
    ])
    // A frozen plan is not active: no period end, not among the active subscriptions.
    expect(await platformView(gid)).toEqual({
      node: { id: gid, status: 'FROZEN', currentPeriodEnd: null },
      currentAppInstallation: { activeSubscriptions: [] },
    })

    await move('ACTIVE')
    expect((await delivered()).map((s) => s.status)).toEqual(['ACTIVE'])
    expect((await platformView(gid)).currentAppInstallation.activeSubscriptions).toEqual([{ id: gid }])

    await move('CANCELLED', gid)
    expect((await delivered()).map((s) => [s.admin_graphql_api_id, s.status])).toEqual([[gid, 'CANCELLED']])
    expect((await platformView(gid)).node.status).toBe('CANCELLED')
  })

  it('declines and expires pending charges; an approval on the platform’s page replaces the plan', async () => {
    const held = `gid://shopify/AppSubscription/${emulator.store.shop(SHOP)!.installation.subscriptions[0]!.id}`
    const declined = await createCharge('Teiki スタンダード')
    const expired = await createCharge('Teiki ライト')
    // Creating a charge changes no status: nothing is sent.
    expect(await delivered()).toEqual([])
    // Without an id the newest charge that can make the move is meant.
    await move('EXPIRED')
    await move('DECLINED', declined.appSubscription.id)
    expect((await delivered()).map((s) => [s.admin_graphql_api_id, s.status])).toEqual([
      [expired.appSubscription.id, 'EXPIRED'],
      [declined.appSubscription.id, 'DECLINED'],
    ])

    const approved = await createCharge('Teiki スタンダード')
    const res = await fetch(approved.confirmationUrl, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'decision=approve',
    })
    expect(res.status).toBe(303)
    expect((await delivered()).map((s) => [s.admin_graphql_api_id, s.status])).toEqual([
      [held, 'CANCELLED'],
      [approved.appSubscription.id, 'ACTIVE'],
    ])
    expect((await platformView(approved.appSubscription.id)).node.currentPeriodEnd).toMatch(/^\d{4}-/)

    const refused = await createCharge('Teiki プロ')
    await fetch(refused.confirmationUrl, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'decision=decline',
    })
    expect((await delivered()).map((s) => [s.admin_graphql_api_id, s.status])).toEqual([
      [refused.appSubscription.id, 'DECLINED'],
    ])
  })

  it('refuses the moves the platform never makes, and sends nothing for them', async () => {
    await move('CANCELLED')
    await delivered()
    // CANCELLED, DECLINED and EXPIRED are terminal; nothing pending can be declined.
    for (const status of ['ACTIVE', 'FROZEN', 'DECLINED']) {
      const refused = await move(status)
      expect(refused.status).toBe(400)
      expect(refused.body.error.message).toMatch(/cannot move|can move to/)
    }
    expect((await move('PAUSED')).status).toBe(400)
    expect(await delivered()).toEqual([])
    expect(() => emulator.setAppSubscriptionStatus(SHOP, 'ACTIVE')).toThrow(/can move to ACTIVE/)
  })

  it('a shop the app is installed on afresh holds no plan', async () => {
    emulator.install('fresh-install.myshopify.com')
    expect(emulator.store.shop('fresh-install.myshopify.com')!.installation.subscriptions).toEqual([])
  })
})
