import type { AddressInfo } from 'node:net'
import { createEmulator, type Emulator } from '@teiki/shopify-emulator'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runBilling } from '../src/billing/run.ts'
import { type AppInstance, buildApp } from '../src/http/app.ts'
import { hashSecret } from '../src/http/auth.ts'
import { asMerchantRequest, currentCallContext, PLATFORM_BUSY_MESSAGE } from '../src/http/request-context.ts'
import { INTERACTIVE_RESERVE } from '../src/platform/admission.ts'
import { findInstalledShop, type ShopRow, upsertShopInstall } from '../src/platform/shops-repo.ts'
import { fullSync } from '../src/sync/full-sync.ts'
import { chargeableContracts } from './support/billing.ts'
import { TEST_API_KEY, TEST_API_SECRET, testPool } from './support/fixtures.ts'

// The merchant lane end to end: the app's routes on an emulator throttled like a Standard shop
// (100 points/s, bucket 2,000), each test in its own shop (its own bucket).

const stamp = `${process.pid}-${Date.now().toString(36)}`
const shopName = (name: string) => `lanes-${name}-${stamp}.myshopify.com`
const BUSY = shopName('busy')
const EDIT = shopName('edit')
const BILL = shopName('bill')
const GONE = shopName('gone')
const SECRET = 's3cret-lanes'
/** Asks 41 points and takes them all (every shop here has 20 contracts or more). */
const DRAIN = 'query Drain { subscriptionContracts(first: 20) { nodes { id customer { id } } } }'

let pool: pg.Pool
let emulator: Emulator
let url = ''
/** The app under test (3 s deadline), and one with a long deadline over real HTTP. */
let app: AppInstance
let patient: AppInstance
let patientUrl = ''
/** The lanes' clock: Date.now() moved on by `offset` (a test jumps past a deadline with it). */
const clock = { offset: 0 }
const now = () => Date.now() + clock.offset
/** Called with each Admin API answer the apps get (operation name, throttleStatus). */
let onAnswer: ((operationName: string | undefined, available: number | undefined) => void) | undefined
const contextAtInstall: unknown[] = []

const appFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init)
  if (onAnswer && String(input).endsWith('/graphql.json')) {
    const body = (await response.clone().json()) as {
      extensions?: { cost?: { throttleStatus?: { currentlyAvailable: number } } }
    }
    const { operationName } = JSON.parse(String(init?.body)) as { operationName?: string }
    onAnswer(operationName, body.extensions?.cost?.throttleStatus?.currentlyAvailable)
  }
  return response
}

async function startApp(deadlineMs: number): Promise<AppInstance> {
  const built = await buildApp({
    db: pool,
    platform: {
      adminOrigin: () => url,
      apiKey: TEST_API_KEY,
      fetch: appFetch,
      clientRetry: { maxRetries: 2, retryBaseMs: 5 },
      lanes: { now, deadlineMs },
    },
    apiSecret: TEST_API_SECRET,
    logger: { level: 'fatal' },
    onInstalled: () => {
      contextAtInstall.push(currentCallContext())
    },
  })
  await built.ready()
  return built
}

beforeAll(async () => {
  pool = testPool()
  emulator = await createEmulator({
    // Plus while the mirrors fill (quicker), then Standard for the tests (below).
    shops: [BUSY, EDIT, GONE]
      .map((domain) => ({ domain, contracts: 20, plan: 'Shopify Plus' }))
      .concat({ domain: BILL, contracts: 90, plan: 'Shopify Plus' }),
    now: new Date('2026-11-22T00:00:00Z'),
    apiKey: TEST_API_KEY,
    apiSecret: TEST_API_SECRET,
    billingDelayMs: 5,
  })
  url = (await emulator.listen(0)).url
  app = await startApp(3_000)
  patient = await startApp(60_000)
  await patient.listen({ port: 0, host: '127.0.0.1' })
  patientUrl = `http://127.0.0.1:${(patient.server.address() as AddressInfo).port}`
  for (const domain of [BUSY, EDIT, BILL, GONE]) {
    const install = emulator.install(domain)
    await upsertShopInstall(pool, {
      domain,
      accessToken: install.accessToken,
      scopes: install.scopes,
      secretHash: hashSecret(SECRET),
    })
    const shop = await shopRow(domain)
    await fullSync(pool, app.shopClients.clientFor(shop), shop)
    // Standard: restore 100 points/s, bucket 2,000 (a fresh, full bucket).
    emulator.setPlan(domain, 'Basic')
  }
}, 120_000)
afterAll(async () => {
  await app?.close()
  await patient?.close()
  await emulator?.close()
  await pool?.end()
})

