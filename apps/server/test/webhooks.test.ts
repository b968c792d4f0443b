import { randomUUID } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { createEmulator, type Emulator, signWebhook } from '@teiki/shopify-emulator'
import type pg from 'pg'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { SUBSCRIBED_TOPICS } from '../src/features/webhooks/topics.ts'
import type { AppInstance } from '../src/http/app.ts'
import { hashSecret } from '../src/http/auth.ts'
import { type AdminClient, createAdminClient } from '../src/platform/admin-client.ts'
import { toGid } from '../src/platform/gid.ts'
import { fetchSubscriptionContract } from '../src/platform/operations/subscription-contract.ts'
import { upsertShopInstall } from '../src/platform/shops-repo.ts'
import { appendContractEvents, upsertContracts } from '../src/sync/contracts-repo.ts'
import { contractRecord, lineRecords } from '../src/sync/records.ts'
import {
  buildTestApp,
  QUICK_RETRIES,
  TEST_API_KEY,
  TEST_API_SECRET,
  testDomain,
  testPool,
} from './support/fixtures.ts'

const DOMAIN = testDomain('hooks')
/** A second shop the uninstall and shop/redact tests may destroy. */
const LEAVING = testDomain('hooks-leaving')
const SECRET = 's3cret-hooks'

let pool: pg.Pool
let app: AppInstance
let emulator: Emulator
let emulatorUrl = ''
let client: AdminClient
const shopIds: Record<string, string> = {}

beforeAll(async () => {
  pool = testPool()
  app = await buildTestApp(pool, { platform: { adminOrigin: () => emulatorUrl, clientRetry: QUICK_RETRIES } })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  emulator = await createEmulator({
    shops: [
      { domain: DOMAIN, contracts: 40 },
      { domain: LEAVING, contracts: 5 },
    ],
    now: new Date('2026-11-22T00:00:00Z'),
    throttle: false,
    apiKey: TEST_API_KEY,
    apiSecret: TEST_API_SECRET,
    webhooks: {
      callbackUrl: `http://127.0.0.1:${port}/webhooks`,
      topics: [...SUBSCRIBED_TOPICS],
      retryBaseMs: 20,
      reorderHoldMs: 100,
    },
  })
  emulatorUrl = (await emulator.listen(0)).url
  for (const domain of [DOMAIN, LEAVING]) {
    const install = emulator.install(domain)
    const row = await upsertShopInstall(pool, {
      domain,
      accessToken: install.accessToken,
      scopes: install.scopes,
      secretHash: hashSecret(SECRET),
    })
    shopIds[domain] = row.id
  }
  const install = emulator.install(DOMAIN)
  client = createAdminClient({ shop: DOMAIN, accessToken: install.accessToken, origin: emulatorUrl })
})
afterAll(async () => {
  await emulator.close()
  await app.close()
  await pool.end()
})
beforeEach(() => {
  emulator.faults.reset()
})

const platform = () => emulator.store.shop(DOMAIN)!
const shopId = () => shopIds[DOMAIN]!

/** Puts the platform's current contract in the mirror, as the full sync would. */
async function mirror(contractId: number): Promise<void> {
  const contract = await fetchSubscriptionContract(client, toGid('SubscriptionContract', contractId))
  const changes = await upsertContracts(pool, shopId(), [contractRecord(contract!)], lineRecords(contract!))
  await appendContractEvents(pool, shopId(), 'sync', changes)
}

/** An active contract not used by an earlier test, mirrored. */
const used = new Set<number>()
async function freshActiveContract(filter: (id: number) => boolean = () => true): Promise<number> {
  const c = platform().contracts.find((c) => c.status === 'ACTIVE' && !used.has(c.id) && filter(c.id))!
  used.add(c.id)
  await mirror(c.id)
  return c.id
}

