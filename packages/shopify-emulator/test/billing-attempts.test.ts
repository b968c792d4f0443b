import { createHmac } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { toGid } from '../src/gid.ts'
import type { ContractRecord } from '../src/records.ts'
import type { Emulator } from '../src/server.ts'
import { gql, SHOP, smallEmulator, webhookReceiver } from './support/harness.ts'
import * as m from './support/mutations.ts'

const SECRET = 'shpss_test_secret'

describe('billing attempts', () => {
  let emulator: Emulator
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>
  const shop = () => emulator.store.shop(SHOP)!
  // Contracts whose card is still valid, so only the knobs decide failures.
  const chargeable = () =>
    shop().contracts.filter((c) => {
      const pm = shop().paymentMethods.find((p) => p.id === c.paymentMethodId)
      const card = pm?.instrument
      return (
        c.status === 'ACTIVE' &&
        pm?.revokedAt === null &&
        card?.__typename === 'CustomerCreditCard' &&
        card.expiryYear >= 2027
      )
    })
  const create = (c: ContractRecord, key: string) =>
    gql(emulator, m.billingAttemptCreate, {
      contractId: toGid('SubscriptionContract', c.id),
      input: { idempotencyKey: key, originTime: '2025-06-01T01:00:00Z' },
    })

  beforeAll(async () => {
    receiver = await webhookReceiver()
    emulator = await smallEmulator({ apiSecret: SECRET })
    for (const topic of [
      'subscription_billing_attempts/success',
      'subscription_billing_attempts/failure',
      'orders/create',
    ])
      emulator.webhooks.subscribe(SHOP, topic, receiver.url)
  })
  afterEach(() => emulator.faults.reset())
  afterAll(async () => {
    await emulator.close()
    await receiver.close()
  })

  it('starts not ready, then succeeds with a test order in the contract currency and a signed webhook', async () => {
    const c = chargeable()[0]!
    const data = await create(c, 'cycle-1')
    const attempt = data.subscriptionBillingAttemptCreate.subscriptionBillingAttempt
    expect(attempt).toMatchObject({
      ready: false,
      order: null,
      idempotencyKey: 'cycle-1',
      originTime: '2025-06-01T01:00:00Z',
    })
    await emulator.idle()
    const after = (await gql(emulator, m.billingAttemptQuery, { id: attempt.id })).subscriptionBillingAttempt
    expect(after).toMatchObject({
      ready: true,
      errorCode: null,
      subscriptionContract: { lastPaymentStatus: 'SUCCEEDED' },
    })
    const expected = c.lines.reduce((s, l) => s + l.currentPrice * l.quantity, 0) + c.deliveryPrice
    expect(after.order).toMatchObject({
      test: true,
      totalPriceSet: { shopMoney: { amount: `${expected}.0`, currencyCode: 'JPY' } },
    })

    const success = receiver.received.find(
      (r) => r.headers['x-shopify-topic'] === 'subscription_billing_attempts/success',
    )!
    expect(JSON.parse(success.body)).toEqual({
      id: Number(attempt.id.split('/').pop()),
      admin_graphql_api_id: attempt.id,
      idempotency_key: 'cycle-1',
      order_id: Number(after.order.id.split('/').pop()),
      admin_graphql_api_order_id: after.order.id,
      subscription_contract_id: c.id,
      admin_graphql_api_subscription_contract_id: toGid('SubscriptionContract', c.id),
      ready: true,
      error_message: null,
      error_code: null,
    })
    const hmac = createHmac('sha256', SECRET).update(success.body).digest('base64')
    expect(success.headers['x-shopify-hmac-sha256']).toBe(hmac)
    expect(success.headers).toMatchObject({
      'x-shopify-shop-domain': SHOP,
      'x-shopify-api-version': '2025-04',
      'x-shopify-webhook-id': expect.any(String),
      'x-shopify-triggered-at': expect.any(String),
    })
    expect(receiver.topics()).toContain('orders/create')
  })

  it('the same idempotency key returns the same attempt and never charges twice', async () => {
    const c = chargeable()[1]!
    const orders = shop().orders.length
    const a = (await create(c, 'cycle-7')).subscriptionBillingAttemptCreate.subscriptionBillingAttempt
    const b = (await create(c, 'cycle-7')).subscriptionBillingAttemptCreate.subscriptionBillingAttempt
    expect(b.id).toBe(a.id)
    await emulator.idle()
    const again = (await create(c, 'cycle-7')).subscriptionBillingAttemptCreate.subscriptionBillingAttempt
    expect(again).toMatchObject({ id: a.id, ready: true })
    expect(shop().orders.length).toBe(orders + 1)
    // The same key on another contract is another charge.
    const other = (await create(chargeable()[2]!, 'cycle-7')).subscriptionBillingAttemptCreate
      .subscriptionBillingAttempt
    expect(other.id).not.toBe(a.id)
    await emulator.idle()
  })

  it.each([
    ['customer', 'INSUFFICIENT_FUNDS'],
    ['payment method', 'PAYMENT_METHOD_DECLINED'],
  ])('fails when the %s is flagged (%s), with a failure webhook', async (kind, code) => {
    const c = chargeable()[3]!
    const target =
      kind === 'customer'
        ? toGid('Customer', c.customerId)
        : toGid('CustomerPaymentMethod', c.paymentMethodId!)
    emulator.faults.failPayment(SHOP, target, code)
    const a = (await create(c, `fail-${code}`)).subscriptionBillingAttemptCreate.subscriptionBillingAttempt
    await emulator.idle()
    const after = (await gql(emulator, m.billingAttemptQuery, { id: a.id })).subscriptionBillingAttempt
    expect(after).toMatchObject({
      ready: true,
      errorCode: code,
      order: null,
      subscriptionContract: { lastPaymentStatus: 'FAILED' },
    })
    const failure = receiver.received
      .filter((r) => r.headers['x-shopify-topic'] === 'subscription_billing_attempts/failure')
      .at(-1)!
    expect(JSON.parse(failure.body)).toMatchObject({
      error_code: code.toLowerCase(),
      ready: true,
      order_id: null,
    })
  })

  it('fails on an expired card and on a variant out of stock', async () => {
    const [c1, c2] = chargeable().slice(4, 6) as [ContractRecord, ContractRecord]
    const pm = shop().paymentMethods.find((p) => p.id === c1.paymentMethodId)!
    if (pm.instrument.__typename === 'CustomerCreditCard')
      pm.instrument = { ...pm.instrument, expiryYear: 2020 }
    emulator.faults.outOfStock(SHOP, toGid('ProductVariant', c2.lines[0]!.variantId))
    const a1 = (await create(c1, 'exp')).subscriptionBillingAttemptCreate.subscriptionBillingAttempt
    const a2 = (await create(c2, 'stock')).subscriptionBillingAttemptCreate.subscriptionBillingAttempt
    await emulator.idle()
    expect(
      (await gql(emulator, m.billingAttemptQuery, { id: a1.id })).subscriptionBillingAttempt.errorCode,
    ).toBe('EXPIRED_PAYMENT_METHOD')
    expect(
      (await gql(emulator, m.billingAttemptQuery, { id: a2.id })).subscriptionBillingAttempt.errorCode,
    ).toBe('INSUFFICIENT_INVENTORY')
  })

  it('refuses unknown, paused and terminated contracts and blank keys', async () => {
    const unknown = await gql(emulator, m.billingAttemptCreate, {
      contractId: toGid('SubscriptionContract', 1),
      input: { idempotencyKey: 'x' },
    })
    expect(unknown.subscriptionBillingAttemptCreate.userErrors[0].code).toBe('CONTRACT_NOT_FOUND')
    const cancelled = shop().contracts.find((c) => c.status === 'CANCELLED')!
    expect((await create(cancelled, 'y')).subscriptionBillingAttemptCreate.userErrors[0].code).toBe(
      'CONTRACT_TERMINATED',
    )
    const paused = shop().contracts.find((c) => c.status === 'PAUSED')!
    expect((await create(paused, 'z')).subscriptionBillingAttemptCreate.userErrors[0].code).toBe(
      'CONTRACT_PAUSED',
    )
    expect((await create(chargeable()[0]!, '  ')).subscriptionBillingAttemptCreate.userErrors[0].code).toBe(
      'BLANK',
    )
  })
})
