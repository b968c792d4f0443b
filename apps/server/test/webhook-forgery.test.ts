import type { Delivery } from '@teiki/shopify-emulator'
import { beforeAll, describe, expect, it } from 'vitest'
import { TOPIC_HANDLERS } from '../src/features/webhooks/topics.ts'
import { upsertShopInstall } from '../src/platform/shops-repo.ts'
import { useEmulatedApp } from './support/emulated-app.ts'
import { produceBodies, type Snapshot, signedDelivery, snapshot } from './support/webhook-bodies.ts'

// Four shops, all installed and synced: A and B trade bodies; C is uninstalled and redacted
// for real; D's uninstall and shop/redact bodies are captured without reaching the app.
// Fixed domains (each test run has its own database): the emulator derives a shop's data from
// its domain, so every run forges with the same contracts, customers and cards.
const [A, B, C, D] = ['a', 'b', 'c', 'd'].map((s) => `forgery-${s}.myshopify.com`) as [
  string,
  string,
  string,
  string,
]
const TOPICS = Object.keys(TOPIC_HANDLERS)

const bodies: Record<string, Map<string, Delivery>> = {}
const shopIds = () => env.shopIds

const env = useEmulatedApp({
  shops: [A, B, C, D].map((domain) => ({ domain, contracts: 40 })),
  secret: 'forgery',
  webhooks: true,
})
beforeAll(async () => {
  for (const domain of [A, B, C, D]) {
    await env.sync(domain)
  }
  bodies[A] = await produceBodies(env.emulator, A, { uninstall: 'captureOnly' })
  bodies[B] = await produceBodies(env.emulator, B, { uninstall: 'no' })
  bodies[C] = await produceBodies(env.emulator, C, { uninstall: 'no' })
  bodies[D] = await produceBodies(env.emulator, D, { uninstall: 'captureOnly' })
})

/** A genuinely signed body sent with the given headers; fresh webhook and event ids unless given. */
function post(topic: string, body: string, shop: string, ids: { webhookId?: string; eventId?: string } = {}) {
  return env.app.inject(signedDelivery(topic, body, shop, ids))
}

const state = (domain: string, deliveries = true) => snapshot(env.pool, shopIds()[domain]!, { deliveries })

/** Guards against a vacuous comparison: B's mirror holds rows in every table compared. */
function expectPopulated(s: Snapshot): void {
  for (const [table, { rows }] of Object.entries(s)) expect(rows, table).toBeGreaterThan(0)
}

describe('every handled topic has a genuine body to forge with', () => {
  it('the emulator produced one for each topic (B and C keep their app installed)', () => {
    const installed = TOPICS.filter((t) => t !== 'app/uninstalled' && t !== 'shop/redact')
    for (const domain of [A, D]) expect([...bodies[domain]!.keys()].sort()).toEqual([...TOPICS].sort())
    for (const domain of [B, C]) expect([...bodies[domain]!.keys()].sort()).toEqual(installed.sort())
  })
})

describe("another shop's genuine bodies sent with shop B's domain", () => {
  it('every topic × every body of shop A: 401 and nothing of B changed', async () => {
    const before = await state(B)
    expectPopulated(before)
    const answers: string[] = []
    for (const topic of TOPICS) {
      for (const [bodyTopic, d] of bodies[A]!) {
        const res = await post(topic, d.body, B)
        answers.push(
          `${topic} ← A ${bodyTopic}: ${res.statusCode} ${res.json().outcome ?? res.json().error?.code}`,
        )
      }
    }
    // The one 200: a delete of a group no mirror holds any more (A's mirror applied the delete)
    // and B's platform does not know: nothing of B's to act on, nothing recorded.
    const harmless = 'selling_plan_groups/delete ← A selling_plan_groups/delete: 200 ignored'
    expect(answers.filter((a) => !a.endsWith(': 401 UNAUTHENTICATED'))).toEqual([harmless])
    expect(await state(B)).toEqual(before)
  })

  it('bodies of a shop whose mirror is gone (uninstalled, redacted) pass the mirror check and still change nothing', async () => {
    // C's uninstall and shop/redact, as the platform sends them: its token is revoked first.
    env.emulator.uninstall(C)
    await env.emulator.idle()
    const uninstalled = await env.pool.query('select uninstalled_at, access_token from shops where id = $1', [
      shopIds()[C],
    ])
    expect(uninstalled.rows[0].uninstalled_at).not.toBeNull()
    expect(uninstalled.rows[0].access_token).toBeNull()
    env.emulator.redactShop(C)
    await env.emulator.idle()
    expect((await env.pool.query('select 1 from shops where id = $1', [shopIds()[C]])).rows).toEqual([])

    // No mirror knows C's resources now: only the platform read with B's token stands between
    // C's bodies and B's mirror. It finds none of them (200 ignored); shop-level bodies name C.
    const before = await state(B)
    for (const topic of TOPICS) {
      for (const [bodyTopic, d] of bodies[C]!) {
        const res = await post(topic, d.body, B)
        expect([401, 200], `${topic} ← C ${bodyTopic}`).toContain(res.statusCode)
        if (res.statusCode === 200) expect(res.json().outcome, `${topic} ← C ${bodyTopic}`).toBe('ignored')
      }
    }
    expect(await state(B)).toEqual(before)
  })
})