async function setStatus(mutation: string, contractId: number): Promise<void> {
  const res = await emulator.graphql(DOMAIN, {
    query: `mutation { ${mutation}(subscriptionContractId: "${toGid('SubscriptionContract', contractId)}") {
      contract { id status } userErrors { field message } } }`,
  })
  expect(res.errors).toBeUndefined()
  expect((res.data as Record<string, { userErrors: unknown[] }>)[mutation]!.userErrors).toEqual([])
}

async function row(contractId: number) {
  const { rows } = await pool.query(
    'select status, updated_at, last_payment_status from subscription_contracts where shop_id = $1 and id = $2',
    [shopId(), contractId],
  )
  return rows[0]
}

async function events(contractId: number) {
  const { rows } = await pool.query<{ type: string; source: string; payload: Record<string, unknown> }>(
    'select type, source, payload from contract_events where shop_id = $1 and contract_id = $2 order by id',
    [shopId(), contractId],
  )
  return rows
}

async function deliveriesRecorded(webhookId: string): Promise<number> {
  const { rows } = await pool.query(
    'select count(*)::int as n from webhook_deliveries where webhook_id = $1',
    [webhookId],
  )
  return rows[0].n
}

/** A contract body in the platform's shape (its GID, id and status). */
const contractBody = (id: number, status = 'active') => ({
  admin_graphql_api_id: toGid('SubscriptionContract', id),
  id,
  status,
})

function post(
  topic: string,
  payload: unknown,
  opts: { webhookId?: string; shop?: string; hmac?: string | null; body?: string } = {},
) {
  const body = opts.body ?? JSON.stringify(payload)
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-shopify-topic': topic,
    'x-shopify-shop-domain': opts.shop ?? DOMAIN,
    'x-shopify-webhook-id': opts.webhookId ?? randomUUID(),
  }
  if (opts.hmac !== null) headers['x-shopify-hmac-sha256'] = opts.hmac ?? signWebhook(body, TEST_API_SECRET)
  return app.inject({ method: 'POST', url: '/webhooks', payload: body, headers })
}

describe('webhook intake: authenticity', () => {
  it('answers 401 and records nothing for a bad or missing HMAC', async () => {
    const contractId = await freshActiveContract()
    const payload = { admin_graphql_api_id: toGid('SubscriptionContract', contractId), id: contractId }
    for (const hmac of [signWebhook(JSON.stringify(payload), 'not-the-app-secret'), null, 'garbage']) {
      const webhookId = randomUUID()
      const res = await post('subscription_contracts/update', payload, { webhookId, hmac })
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: expect.any(String) } })
      expect(await deliveriesRecorded(webhookId)).toBe(0)
    }
  })

  it('rejects a body changed after signing (the HMAC is over the raw bytes)', async () => {
    const body = JSON.stringify({ id: 1 })
    const res = await post('orders/create', null, {
      body: `${body} `,
      hmac: signWebhook(body, TEST_API_SECRET),
    })
    expect(res.statusCode).toBe(401)
  })

  it('acknowledges unknown shops and unknown topics without recording them', async () => {
    const unknownShop = await post('subscription_contracts/update', contractBody(1), {
      shop: 'nobody.myshopify.com',
    })
    expect(unknownShop.statusCode).toBe(200)
    const webhookId = randomUUID()
    const unknownTopic = await post('products/update', { id: 1 }, { webhookId })
    expect(unknownTopic.statusCode).toBe(200)
    expect(await deliveriesRecorded(webhookId)).toBe(0)
  })
})

