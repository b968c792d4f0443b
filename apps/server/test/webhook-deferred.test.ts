import { randomUUID } from 'node:crypto'
import { signWebhook } from '@teiki/shopify-emulator'
import { describe, expect, it } from 'vitest'
import { orderCount } from '../src/billing/repo.ts'
import { toGid } from '../src/platform/gid.ts'
import { useBillingEnv } from './support/billing.ts'
import { STAMP, TEST_API_SECRET, testDomain } from './support/fixtures.ts'

// With a job queue, a contract or order webhook about a state the mirror does not hold yet is
// read a moment later, and only if the mirror is still behind then (features/webhooks/deferred.ts):
// most such deliveries are the echo of the app's own write, mirrored meanwhile.

const DOMAIN = testDomain('deferred')
const SCHEMA = `pgboss_deferred_${process.pid}`

const env = useBillingEnv({
  shops: [{ domain: DOMAIN, contracts: 20 }],
  jobsSchema: SCHEMA,
  app: { webhookJobs: { deferSeconds: 1, pollingIntervalSeconds: 0.5 } },
})

const platform = () => env.emulator.store.shop(DOMAIN)!
const reads = (operationName: string, from: number) =>
  env.emulator.callLog.slice(from).filter((c) => c.shop === DOMAIN && c.operationName === operationName)
    .length

function post(topic: string, payload: object) {
  const body = JSON.stringify(payload)
  return env.app.inject({
    method: 'POST',
    url: '/webhooks',
    payload: body,
    headers: {
      'content-type': 'application/json',
      'x-shopify-topic': topic,
      'x-shopify-shop-domain': DOMAIN,
      'x-shopify-webhook-id': randomUUID(),
      'x-shopify-hmac-sha256': signWebhook(body, TEST_API_SECRET),
    },
  })
}

/** Waits until every deferred read queued so far has run. */
async function deferredReadsDone(): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const { rows } = await env.pool.query<{ n: number }>(
      `select count(*)::int as n from ${SCHEMA}.job where name = 'webhook-refresh' and state <> 'completed'`,
    )
    if (rows[0]!.n === 0) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error('deferred reads did not finish')
}

async function mirrored(id: number) {
  const shop = await env.shop(DOMAIN)
  const { rows } = await env.pool.query<{ note: string | null; revision_id: string }>(
    'select note, revision_id from subscription_contracts where shop_id = $1 and id = $2',
    [shop.id, id],
  )
  return rows[0]!
}

const contractBody = (id: number, revision: number) => ({
  admin_graphql_api_id: toGid('SubscriptionContract', id),
  id,
  status: 'active',
  revision_id: String(revision),
})

