import { randomUUID } from 'node:crypto'
import { type Delivery, type Emulator, signWebhook } from '@teiki/shopify-emulator'
import type pg from 'pg'
import { expect } from 'vitest'
import { TEST_API_SECRET } from './fixtures.ts'

/**
 * A delivery of `body` genuinely signed with the app's secret, with the given headers (as one
 * intercepted and sent again would be); fresh webhook and event ids unless given. For `app.inject`.
 */
export function signedDelivery(
  topic: string,
  body: string,
  shop: string,
  ids: { webhookId?: string; eventId?: string } = {},
) {
  return {
    method: 'POST' as const,
    url: '/webhooks',
    payload: body,
    headers: {
      'content-type': 'application/json',
      'x-shopify-topic': topic,
      'x-shopify-shop-domain': shop,
      'x-shopify-webhook-id': ids.webhookId ?? randomUUID(),
      'x-shopify-event-id': ids.eventId ?? randomUUID(),
      'x-shopify-hmac-sha256': signWebhook(body, TEST_API_SECRET),
    },
  }
}

/**
 * Genuine webhook bodies of one emulated shop: the shop's platform really changes (status
 * moves, charges paid, declined and challenged, selling plan groups, a refund, compliance
 * requests, a declined app plan change) and
 * the emulator sends the signed
 * deliveries. With `captureOnly`, app/uninstalled and shop/redact are sent but dropped on the
 * way (the `drop` fault), so the app never applies them: the bodies exist, as they would in
 * the hands of someone who intercepted them, and the app's shop stays as it was.
 */
export async function produceBodies(
  emulator: Emulator,
  domain: string,
  opts: { uninstall: 'no' | 'captureOnly' },
): Promise<Map<string, Delivery>> {
  const shop = emulator.store.shop(domain)!
  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await emulator.graphql(domain, { query, variables })
    expect(res.errors).toBeUndefined()
    const payload = Object.values(res.data as Record<string, { userErrors?: unknown[] }>)[0]!
    expect(payload.userErrors ?? []).toEqual([])
    return payload as Record<string, { id: string } | null>
  }
  const contract = (id: number) => `gid://shopify/SubscriptionContract/${id}`
  // One contract per customer: the declined card must not decline the successful charge too.
  const customers = new Set<number>()
  const actives = shop.contracts.filter(
    (c) =>
      c.status === 'ACTIVE' &&
      chargeable(emulator, domain, c.id) &&
      !customers.has(c.customerId) &&
      customers.add(c.customerId),
  )
  expect(actives.length).toBeGreaterThanOrEqual(8)
  const [paused, cancelled, failed, expired, charged, declined, redacted, challenged] = actives as [
    (typeof actives)[number],
    ...(typeof actives)[number][],
  ]
  const status = (m: string, id: number) =>
    gql(`mutation($id: ID!) { ${m}(subscriptionContractId: $id) { userErrors { message } } }`, {
      id: contract(id),
    })
  await status('subscriptionContractPause', paused.id)
  await status('subscriptionContractActivate', paused.id)
  await status('subscriptionContractCancel', cancelled!.id)
  await status('subscriptionContractFail', failed!.id)
  await status('subscriptionContractExpire', expired!.id)

  const charge = (id: number) =>
    gql(
      `mutation($id: ID!, $key: String!) { subscriptionBillingAttemptCreate(subscriptionContractId: $id,
        subscriptionBillingAttemptInput: { idempotencyKey: $key }) { userErrors { message } } }`,
      { id: contract(id), key: `forgery-${domain}-${id}` },
    )
  emulator.faults.failPayment(domain, declined!.customerId, 'INSUFFICIENT_FUNDS')
  // The issuer asks this card for 3-D Secure: subscription_billing_attempts/challenged.
  emulator.faults.challengePayment(domain, challenged!.customerId)
  await charge(charged!.id)
  await charge(declined!.id)
  await charge(challenged!.id)

  const group = (name: string) =>
    gql(
      `mutation($input: SellingPlanGroupInput!) { sellingPlanGroupCreate(input: $input) {
        sellingPlanGroup { id } userErrors { message } } }`,
      {
        input: {
          name,
          merchantCode: name,
          options: ['配送間隔'],
          sellingPlansToCreate: [
            {
              name: '毎月お届け',
              options: ['1ヶ月'],
              category: 'SUBSCRIPTION',
              billingPolicy: { recurring: { interval: 'MONTH', intervalCount: 1 } },
              deliveryPolicy: { recurring: { interval: 'MONTH', intervalCount: 1 } },
            },
          ],
        },
      },
    ).then((p) => p.sellingPlanGroup!.id)
  const kept = await group('残る定期便')
  await gql(
    `mutation($id: ID!, $input: SellingPlanGroupInput!) { sellingPlanGroupUpdate(id: $id, input: $input) {
      userErrors { message } } }`,
    { id: kept, input: { name: '残る定期便（改）' } },
  )
  const gone = await group('消える定期便')
  await gql(`mutation($id: ID!) { sellingPlanGroupDelete(id: $id) { userErrors { message } } }`, { id: gone })

  // A tag change on the platform: customers/update (the emulator's checkout sends customers/create).
  await gql(`mutation($id: ID!) { tagsAdd(id: $id, tags: ["forgery"]) { userErrors { message } } }`, {
    id: `gid://shopify/Customer/${charged!.customerId}`,
  })
  // A refund of a subscription order: refunds/create and orders/updated.
  const refunded = shop.orders.find(
    (o) => o.contractId !== null && o.cancelledAt === null && o.totalPriceSet > 100,
  )!
  const orderId = `gid://shopify/Order/${refunded.id}`
  await gql(`mutation($input: RefundInput!) { refundCreate(input: $input) { userErrors { message } } }`, {
    input: { orderId, transactions: [{ orderId, amount: '100', gateway: 'manual', kind: 'REFUND' }] },
  })
  emulator.redactCustomer(domain, redacted!.customerId)
  emulator.requestCustomerData(domain, charged!.customerId)
  // The merchant declines a plan change: app_subscriptions/update (the plan held stays).
  const change = await gql(
    `mutation { appSubscriptionCreate(name: "Teiki ライト", returnUrl: "https://app.example/plans",
      lineItems: [{ plan: { appRecurringPricingDetails: { price: { amount: 4980, currencyCode: JPY } } } }]) {
      appSubscription { id } userErrors { message } } }`,
  )
  emulator.setAppSubscriptionStatus(domain, 'DECLINED', change.appSubscription!.id)
  await emulator.idle()
  if (opts.uninstall === 'captureOnly') {
    emulator.faults.set({ drop: 1 })
    emulator.uninstall(domain)
    emulator.redactShop(domain)
    emulator.faults.reset()
  }
  await emulator.idle()

  const bodies = new Map<string, Delivery>()
  for (const d of emulator.webhooks.deliveries) {
    if (d.shop === domain && !bodies.has(d.topic)) bodies.set(d.topic, d)
  }
  // The emulator never sends subscription_contracts/create (contracts come from checkout); its
  // body on the platform is the contract, as for update.
  bodies.set('subscription_contracts/create', bodies.get('subscription_contracts/update')!)
  // Likewise customers/create (sent by checkouts, none here) and customers/delete (the emulator
  // deletes no customer): the customer body of customers/update stands for both.
  bodies.set('customers/create', bodies.get('customers/update')!)
  bodies.set('customers/delete', bodies.get('customers/update')!)
  return bodies
}