describe('contract webhooks from the platform', () => {
  it('mirrors a pause made on the platform, with one status_changed event', async () => {
    const contractId = await freshActiveContract()
    await setStatus('subscriptionContractPause', contractId)
    await emulator.idle()

    expect((await row(contractId)).status).toBe('PAUSED')
    const moved = (await events(contractId)).filter((e) => e.type === 'status_changed')
    expect(moved).toEqual([
      { type: 'status_changed', source: 'webhook', payload: { from: 'ACTIVE', to: 'PAUSED' } },
    ])
    const sent = emulator.webhooks.deliveries.filter((d) => JSON.parse(d.body).id === contractId)
    expect(sent.map((d) => d.topic).sort()).toEqual([
      'subscription_contracts/pause',
      'subscription_contracts/update',
    ])
    expect(sent.every((d) => d.status === 'delivered')).toBe(true)
    for (const d of sent) expect(await deliveriesRecorded(d.webhookId)).toBe(1)
  })

  it('applies a delivery sent twice once (same X-Shopify-Webhook-Id)', async () => {
    const contractId = await freshActiveContract()
    emulator.faults.set({ duplicate: 1 })
    await setStatus('subscriptionContractPause', contractId)
    await emulator.idle()
    const sent = emulator.webhooks.deliveries.filter((d) => JSON.parse(d.body).id === contractId)
    expect(sent.every((d) => d.duplicated)).toBe(true)

    // And once more by hand, the same bytes and id, after everything settled.
    const first = sent[0]!
    const again = await post(first.topic, null, { body: first.body, webhookId: first.webhookId })
    expect(again.statusCode).toBe(200)
    expect(again.json().outcome).toBe('duplicate')

    expect((await row(contractId)).status).toBe('PAUSED')
    expect((await events(contractId)).filter((e) => e.type === 'status_changed')).toHaveLength(1)
    expect(await deliveriesRecorded(first.webhookId)).toBe(1)
  })

  it('never moves a contract backwards when deliveries arrive out of order', async () => {
    const contractId = await freshActiveContract()
    emulator.faults.set({ reorder: 1 })
    await setStatus('subscriptionContractPause', contractId)
    await setStatus('subscriptionContractCancel', contractId)
    await emulator.idle()
    expect((await row(contractId)).status).toBe('CANCELLED')
    const moves = (await events(contractId)).filter((e) => e.type === 'status_changed')
    expect(moves.at(-1)?.payload.to).toBe('CANCELLED')
    expect(moves.some((e) => e.payload.from === 'CANCELLED')).toBe(false)

    // A signed copy of the older pause payload, re-sent with a new id later, changes nothing.
    const pause = emulator.webhooks.deliveries.find(
      (d) => d.topic === 'subscription_contracts/pause' && JSON.parse(d.body).id === contractId,
    )!
    // The knob really held the first event back: it was received after the event that followed it.
    const received = await pool.query<{ topic: string; received_at: Date }>(
      'select topic, received_at from webhook_deliveries where webhook_id = any($1) order by received_at, topic',
      [
        emulator.webhooks.deliveries
          .filter((d) => JSON.parse(d.body).id === contractId)
          .map((d) => d.webhookId),
      ],
    )
    expect(received.rows[0]?.topic).not.toBe('subscription_contracts/pause')

    const res = await post(pause.topic, null, { body: pause.body })
    expect(res.json().outcome).toBe('applied')
    expect((await row(contractId)).status).toBe('CANCELLED')
    expect((await events(contractId)).filter((e) => e.type === 'status_changed')).toEqual(moves)
  })

  it('keeps a newer mirror row when the platform answers with an older state', async () => {
    const contractId = await freshActiveContract()
    await pool.query(
      `update subscription_contracts set status = 'PAUSED', updated_at = now() + interval '1 hour'
       where shop_id = $1 and id = $2`,
      [shopId(), contractId],
    )
    const res = await post('subscription_contracts/update', {
      admin_graphql_api_id: toGid('SubscriptionContract', contractId),
      id: contractId,
      status: 'active',
    })
    expect(res.statusCode).toBe(200)
    expect((await row(contractId)).status).toBe('PAUSED')
  })

  it('answers 500 and records nothing when the platform read fails, so the retry applies it', async () => {
    const contractId = await freshActiveContract()
    const platformContract = platform().contracts.find((c) => c.id === contractId)!
    platformContract.status = 'PAUSED'
    platformContract.updatedAt = Date.now()
    const webhookId = randomUUID()
    const payload = contractBody(contractId, 'paused')

    emulator.faults.set({ errorRate: 1 })
    const failed = await post('subscription_contracts/pause', payload, { webhookId })
    expect(failed.statusCode).toBe(500)
    expect(await deliveriesRecorded(webhookId)).toBe(0)
    expect((await row(contractId)).status).toBe('ACTIVE')

    emulator.faults.reset()
    const retried = await post('subscription_contracts/pause', payload, { webhookId })
    expect(retried.statusCode).toBe(200)
    expect(await deliveriesRecorded(webhookId)).toBe(1)
    expect((await row(contractId)).status).toBe('PAUSED')
  })

  it("answers 500 inside the platform's 5 s delivery window when the platform hangs, recording nothing", async () => {
    const contractId = await freshActiveContract()
    const webhookId = randomUUID()
    // Longer than the delivery window: without the handler's deadline the read would finish
    // (and the answer be 200) only after the platform had given up on the delivery.
    emulator.faults.set({ latencyMs: 8_000 })
    const res = await post('subscription_contracts/update', contractBody(contractId), { webhookId })
    emulator.faults.reset()
    expect(res.statusCode).toBe(500)
    expect(await deliveriesRecorded(webhookId)).toBe(0)
  })

  it('leaves the mirror as it is when the platform no longer has the contract', async () => {
    const res = await post('subscription_contracts/update', {
      admin_graphql_api_id: toGid('SubscriptionContract', 99_999_999),
      id: 99_999_999,
    })
    expect(res.statusCode).toBe(200)
    const { rows } = await pool.query('select 1 from subscription_contracts where shop_id = $1 and id = $2', [
      shopId(),
      99_999_999,
    ])
    expect(rows).toEqual([])
  })
})