describe("shop B's own bodies under another topic (the topic is not signed)", () => {
  /** Pairs that may pass: both re-read the same contract or group from the platform. */
  const sameEffect = (topic: string, bodyTopic: string, body: Record<string, unknown>) => {
    const family = (t: string) => t.slice(0, t.indexOf('/'))
    if (family(topic) === 'subscription_contracts' && family(bodyTopic) === family(topic)) {
      const status = topic.slice(topic.indexOf('/') + 1)
      const statusOf: Record<string, string> = {
        activate: 'active',
        pause: 'paused',
        cancel: 'cancelled',
        fail: 'failed',
        expire: 'expired',
      }
      return !statusOf[status] || statusOf[status] === body.status
    }
    const groupBody = ['selling_plan_groups/create', 'selling_plan_groups/update']
    // A customer body under any customer topic: create/update re-read the customer, delete
    // finds them still on the platform and is ignored.
    const customerBody = ['customers/create', 'customers/update', 'customers/delete']
    if (customerBody.includes(topic) && customerBody.includes(bodyTopic)) return true
    // An order body under either order topic: the order is read (or found held) either way.
    const orderBody = ['orders/create', 'orders/updated']
    if (orderBody.includes(topic) && orderBody.includes(bodyTopic)) return true
    return groupBody.includes(topic) && groupBody.includes(bodyTopic)
  }

  it('is refused (401), or re-reads the platform and changes nothing in the mirror', async () => {
    const before = await state(B, false)
    const passed: string[] = []
    for (const topic of TOPICS) {
      for (const [bodyTopic, d] of bodies[B]!) {
        if (bodyTopic === topic) continue
        const res = await post(topic, d.body, B)
        const allowed = sameEffect(topic, bodyTopic, JSON.parse(d.body))
        expect(res.statusCode, `${topic} ← B ${bodyTopic}`).toBe(allowed ? 200 : 401)
        if (allowed) passed.push(`${topic} ← ${bodyTopic}`)
      }
    }
    expect(passed.length).toBeGreaterThan(0)
    expect(await state(B, false)).toEqual(before)
  })
})

describe("shop D's own shop-level bodies under every other topic", () => {
  it('are refused: an uninstall body is a shop, a shop/redact body names only the shop', async () => {
    const before = await state(D)
    for (const bodyTopic of ['app/uninstalled', 'shop/redact']) {
      const body = bodies[D]!.get(bodyTopic)!.body
      for (const topic of TOPICS.filter((t) => t !== bodyTopic)) {
        expect((await post(topic, body, D)).statusCode, `${topic} ← D ${bodyTopic}`).toBe(401)
      }
    }
    expect(await state(D)).toEqual(before)
  })
})

describe('replays', () => {
  it('each genuine body of B re-sent with a new webhook id and event id changes nothing', async () => {
    const before = await state(B, false)
    for (const [topic, d] of bodies[B]!) {
      const res = await post(topic, d.body, B)
      expect(res.statusCode, topic).toBe(200)
    }
    expect(await state(B, false)).toEqual(before)
  })

  it('a delivery re-sent under a new webhook id but its event id is a duplicate, recorded once', async () => {
    const d = bodies[B]!.get('subscription_contracts/cancel')!
    const res = await post(d.topic, d.body, B, { eventId: d.eventId })
    expect(res.statusCode).toBe(200)
    expect(res.json().outcome).toBe('duplicate')
    const { rows } = await env.pool.query(
      'select count(*)::int as n from webhook_deliveries where shop_id = $1 and event_id = $2',
      [shopIds()[B], d.eventId],
    )
    expect(rows[0].n).toBe(1)
  })
})

