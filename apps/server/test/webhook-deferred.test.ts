import { randomUUID } from 'node:crypto'
import { signWebhook } from '@teiki/shopify-emulator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toGid } from '../src/platform/gid.ts'
import { type BillingEnv, refreshMirror, startBillingEnv } from './support/billing.ts'
import { TEST_API_SECRET } from './support/fixtures.ts'

// With a job queue, a contract or order webhook about a state the mirror does not hold yet is
// read a moment later, and only if the mirror is still behind then (features/webhooks/deferred.ts):
// most such deliveries are the echo of the app's own write, mirrored meanwhile.

const stamp = `${process.pid}-${Date.now().toString(36)}`
const DOMAIN = `deferred-${stamp}.myshopify.com`
const SCHEMA = `pgboss_deferred_${process.pid}`

let env: BillingEnv

beforeAll(async () => {
  env = await startBillingEnv({
    shops: [{ domain: DOMAIN, contracts: 20 }],
    jobsSchema: SCHEMA,
    app: { webhookJobs: { deferSeconds: 1, pollingIntervalSeconds: 0.5 } },
  })
}, 120_000)
afterAll(() => env?.close())

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
    await refreshMirror(env, DOMAIN, [c.id])
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
})