describe('billing attempt webhooks', () => {
  /** A contract the emulator will charge successfully (valid, unexpired card). */
  const chargeable = (id: number) => {
    const c = platform().contracts.find((x) => x.id === id)!
    const pm = platform().paymentMethods.find((p) => p.id === c.paymentMethodId)
    const card = pm?.instrument as { expiryYear?: number } | undefined
    return !!pm && pm.revokedAt === null && (card?.expiryYear ?? 9999) > new Date().getUTCFullYear()
  }

  async function charge(contractId: number, key: string) {
    const res = await emulator.graphql(DOMAIN, {
      query: `mutation { subscriptionBillingAttemptCreate(
        subscriptionContractId: "${toGid('SubscriptionContract', contractId)}",
        subscriptionBillingAttemptInput: { idempotencyKey: "${key}" }
      ) { subscriptionBillingAttempt { id } userErrors { field message } } }`,
    })
    const data = res.data as {
      subscriptionBillingAttemptCreate: {
        subscriptionBillingAttempt: { id: string } | null
        userErrors: unknown[]
      }
    }
    expect(data.subscriptionBillingAttemptCreate.userErrors).toEqual([])
    await emulator.idle()
    return data.subscriptionBillingAttemptCreate.subscriptionBillingAttempt!.id.split('/').pop()!
  }

  it('records a successful attempt, its order and a billing_succeeded event', async () => {
    const contractId = await freshActiveContract(chargeable)
    const attemptId = await charge(contractId, `hooks-ok-${contractId}`)

    const attempt = await pool.query(
      'select contract_id, idempotency_key, ready, error_code, order_id from billing_attempts where shop_id = $1 and id = $2',
      [shopId(), attemptId],
    )
    expect(attempt.rows[0]).toMatchObject({
      contract_id: String(contractId),
      idempotency_key: `hooks-ok-${contractId}`,
      ready: true,
      error_code: null,
    })
    const orderId = attempt.rows[0].order_id as string
    expect(orderId).toMatch(/^\d+$/)
    const order = await pool.query(
      'select contract_id, total_amount, currency_code from orders where shop_id = $1 and id = $2',
      [shopId(), orderId],
    )
    const platformOrder = platform().orders.find((o) => String(o.id) === orderId)!
    expect(order.rows[0].contract_id).toBe(String(contractId))
    expect(Number(order.rows[0].total_amount)).toBe(platformOrder.totalPriceSet)
    expect(order.rows[0].currency_code).toBe('JPY')
    expect((await row(contractId)).last_payment_status).toBe('SUCCEEDED')

    const billed = (await events(contractId)).filter((e) => e.type.startsWith('billing_'))
    expect(billed).toHaveLength(1)
    expect(billed[0]).toMatchObject({
      type: 'billing_succeeded',
      source: 'webhook',
      payload: { attemptId, orderId, currencyCode: 'JPY' },
    })
    expect(Number(billed[0]!.payload.amount)).toBe(platformOrder.totalPriceSet)
  })

  it('records a failed attempt with its error and a billing_failed event', async () => {
    const contractId = await freshActiveContract(chargeable)
    const customerId = platform().contracts.find((c) => c.id === contractId)!.customerId
    emulator.faults.failPayment(DOMAIN, customerId, 'INSUFFICIENT_FUNDS')
    const attemptId = await charge(contractId, `hooks-ng-${contractId}`)

    const attempt = await pool.query(
      'select ready, error_code, error_message, order_id from billing_attempts where shop_id = $1 and id = $2',
      [shopId(), attemptId],
    )
    expect(attempt.rows[0]).toMatchObject({ ready: true, error_code: 'INSUFFICIENT_FUNDS', order_id: null })
    expect((await row(contractId)).last_payment_status).toBe('FAILED')
    const billed = (await events(contractId)).filter((e) => e.type.startsWith('billing_'))
    expect(billed.map((e) => [e.type, e.payload.errorCode])).toEqual([
      ['billing_failed', 'INSUFFICIENT_FUNDS'],
    ])
  })
})