const shopRow = async (domain: string) => (await findInstalledShop(pool, domain)) as ShopRow
const contractOf = (domain: string, index = 0) => emulator.store.shop(domain)!.contracts[index]!
const sentOf = (domain: string, operationName: string) =>
  emulator.callLog.filter((c) => c.shop === domain && c.operationName === operationName).length

function call(method: 'GET' | 'PUT', path: string, domain: string, body?: Record<string, unknown>) {
  return app.inject({
    method,
    url: `/app-admin${path}?shop=${domain}&secret=${SECRET}`,
    ...(body ? { payload: body } : {}),
  })
}

/** Spends the shop's bucket down to `level` points as a merchant may, through the app's client. */
async function drain(target: AppInstance, domain: string, level = 150): Promise<void> {
  const client = target.shopClients.clientFor(await shopRow(domain))
  const merchant = { deadline: Infinity, signal: new AbortController().signal }
  for (let i = 0; i < 500; i++) {
    await asMerchantRequest(merchant, () => client.request('Drain', DRAIN))
    const status = await emulator.graphql(domain, { query: '{ shop { name } }' })
    if ((status.extensions?.cost.throttleStatus.currentlyAvailable ?? 0) < level) return
  }
  throw new Error('the bucket did not drain')
}

describe('merchant requests during background work', () => {
  it('answers 503 with a Japanese message, sending nothing, when the deadline passes in the queue', async () => {
    const id = contractOf(BUSY).id
    // The first detail read teaches the client its cost (683 points asked up front).
    expect((await call('GET', `/subscriptions/${id}`, BUSY)).statusCode).toBe(200)
    await drain(app, BUSY)
    const sent = sentOf(BUSY, 'SubscriptionContractDetail')
    // < 150 points at 100/s: the read would wait over 5 s; the request's deadline is 3 s.
    const res = await call('GET', `/subscriptions/${id}`, BUSY)
    expect(res.statusCode).toBe(503)
    expect(res.json()).toEqual({ error: { code: 'PLATFORM_BUSY', message: PLATFORM_BUSY_MESSAGE } })
    expect(sentOf(BUSY, 'SubscriptionContractDetail')).toBe(sent)
  })

  it('never commits an edit whose deadline passed between the draft update and the commit', async () => {
    const contract = contractOf(EDIT)
    const before = { note: contract.note, revision: contract.revisionId }
    const commits = sentOf(EDIT, 'SubscriptionDraftCommit')
    // Over real HTTP, the body arriving in two parts: it is parsed from later socket events,
    // outside the hooks that set the request's context.
    const editNote = () => {
      const body = JSON.stringify({ note: '置き配希望', revision: String(contract.revisionId) })
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode(body.slice(0, 10)))
          await new Promise((resolve) => setTimeout(resolve, 100))
          controller.enqueue(new TextEncoder().encode(body.slice(10)))
          controller.close()
        },
      })
      const path = `/app-admin/subscription-contracts/${contract.id}/note?shop=${EDIT}&secret=${SECRET}`
      return fetch(`${patientUrl}${path}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit)
    }
    onAnswer = (operationName) => {
      // The merchant's request has waited past its deadline by the time the update answers.
      if (operationName === 'SubscriptionDraftUpdate') clock.offset += 120_000
    }
    let res: Response
    try {
      res = await editNote()
    } finally {
      onAnswer = undefined
    }
    expect(res.status).toBe(503)
    expect(((await res.json()) as { error: unknown }).error).toEqual({
      code: 'PLATFORM_BUSY',
      message: expect.stringContaining('メモの変更ができませんでした（変更はされていません）'),
    })
    expect(sentOf(EDIT, 'SubscriptionDraftUpdate')).toBeGreaterThan(0)
    expect(sentOf(EDIT, 'SubscriptionDraftCommit')).toBe(commits)
    const after = contractOf(EDIT)
    expect({ note: after.note, revision: after.revisionId }).toEqual(before)
    // The draft left behind changes nothing: the same edit, tried again, goes through.
    expect((await editNote()).status).toBe(200)
    expect(contractOf(EDIT).note).toBe('置き配希望')
  })

  it('drops a waiting call when the merchant closes the connection, so it is never sent later', async () => {
    const id = contractOf(GONE).id
    const detail = (signal?: AbortSignal) =>
      fetch(`${patientUrl}/app-admin/subscriptions/${id}?shop=${GONE}&secret=${SECRET}`, { signal })
    expect((await detail()).status).toBe(200)
    await drain(patient, GONE)
    const sent = sentOf(GONE, 'SubscriptionContractDetail')
    const left = new AbortController()
    const request = detail(left.signal).catch(() => 'closed')
    // The read waits for points (over 5 s at this level), well within this app's 60 s deadline.
    await new Promise((resolve) => setTimeout(resolve, 300))
    left.abort()
    expect(await request).toBe('closed')
    // By the time its points would have been there, nothing was sent for it.
    await new Promise((resolve) => setTimeout(resolve, 8_000))
    expect(sentOf(GONE, 'SubscriptionContractDetail')).toBe(sent)
  }, 30_000)

  it('runs the billing engine outside requests as background work, above the reserve', async () => {
    const ids = chargeableContracts(emulator, BILL, 30)
    const runAt = new Date('2026-11-25T01:00:00Z')
    const dueAt = new Date(runAt.getTime() - 3_600_000)
    const platform = emulator.store.shop(BILL)!
    for (const c of platform.contracts) {
      if (c.status === 'ACTIVE')
        c.nextBillingDate = (ids.includes(c.id) ? dueAt : new Date('2027-06-01')).getTime()
    }
    const shop = await shopRow(BILL)
    await pool.query(
      `update subscription_contracts set next_billing_date = case when id = any($2::bigint[]) then $3::timestamptz
         else '2027-06-01'::timestamptz end where shop_id = $1 and status = 'ACTIVE'`,
      [shop.id, ids, dueAt],
    )
    // The run starts just above the reserve, so it can only go on with what the refill brings.
    await drain(app, BILL, INTERACTIVE_RESERVE + 200)
    let lowest = Infinity
    onAnswer = (_operation, available) => {
      if (available !== undefined) lowest = Math.min(lowest, available)
    }
    try {
      const summary = await runBilling({
        db: pool,
        clients: app.shopClients,
        shop,
        now: runAt,
        engine: app.billingEngine,
        wait: { intervalMs: 50, maxIntervalMs: 200, timeoutMs: 60_000 },
      })
      expect(summary.succeeded).toBe(30)
    } finally {
      onAnswer = undefined
    }
    // The run waited for the refill rather than spend the points kept for merchants. (An
    // answer's status comes after the refund of asked minus actual cost: a small margin.)
    expect(lowest).toBeGreaterThanOrEqual(INTERACTIVE_RESERVE - 100)
    expect(lowest).toBeLessThan(INTERACTIVE_RESERVE + 200)
  }, 60_000)

  it('runs the first sync after an install outside the merchant request that triggered it', async () => {
    const domain = shopName('new')
    emulator.install(domain)
    const res = await app.inject({
      method: 'GET',
      url: '/app-admin/shop-currency-code',
      headers: { authorization: `Bearer ${emulator.sessionToken(domain)}` },
    })
    expect(res.statusCode).toBe(200)
    await expect.poll(() => contextAtInstall.length).toBe(1)
    expect(contextAtInstall[0]).toBeUndefined()
  })
})