describe('destructive topics act only when the platform agrees', () => {
  it("D's captured app/uninstalled after a re-install (token valid): acknowledged, nothing changed", async () => {
    const reinstall = env.emulator.install(D)
    await upsertShopInstall(env.pool, {
      domain: D,
      accessToken: reinstall.accessToken,
      scopes: reinstall.scopes,
    })
    const before = await state(D)
    expectPopulated(before)
    const res = await post('app/uninstalled', bodies[D]!.get('app/uninstalled')!.body, D)
    expect(res.statusCode).toBe(200)
    expect(res.json().outcome).toBe('ignored')
    expect(await state(D)).toEqual(before)
    const login = await env.app.inject({
      method: 'GET',
      url: `/app-admin/shop-currency-code?shop=${D}&secret=forgery`,
    })
    expect(login.statusCode).toBe(200)
  })

  it("D's captured shop/redact while D is installed: acknowledged, nothing deleted", async () => {
    const before = await state(D)
    const res = await post('shop/redact', bodies[D]!.get('shop/redact')!.body, D)
    expect(res.statusCode).toBe(200)
    expect(res.json().outcome).toBe('ignored')
    expect(await state(D)).toEqual(before)
  })
})

/**
 * Bodies only the holder of the app's secret could sign (the test signs them): each names the
 * header's shop but carries one foreign or contradicting detail, so each check is seen alone.
 */