describe('deliveries the mirror already holds', () => {
  const readsOf = (operationName: string, from: number) =>
    emulator.callLog.slice(from).filter((c) => c.shop === DOMAIN && c.operationName === operationName).length

  it('records a contract delivery naming the mirrored revision without reading the contract', async () => {
    const contractId = await freshActiveContract()
    const c = platform().contracts.find((x) => x.id === contractId)!
    const from = emulator.callLog.length
    const same = await post('subscription_contracts/update', {
      ...contractBody(contractId),
      revision_id: String(c.revisionId),
    })
    expect(same.statusCode).toBe(200)
    expect(readsOf('SubscriptionContract', from)).toBe(0)
    // Another revision (a change the mirror has not seen) is read as always.
    c.note = '変更あり'
    c.revisionId += 1
    c.updatedAt += 1000
    const newer = await post('subscription_contracts/update', {
      ...contractBody(contractId),
      revision_id: String(c.revisionId),
    })
    expect(newer.statusCode).toBe(200)
    expect(readsOf('SubscriptionContract', from)).toBe(1)
    const { rows } = await pool.query(
      'select note from subscription_contracts where shop_id = $1 and id = $2',
      [shopId(), contractId],
    )
    expect(rows[0].note).toBe('変更あり')
  })

  it('records an orders/create of an order the mirror holds without reading it', async () => {
    const order = platform().orders.find((o) => o.customerId !== null && o.id !== platform().orders[0]!.id)!
    const body = { id: order.id, admin_graphql_api_id: toGid('Order', order.id) }
    expect((await post('orders/create', body)).statusCode).toBe(200)
    const from = emulator.callLog.length
    const again = await post('orders/create', body)
    expect(again.statusCode).toBe(200)
    expect(readsOf('Order', from)).toBe(0)
  })
})

