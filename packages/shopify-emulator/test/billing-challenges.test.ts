import { createHmac } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { toGid } from '../src/gid.ts'
import type { ContractRecord } from '../src/records.ts'
import type { Emulator } from '../src/server.ts'
import { gql, SHOP, smallEmulator, webhookReceiver } from './support/harness.ts'
import * as m from './support/mutations.ts'

const SECRET = 'shpss_challenge_secret'
const TOPICS = [
  'subscription_billing_attempts/success',
  'subscription_billing_attempts/failure',
  'subscription_billing_attempts/challenged',
  'orders/create',
]

/** A challenged attempt as the deprecated 2025-04 fields show it. */
const attemptQuery = `query Attempt($id: ID!) { subscriptionBillingAttempt(id: $id) {
  id ready errorCode errorMessage nextActionUrl completedAt order { id } subscriptionContract { lastPaymentStatus }
} }`

describe('3-D Secure challenges', () => {
  let emulator: Emulator
  let origin: string
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>
  const shop = () => emulator.store.shop(SHOP)!
  /** Active contracts with a valid card, one per customer, each used by one test only. */
  let pool: ContractRecord[] = []
  const take = () => pool.shift()!
  const cardOf = (c: ContractRecord) => shop().paymentMethods.find((p) => p.id === c.paymentMethodId)!
  let keys = 0
  const charge = async (c: ContractRecord, key = `challenge-${++keys}`) => {
    const data = await gql(emulator, m.billingAttemptCreate, {
      contractId: toGid('SubscriptionContract', c.id),
      input: { idempotencyKey: key },
    })
    const created = data.subscriptionBillingAttemptCreate.subscriptionBillingAttempt
    await emulator.idle()
    return created.id as string
  }
  const read = async (id: string) => (await gql(emulator, attemptQuery, { id })).subscriptionBillingAttempt
  const deliveries = (topic: string, id: string) =>
    receiver.received.filter(
      (r) => r.headers['x-shopify-topic'] === topic && JSON.parse(r.body).admin_graphql_api_id === id,
    )
  const controls = (body: object) =>
    fetch(`${origin}/emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })

  beforeAll(async () => {
    receiver = await webhookReceiver()
    emulator = await smallEmulator({ apiSecret: SECRET })
    origin = (await emulator.listen(0)).url
    for (const topic of TOPICS) emulator.webhooks.subscribe(SHOP, topic, receiver.url)
    const customers = new Set<number>()
    pool = shop().contracts.filter((c) => {
      const card = cardOf(c)?.instrument
      const ok =
        c.status === 'ACTIVE' &&
        cardOf(c)?.revokedAt === null &&
        card?.__typename === 'CustomerCreditCard' &&
        card.expiryYear >= 2027 &&
        !customers.has(c.customerId)
      if (ok) customers.add(c.customerId)
      return ok
    })
    expect(pool.length).toBeGreaterThanOrEqual(8)
  })
  afterEach(() => emulator.faults.reset())
  afterAll(async () => {
    await emulator.close()
    await receiver.close()
  })

  it('a card that requires authentication ends the attempt challenged: ready, a URL, no order, no error', async () => {
    const c = take()
    cardOf(c).requiresAuthentication = true
    const orders = shop().orders.length
    const id = await charge(c, 'cycle-3ds')
    const attempt = await read(id)
    expect(attempt).toMatchObject({
      ready: true,
      errorCode: null,
      errorMessage: null,
      order: null,
      completedAt: null,
    })
    expect(attempt.nextActionUrl).toMatch(
      new RegExp(`^${origin}/emulator/3ds/${encodeURIComponent(SHOP)}/${id.split('/').pop()}/[0-9a-f]{32}$`),
    )
    expect(shop().orders.length).toBe(orders)

    // The challenged webhook, in the platform's billing-attempt shape, signed; no outcome webhook.
    const [challenged, ...more] = deliveries('subscription_billing_attempts/challenged', id)
    expect(more).toEqual([])
    expect(JSON.parse(challenged!.body)).toEqual({
      id: Number(id.split('/').pop()),
      admin_graphql_api_id: id,
      idempotency_key: 'cycle-3ds',
      order_id: null,
      admin_graphql_api_order_id: null,
      subscription_contract_id: c.id,
      admin_graphql_api_subscription_contract_id: toGid('SubscriptionContract', c.id),
      ready: true,
      error_message: null,
      error_code: null,
    })
    expect(challenged!.headers['x-shopify-hmac-sha256']).toBe(
      createHmac('sha256', SECRET).update(challenged!.body).digest('base64'),
    )
    expect(deliveries('subscription_billing_attempts/success', id)).toEqual([])
    expect(deliveries('subscription_billing_attempts/failure', id)).toEqual([])

    // Asking again with the same key is the same attempt: no second challenge.
    expect(await charge(c, 'cycle-3ds')).toBe(id)
    expect(deliveries('subscription_billing_attempts/challenged', id)).toHaveLength(1)
  })

  it('the customer page: completing the challenge creates the order once, with the success webhook', async () => {
    const c = take()
    emulator.faults.challengePayment(SHOP, toGid('Customer', c.customerId))
    const id = await charge(c)
    const { nextActionUrl } = await read(id)
    const page = await fetch(nextActionUrl)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('カード会社による本人認証（3Dセキュア）')
    expect(html).toContain('name="result" value="success"')
    expect(html).toContain('name="result" value="failure"')

    const answer = (result: string) =>
      fetch(nextActionUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `result=${result}`,
      })
    const done = await answer('success')
    expect(done.status).toBe(200)
    expect(await done.text()).toContain('本人認証が完了しました')
    await emulator.idle()
    const after = await read(id)
    expect(after).toMatchObject({
      ready: true,
      errorCode: null,
      nextActionUrl,
      subscriptionContract: { lastPaymentStatus: 'SUCCEEDED' },
    })
    expect(after.order).not.toBeNull()
    expect(after.completedAt).not.toBeNull()
    const [success, ...again] = deliveries('subscription_billing_attempts/success', id)
    expect(again).toEqual([])
    expect(JSON.parse(success!.body)).toMatchObject({
      ready: true,
      admin_graphql_api_order_id: after.order.id,
    })
    expect(receiver.received.some((r) => r.headers['x-shopify-topic'] === 'orders/create')).toBe(true)

    // Settled: the page is gone and a second answer charges nothing.
    const orders = shop().orders.length
    expect((await fetch(nextActionUrl)).status).toBe(404)
    expect((await answer('success')).status).toBe(404)
    await emulator.idle()
    expect(shop().orders.length).toBe(orders)
  })

  it('failing the challenge fails the attempt with AUTHENTICATION_ERROR and the failure webhook', async () => {
    const c = take()
    emulator.faults.challengePayment(SHOP, toGid('CustomerPaymentMethod', c.paymentMethodId!))
    const id = await charge(c)
    expect(emulator.completeChallenge(SHOP, id, 'failure')).toBe(true)
    await emulator.idle()
    const after = await read(id)
    expect(after).toMatchObject({
      ready: true,
      errorCode: 'AUTHENTICATION_ERROR',
      order: null,
      subscriptionContract: { lastPaymentStatus: 'FAILED' },
    })
    // The URL of the finished challenge stays on the attempt (the mapping must let the error win).
    expect(after.nextActionUrl).toMatch(/\/emulator\/3ds\//)
    expect(JSON.parse(deliveries('subscription_billing_attempts/failure', id)[0]!.body)).toMatchObject({
      error_code: 'authentication_error',
      order_id: null,
    })
    expect(emulator.completeChallenge(SHOP, id, 'success')).toBe(false)
  })

  it('a declined card fails before the issuer challenges; a card without the flag is not challenged', async () => {
    const [declined, plain] = [take(), take()]
    emulator.faults.challengePayment(SHOP, toGid('Customer', declined.customerId))
    emulator.faults.failPayment(SHOP, toGid('Customer', declined.customerId), 'PAYMENT_METHOD_DECLINED')
    const a = await read(await charge(declined))
    expect(a).toMatchObject({ errorCode: 'PAYMENT_METHOD_DECLINED', nextActionUrl: null })
    const b = await read(await charge(plain))
    expect(b.nextActionUrl).toBeNull()
    expect(b.order).not.toBeNull()
  })

  it('the test controls flag a card and complete a challenge; a wrong token or a settled one is refused', async () => {
    const c = take()
    const flag = await controls({
      challengePayment: { shop: SHOP, paymentMethodId: toGid('CustomerPaymentMethod', c.paymentMethodId!) },
    })
    expect(flag.status).toBe(200)
    const id = await charge(c)
    const { nextActionUrl } = await read(id)
    const forged = nextActionUrl.replace(/[0-9a-f]{32}$/, '0'.repeat(32))
    expect((await fetch(forged)).status).toBe(404)

    const complete = () => controls({ completeChallenge: { shop: SHOP, attemptId: id, result: 'success' } })
    expect((await complete()).status).toBe(200)
    await emulator.idle()
    expect((await read(id)).order).not.toBeNull()
    const twice = await complete()
    expect(twice.status).toBe(400)
    expect((await twice.json()).error.message).toContain('has no open challenge')
    // `challenged: false` clears the flag: the next charge goes through.
    await controls({
      challengePayment: {
        shop: SHOP,
        paymentMethodId: toGid('CustomerPaymentMethod', c.paymentMethodId!),
        challenged: false,
      },
    })
    expect((await read(await charge(c))).nextActionUrl).toBeNull()
  })
})