describe('each binding and platform check on its own', () => {
  const platformShop = (domain: string) => env.emulator.store.shop(domain)!
  const send = (topic: string, body: object, shop = B) => post(topic, JSON.stringify(body), shop)
  const aCustomer = () => platformShop(A).customers[0]!
  const bCustomer = () => platformShop(B).customers.find((c) => c.email)!
  /** Acknowledged (the binding passes) but the platform's view refuses it: nothing recorded. */
  const expectIgnored = async (topic: string, body: object) => {
    const before = await state(B)
    const res = await send(topic, body)
    expect(res.statusCode).toBe(200)
    expect(res.json().outcome).toBe('ignored')
    expect(await state(B)).toEqual(before)
  }

  it("a shop or compliance body with B's domain and another shop's id, or B's id and another domain: 401", async () => {
    const before = await state(B)
    const [a, b] = [platformShop(A).info.id, platformShop(B).info.id]
    const c = bCustomer()
    const customer = { id: c.id, email: c.email, phone: c.phone }
    const cases: Array<[string, object]> = [
      ['app/uninstalled', { id: a, name: platformShop(B).info.name, myshopify_domain: B }],
      ['app/uninstalled', { id: b, name: platformShop(B).info.name, myshopify_domain: A }],
      ['customers/data_request', { shop_id: a, shop_domain: B, customer, orders_requested: [] }],
      ['customers/redact', { shop_id: b, shop_domain: A, customer, orders_to_redact: [] }],
      ['shop/redact', { shop_id: a, shop_domain: B }],
      ['shop/redact', { shop_id: b, shop_domain: A }],
    ]
    for (const [topic, body] of cases) expect((await send(topic, body)).statusCode, topic).toBe(401)
    expect(await state(B)).toEqual(before)
  })

  it("customers/redact of shop A's customer sent as B erases nothing; B's own customer is erased", async () => {
    const before = await state(B)
    const genuine = bodies[A]!.get('customers/redact')!
    expect((await post('customers/redact', genuine.body, B)).statusCode).toBe(401)
    const c = aCustomer()
    const rebadged = await send('customers/redact', {
      shop_id: platformShop(B).info.id,
      shop_domain: B,
      customer: { id: c.id, email: c.email, phone: c.phone },
      orders_to_redact: [],
    })
    expect(rebadged.statusCode).toBe(401)
    expect(await state(B)).toEqual(before)
    // B's own request (sent by the emulator in beforeAll) did apply.
    const own = JSON.parse(bodies[B]!.get('customers/redact')!.body)
    const { rows } = await env.pool.query(
      'select email, phone, display_name from customers where shop_id = $1 and id = $2',
      [shopIds()[B], own.customer.id],
    )
    expect(rows).toEqual([{ email: null, phone: null, display_name: '' }])
  })

  it('a delete body naming a group B still has on the platform: acknowledged, group kept', async () => {
    const group = platformShop(B).sellingPlanGroups.at(-1)!
    expect((await state(B)).selling_plan_groups!.rows).toBeGreaterThan(0)
    await expectIgnored('selling_plan_groups/delete', {
      admin_graphql_api_id: `gid://shopify/SellingPlanGroup/${group.id}`,
      id: group.id,
    })
  })

  it('a failure body naming an attempt that succeeded on the platform: acknowledged, no failure recorded', async () => {
    const success = JSON.parse(bodies[B]!.get('subscription_billing_attempts/success')!.body)
    await expectIgnored('subscription_billing_attempts/failure', {
      ...success,
      order_id: null,
      admin_graphql_api_order_id: null,
      error_code: 'insufficient_funds',
      error_message: '残高不足',
    })
  })

  it('a challenged body naming an attempt that succeeded, or one that failed, on the platform: acknowledged, nothing recorded', async () => {
    const success = JSON.parse(bodies[B]!.get('subscription_billing_attempts/success')!.body)
    const failure = JSON.parse(bodies[B]!.get('subscription_billing_attempts/failure')!.body)
    for (const body of [success, failure]) {
      await expectIgnored('subscription_billing_attempts/challenged', {
        ...body,
        order_id: null,
        admin_graphql_api_order_id: null,
        error_code: null,
        error_message: null,
      })
    }
  })

  it('a challenge still open is no success nor failure: those topics with its body are refused or ignored', async () => {
    const challenged = JSON.parse(bodies[B]!.get('subscription_billing_attempts/challenged')!.body)
    const order = JSON.parse(bodies[B]!.get('subscription_billing_attempts/success')!.body)
    await expectIgnored('subscription_billing_attempts/failure', {
      ...challenged,
      error_code: 'authentication_error',
      error_message: 'auth',
    })
    await expectIgnored('subscription_billing_attempts/success', {
      ...challenged,
      order_id: order.order_id,
      admin_graphql_api_order_id: order.admin_graphql_api_order_id,
    })
  })

  it("a refund body naming shop A's order, or no order, or with its GID changed: 401, nothing of B changed", async () => {
    const refund = JSON.parse(bodies[B]!.get('refunds/create')!.body)
    const aOrder = platformShop(A).orders.find((o) => o.contractId !== null)!
    const before = await state(B)
    for (const body of [
      { ...refund, order_id: aOrder.id },
      { ...refund, order_id: undefined },
      { ...refund, order_id: 'gid://shopify/Order/1' },
      { ...refund, admin_graphql_api_id: `gid://shopify/Order/${refund.id}` },
      { ...refund, id: refund.id + 1 },
    ]) {
      expect((await send('refunds/create', body)).statusCode).toBe(401)
    }
    const order = JSON.parse(bodies[B]!.get('orders/updated')!.body)
    expect(
      (await send('orders/updated', { ...order, admin_graphql_api_id: refund.admin_graphql_api_id }))
        .statusCode,
    ).toBe(401)
    expect(await state(B)).toEqual(before)
  })

  it("a refund body of B naming an order B's platform does not have: acknowledged, nothing recorded", async () => {
    const refund = JSON.parse(bodies[B]!.get('refunds/create')!.body)
    await expectIgnored('refunds/create', { ...refund, order_id: 99_999_999_999 })
  })

  it('a resource body whose id and GID disagree, or whose GID is of another type: 401', async () => {
    const contract = JSON.parse(bodies[B]!.get('subscription_contracts/update')!.body)
    const before = await state(B)
    for (const body of [
      { ...contract, id: contract.id + 1 },
      { ...contract, admin_graphql_api_id: `gid://shopify/Order/${contract.id}` },
      { ...contract, admin_graphql_api_id: `gid://shopify/SubscriptionContract/99999999999999999999` },
    ]) {
      expect((await send('subscription_contracts/update', body)).statusCode).toBe(401)
    }
    expect(await state(B)).toEqual(before)
  })
})