/** A contract the emulator charges successfully: a valid, unexpired card. */
function chargeable(emulator: Emulator, domain: string, contractId: number): boolean {
  const shop = emulator.store.shop(domain)!
  const c = shop.contracts.find((x) => x.id === contractId)!
  const pm = shop.paymentMethods.find((p) => p.id === c.paymentMethodId)
  const card = pm?.instrument as { expiryYear?: number } | undefined
  return !!pm && pm.revokedAt === null && (card?.expiryYear ?? 9999) > new Date().getUTCFullYear()
}

const SHOP_TABLES = [
  'customers',
  'products',
  'product_variants',
  'selling_plan_groups',
  'selling_plans',
  'subscription_contracts',
  'subscription_lines',
  'orders',
  'billing_attempts',
  'contract_events',
  'webhook_deliveries',
] as const

export type Snapshot = Record<string, { rows: number; digest: string }>

/**
 * Everything the mirror holds for one shop, as row counts and a digest of every row's text,
 * so "nothing changed" compares whole tables, not a few columns.
 */
export async function snapshot(
  pool: pg.Pool,
  shopId: string,
  opts: { deliveries: boolean },
): Promise<Snapshot> {
  const shop = await pool.query<{ row: string }>('select s::text as row from shops s where id = $1', [shopId])
  const out: Snapshot = { shops: { rows: shop.rows.length, digest: shop.rows[0]?.row ?? '' } }
  for (const table of SHOP_TABLES) {
    if (table === 'webhook_deliveries' && !opts.deliveries) continue
    const { rows } = await pool.query<{ n: number; digest: string }>(
      `select count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest
       from ${table} t where shop_id = $1`,
      [shopId],
    )
    out[table] = { rows: rows[0]!.n, digest: rows[0]!.digest }
  }
  return out
}