describe('orders/create', () => {
  it('upserts the order as the platform has it, without a contract link', async () => {
    // A renewal: the body names no contract (an origin order is linked to its contract, below).
    const origins = new Set(platform().contracts.map((c) => c.originOrderId))
    const order = platform().orders.find((o) => o.customerId !== null && !origins.has(o.id))!
    const res = await post('orders/create', {
      id: order.id,
      admin_graphql_api_id: toGid('Order', order.id),
      name: 'what the payload says',
      created_at: '2026-11-20T01:02:03Z',
      currency: 'JPY',
      total_price: '1.00',
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().outcome).toBe('applied')
    const { rows } = await pool.query(
      'select name, contract_id, customer_id, total_amount, test from orders where shop_id = $1 and id = $2',
      [shopId(), order.id],
    )
    expect(rows[0]).toMatchObject({
      name: `#${order.number}`,
      contract_id: null,
      customer_id: String(order.customerId),
      test: order.test,
    })
    expect(Number(rows[0].total_amount)).toBe(order.totalPriceSet)
  })
})

describe('selling plan group webhooks', () => {
  it('mirrors a group created on the platform and removes it when deleted', async () => {
    const created = await emulator.graphql(DOMAIN, {
      query: `mutation { sellingPlanGroupCreate(input: {
        name: "Webhook定期便", merchantCode: "hooks", options: ["配送間隔"],
        sellingPlansToCreate: [{ name: "毎月お届け", options: ["1ヶ月"], category: SUBSCRIPTION,
          billingPolicy: { recurring: { interval: MONTH, intervalCount: 1 } },
          deliveryPolicy: { recurring: { interval: MONTH, intervalCount: 1 } } }]
      }) { sellingPlanGroup { id } userErrors { field message } } }`,
    })
    expect(created.errors).toBeUndefined()
    const data = created.data as {
      sellingPlanGroupCreate: { sellingPlanGroup: { id: string } | null; userErrors: unknown[] }
    }
    expect(data.sellingPlanGroupCreate.userErrors).toEqual([])
    const gid = data.sellingPlanGroupCreate.sellingPlanGroup!.id
    const id = gid.split('/').pop()
    await emulator.idle()
    const group = await pool.query('select name from selling_plan_groups where shop_id = $1 and id = $2', [
      shopId(),
      id,
    ])
    expect(group.rows).toEqual([{ name: 'Webhook定期便' }])
    const plans = await pool.query('select name from selling_plans where shop_id = $1 and group_id = $2', [
      shopId(),
      id,
    ])
    expect(plans.rows).toEqual([{ name: '毎月お届け' }])

    const deleted = await emulator.graphql(DOMAIN, {
      query: `mutation { sellingPlanGroupDelete(id: "${gid}") { deletedSellingPlanGroupId userErrors { message } } }`,
    })
    expect(deleted.errors).toBeUndefined()
    await emulator.idle()
    const after = await pool.query(
      'select count(*)::int as n from selling_plans where shop_id = $1 and group_id = $2',
      [shopId(), id],
    )
    expect(after.rows[0].n).toBe(0)
    const gone = await pool.query('select 1 from selling_plan_groups where shop_id = $1 and id = $2', [
      shopId(),
      id,
    ])
    expect(gone.rows).toEqual([])
  })
})

describe('compliance webhooks', () => {
  it('customers/redact removes the customer personal data and the name copies on contracts', async () => {
    const contractId = await freshActiveContract()
    const customerId = platform().contracts.find((c) => c.id === contractId)!.customerId
    await pool.query(
      `insert into customers (shop_id, id, first_name, last_name, display_name, name_key, email, phone, phone_rev,
         default_address)
       values ($1, $2, '花子', '山田', '山田 花子', '山田花子', 'hanako@example.jp', '+819012345678', '876543210918',
         '{"city":"渋谷区"}')
       on conflict (shop_id, id) do update set first_name = excluded.first_name, last_name = excluded.last_name,
         display_name = excluded.display_name, name_key = excluded.name_key, email = excluded.email,
         phone = excluded.phone, phone_rev = excluded.phone_rev, default_address = excluded.default_address`,
      [shopId(), customerId],
    )
    await pool.query(
      `update subscription_contracts set customer_display_name = '山田 花子' where shop_id = $1 and customer_id = $2`,
      [shopId(), customerId],
    )
    const res = await post('customers/redact', {
      shop_id: platform().info.id,
      shop_domain: DOMAIN,
      customer: { id: customerId, email: 'hanako@example.jp', phone: '+819012345678' },
      orders_to_redact: [],
    })
    expect(res.statusCode).toBe(200)
    const customer = await pool.query(
      `select first_name, last_name, display_name, name_key, email, phone, phone_rev, default_address
       from customers where shop_id = $1 and id = $2`,
      [shopId(), customerId],
    )
    expect(customer.rows[0]).toEqual({
      first_name: null,
      last_name: null,
      display_name: '',
      name_key: '',
      email: null,
      phone: null,
      phone_rev: null,
      default_address: null,
    })
    const contracts = await pool.query(
      'select customer_display_name, delivery_method from subscription_contracts where shop_id = $1 and customer_id = $2',
      [shopId(), customerId],
    )
    expect(contracts.rows.length).toBeGreaterThan(0)
    for (const c of contracts.rows) expect(c).toEqual({ customer_display_name: '', delivery_method: null })
  })

  it('customers/data_request is acknowledged', async () => {
    const res = await post('customers/data_request', {
      shop_id: platform().info.id,
      shop_domain: DOMAIN,
      customer: { id: 1, email: null, phone: null },
      orders_requested: [],
      data_request: { id: 9 },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().outcome).toBe('applied')
  })
})

describe('uninstall and shop/redact', () => {
  const leavingId = () => shopIds[LEAVING]!
  const shopRedactBody = () => ({ shop_id: emulator.store.shop(LEAVING)!.info.id, shop_domain: LEAVING })
  const search = () =>
    app.inject({ method: 'GET', url: `/app-admin/shop-currency-code?shop=${LEAVING}&secret=${SECRET}` })

  it('shop/redact is not applied while the shop is installed', async () => {
    const res = await post('shop/redact', shopRedactBody(), { shop: LEAVING })
    expect(res.statusCode).toBe(200)
    const { rows } = await pool.query('select 1 from shops where id = $1', [leavingId()])
    expect(rows).toHaveLength(1)
  })

  it('app/uninstalled marks the shop uninstalled, drops its token and its requests answer 401', async () => {
    expect((await search()).statusCode).toBe(200) // also warms the auth cache
    emulator.uninstall(LEAVING)
    await emulator.idle()
    const { rows } = await pool.query('select uninstalled_at, access_token from shops where id = $1', [
      leavingId(),
    ])
    expect(rows[0].uninstalled_at).not.toBeNull()
    expect(rows[0].access_token).toBeNull()
    const res = await search()
    expect(res.statusCode).toBe(401)
    expect(res.json().error.code).toBe('UNAUTHENTICATED')
    // Further deliveries for the shop are acknowledged and ignored.
    const late = await post('subscription_contracts/update', contractBody(1), { shop: LEAVING })
    expect(late.statusCode).toBe(200)
    expect(late.json().outcome).toBe('ignored')
  })

  it('shop/redact after the uninstall deletes every row of the shop', async () => {
    await pool.query(
      `insert into subscription_contracts (shop_id, id, status, customer_id, created_at, updated_at)
       values ($1, 1, 'ACTIVE', 1, now(), now())`,
      [leavingId()],
    )
    await pool.query(
      `insert into contract_events (shop_id, contract_id, type, occurred_at, source) values ($1, 1, 'created', now(), 'sync')`,
      [leavingId()],
    )
    const res = await post('shop/redact', shopRedactBody(), { shop: LEAVING })
    expect(res.statusCode).toBe(200)
    for (const table of ['shops', 'subscription_contracts', 'contract_events', 'webhook_deliveries']) {
      const column = table === 'shops' ? 'id' : 'shop_id'
      const { rows } = await pool.query(`select count(*)::int as n from ${table} where ${column} = $1`, [
        leavingId(),
      ])
      expect(rows[0].n, table).toBe(0)
    }
  })
})