describe('deferred webhook reads', () => {
  it('reads a contract a moment later when the mirror is still behind the delivered revision', async () => {
    const c = platform().contracts.find((x) => x.status === 'ACTIVE')!
    c.note = '管理画面で変更'
    c.revisionId += 1
    c.updatedAt += 1000
    const from = env.emulator.callLog.length
    const res = await post('subscription_contracts/update', contractBody(c.id, c.revisionId))
    expect(res.statusCode).toBe(200)
    expect(reads('SubscriptionContract', from)).toBe(0)
    await deferredReadsDone()
    expect(reads('SubscriptionContract', from)).toBe(1)
    expect(await mirrored(c.id)).toMatchObject({ note: '管理画面で変更', revision_id: String(c.revisionId) })
  })

  it("does not read a contract whose delivered revision the app's own write mirrored meanwhile", async () => {
    const c = platform().contracts.filter((x) => x.status === 'ACTIVE')[1]!
    c.note = 'アプリの変更'
    c.revisionId += 1
    c.updatedAt += 1000
    const from = env.emulator.callLog.length
    expect((await post('subscription_contracts/update', contractBody(c.id, c.revisionId))).statusCode).toBe(
      200,
    )
    // The writer's transaction commits after the echo arrived (as a settlement or an edit does).
    await env.refreshMirror(DOMAIN, [c.id])
    const afterWriter = env.emulator.callLog.length
    await deferredReadsDone()
    expect(reads('SubscriptionContract', afterWriter)).toBe(0)
    expect(reads('SubscriptionContract', from)).toBe(1) // the writer's own read in this test
    // An older revision than the mirror's (a late delivery) is not read either.
    const late = env.emulator.callLog.length
    expect(
      (await post('subscription_contracts/update', contractBody(c.id, c.revisionId - 1))).statusCode,
    ).toBe(200)
    await deferredReadsDone()
    expect(reads('SubscriptionContract', late)).toBe(0)
  })

  it('reads an order not mirrored yet a moment later, and one mirrored meanwhile not at all', async () => {
    const shop = await env.shop(DOMAIN)
    const [first, second] = platform()
      .orders.filter((o) => o.customerId !== null)
      .slice(-2)
    if (!first || !second) throw new Error('the generated shop has orders')
    await env.pool.query('delete from orders where shop_id = $1 and id = any($2::bigint[])', [
      shop.id,
      [first.id, second.id],
    ])
    const from = env.emulator.callLog.length
    for (const o of [first, second]) {
      expect(
        (await post('orders/create', { id: o.id, admin_graphql_api_id: toGid('Order', o.id) })).statusCode,
      ).toBe(200)
    }
    expect(reads('Order', from)).toBe(0)
    await env.pool.query(
      `insert into orders (shop_id, id, name, total_amount, currency_code, test, created_at)
       values ($1, $2, '#mirrored', 1980, 'JPY', false, now())`,
      [shop.id, second.id],
    )
    await deferredReadsDone()
    expect(reads('Order', from)).toBe(1)
    const { rows } = await env.pool.query('select id::text from orders where shop_id = $1 and id = $2', [
      shop.id,
      first.id,
    ])
    expect(rows).toHaveLength(1)
  })

  it('counts a checkout’s order for its new contract while orders/create waits for its read', async () => {
    // A shopper buys on a plan: subscription_contracts/create is read at once, orders/create a
    // moment later (or, on the platform, delivered later). Meanwhile the contract already has
    // its first order (the next charge is cycle 2), and once the order is mirrored it is linked
    // and not counted twice.
    const group = platform().sellingPlanGroups.find((g) => g.productIds.length > 0)!
    const variantId = platform().products.find((p) => p.id === group.productIds[0])!.variantIds[0]!
    let cookie = ''
    const store = async (path: string, form: Record<string, string>) => {
      const res = await fetch(`${env.url}/s/${DOMAIN}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
        body: new URLSearchParams(form).toString(),
      })
      cookie = res.headers.get('set-cookie')?.split(';')[0] ?? cookie
      expect(res.status).toBe(303)
    }
    await store('/cart/add', { id: String(variantId), selling_plan: String(group.sellingPlans[0]!.id) })
    await store('/checkout', {
      email: `deferred.${STAMP}@example.jp`,
      lastName: '鈴木',
      firstName: '一郎',
      phone: '',
      zip: '060-0001',
      provinceCode: 'JP-01',
      city: '札幌市中央区',
      address1: '北1条西1-1',
      address2: '',
    })
    const c = platform().contracts.at(-1)!
    const shop = await env.shop(DOMAIN)
    const from = env.emulator.callLog.length
    // The contract's webhook first, its order's not applied yet: the order is not mirrored,
    // the contract counts it.
    expect((await post('subscription_contracts/create', contractBody(c.id, c.revisionId))).statusCode).toBe(
      200,
    )
    const held = await env.pool.query('select 1 from orders where shop_id = $1 and id = $2', [
      shop.id,
      c.originOrderId,
    ])
    expect(held.rows).toHaveLength(0)
    expect(await orderCount(env.pool, shop.id, String(c.id))).toBe(1)
    const order = { id: c.originOrderId, admin_graphql_api_id: toGid('Order', c.originOrderId!) }
    expect((await post('orders/create', order)).statusCode).toBe(200)
    await deferredReadsDone()
    expect(reads('Order', from)).toBe(1)
    const linked = await env.pool.query(
      'select contract_id::text from orders where shop_id = $1 and id = $2',
      [shop.id, c.originOrderId],
    )
    expect(linked.rows).toEqual([{ contract_id: String(c.id) }])
    expect(await orderCount(env.pool, shop.id, String(c.id))).toBe(1)
  })
})
