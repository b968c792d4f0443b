import { describe, expect, it } from 'vitest'
import { orderCount } from '../src/billing/repo.ts'
import { runBilling } from '../src/billing/run.ts'
import { findInstalledShop } from '../src/platform/shops-repo.ts'
import { useEmulatedApp } from './support/emulated-app.ts'
import { STAMP, testDomain } from './support/fixtures.ts'

// From a sale to a contract: a shopper buys on the emulated storefront (product page, cart,
// checkout with the demo card); the platform creates the contract and sends
// subscription_contracts/create; the app mirrors the contract, its lines and its new customer.

const DOMAIN = testDomain('store')

const env = useEmulatedApp({
  shops: [{ domain: DOMAIN, contracts: 5 }],
  secret: 'storefront-secret',
  webhooks: true,
})

/** A shopper's browser on the store: keeps the cart cookie. */
function shopper() {
  let cookie = ''
  return async (path: string, form?: Record<string, string>) => {
    const res = await fetch(`${env.url}/s/${DOMAIN}${path}`, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    })
    cookie = res.headers.get('set-cookie')?.split(';')[0] ?? cookie
    return { status: res.status, location: res.headers.get('location'), text: await res.text() }
  }
}

const BUYER = {
  email: `new.${STAMP}@example.jp`,
  lastName: '佐藤',
  firstName: '美咲',
  phone: '080-2345-6789',
  zip: '530-0001',
  provinceCode: 'JP-27',
  city: '大阪市北区',
  address1: '梅田1-1-1',
  address2: '',
}

describe('checkout → subscription_contracts/create → mirror', () => {
  it('mirrors the new contract, its line, its origin order and its new customer from the webhooks', async () => {
    const shop = env.emulator.store.shop(DOMAIN)!
    const group = shop.sellingPlanGroups.find((g) => g.sellingPlans[0]!.pricingPolicies.length > 0)!
    const plan = group.sellingPlans[0]!
    const product = shop.products.find((p) => p.id === group.productIds[0])!
    const variantId = product.variantIds[0]!
    const browse = shopper()
    expect((await browse(`/products/${product.handle}`)).status).toBe(200)
    const added = await browse('/cart/add', {
      id: String(variantId),
      quantity: '1',
      selling_plan: String(plan.id),
    })
    expect(added.status).toBe(303)
    const calls = env.emulator.callLog.length
    const paid = await browse('/checkout', BUYER)
    expect([paid.status, paid.location]).toEqual([303, `/s/${DOMAIN}/thank-you`])
    await env.emulator.idle()

    const contract = shop.contracts.at(-1)!
    const shopId = env.shopIds[DOMAIN]
    const { rows } = await env.pool.query(
      `select status, customer_id::text, origin_order_id::text, next_billing_date, customer_display_name,
              interval, interval_count
       from subscription_contracts where shop_id = $1 and id = $2`,
      [shopId, contract.id],
    )
    expect(rows).toEqual([
      {
        status: 'ACTIVE',
        customer_id: String(contract.customerId),
        origin_order_id: String(contract.originOrderId),
        next_billing_date: new Date(contract.nextBillingDate!),
        customer_display_name: '佐藤 美咲',
        interval: plan.billingPolicy.interval,
        interval_count: plan.billingPolicy.intervalCount,
      },
    ])
    const lines = await env.pool.query(
      `select variant_id::text, selling_plan_id::text, selling_plan_name, quantity, current_price::float8 as price
       from subscription_lines where shop_id = $1 and contract_id = $2`,
      [shopId, contract.id],
    )
    expect(lines.rows).toEqual([
      {
        variant_id: String(variantId),
        selling_plan_id: String(plan.id),
        selling_plan_name: plan.name,
        quantity: 1,
        price: contract.lines[0]!.currentPrice,
      },
    ])
    const customer = await env.pool.query(
      'select display_name, email from customers where shop_id = $1 and id = $2',
      [shopId, contract.customerId],
    )
    expect(customer.rows).toEqual([{ display_name: '佐藤 美咲', email: BUYER.email }])
    // The origin order is the contract's (whichever webhook came first): the next charge is cycle 2.
    const order = await env.pool.query(
      'select contract_id::text from orders where shop_id = $1 and id = $2',
      [shopId, contract.originOrderId],
    )
    expect(order.rows).toEqual([{ contract_id: String(contract.id) }])
    const events = await env.pool.query(
      'select type, source from contract_events where shop_id = $1 and contract_id = $2',
      [shopId, contract.id],
    )
    expect(events.rows).toEqual([{ type: 'created', source: 'webhook' }])
    // The app only read (the order, the contract, its unknown customer): it changed nothing.
    // The new customer is read by customers/create (Customer) or, when the contract's webhook
    // is applied first, with the contract (CustomersPage) too: one or both, by delivery order.
    const made = env.emulator.callLog.slice(calls).filter((c) => c.shop === DOMAIN)
    const names = made.map((c) => c.operationName).sort()
    expect(names.filter((n) => n !== 'Customer' && n !== 'CustomersPage')).toEqual([
      'Order',
      'SubscriptionContract',
    ])
    expect(names.filter((n) => n === 'Customer' || n === 'CustomersPage').length).toBeGreaterThanOrEqual(1)
  })

  it('reads no customer for a contract of a customer the mirror already holds', async () => {
    const shop = env.emulator.store.shop(DOMAIN)!
    const group = shop.sellingPlanGroups[0]!
    const variantId = shop.products.find((p) => p.id === group.productIds[0])!.variantIds[0]!
    const browse = shopper()
    await browse('/cart/add', { id: String(variantId), selling_plan: String(group.sellingPlans[0]!.id) })
    const calls = env.emulator.callLog.length
    await browse('/checkout', BUYER) // the same e-mail: the customer of the first sale
    await env.emulator.idle()
    const made = env.emulator.callLog.slice(calls).filter((c) => c.shop === DOMAIN)
    expect(made.map((c) => c.operationName).sort()).toEqual(['Order', 'SubscriptionContract'])
    const { rows } = await env.pool.query(
      'select count(*)::int as n from subscription_contracts where shop_id = $1 and customer_id = $2',
      [env.shopIds[DOMAIN], shop.contracts.at(-1)!.customerId],
    )
    expect(rows).toEqual([{ n: 2 }])
  })
})

describe('the contract sold at checkout is billed on its plan', () => {
  it('charges the second cycle at the plan’s later price (20% off first, 10% off after)', async () => {
    const shop = env.emulator.store.shop(DOMAIN)!
    const weekly = shop.sellingPlanGroups.find((g) => g.merchantCode === 'weekly')!
    const plan = weekly.sellingPlans[0]!
    const variant = shop.variants.find(
      (v) => v.id === shop.products.find((p) => p.id === weekly.productIds[0])!.variantIds[0],
    )!
    const browse = shopper()
    await browse('/cart/add', { id: String(variant.id), selling_plan: String(plan.id) })
    await browse('/checkout', { ...BUYER, email: `weekly.${STAMP}@example.jp` })
    await env.emulator.idle()
    const contract = shop.contracts.at(-1)!
    expect(contract.lines[0]!.currentPrice).toBe(Math.round(variant.price * 0.8))

    const row = (await findInstalledShop(env.pool, DOMAIN))!
    const summary = await runBilling({
      db: env.pool,
      clients: env.app.shopClients,
      shop: row,
      now: new Date(contract.nextBillingDate! + 60_000),
      engine: env.app.billingEngine,
      wait: { intervalMs: 20, timeoutMs: 30_000 },
    })
    expect(summary).toMatchObject({ attempted: 1, succeeded: 1 })
    const renewal = shop.orders.find((o) => o.contractId === contract.id && o.id !== contract.originOrderId)!
    expect(renewal.totalPriceSet).toBe(Math.round(variant.price * 0.9) + contract.deliveryPrice)
  })

  it('counts one order bought on two plans as the first order of both contracts it made', async () => {
    // One checkout, two plans: two contracts whose origin order is the same, linked in the
    // mirror to one of them. Each contract's next charge is cycle 2 (the later price), so each
    // must count that order, or the second would be charged the first-order discount again.
    const shop = env.emulator.store.shop(DOMAIN)!
    const weekly = shop.sellingPlanGroups.find((g) => g.merchantCode === 'weekly')!
    const [every, fortnightly] = weekly.sellingPlans
    const variant = shop.variants.find(
      (v) => v.id === shop.products.find((p) => p.id === weekly.productIds[0])!.variantIds[0],
    )!
    const browse = shopper()
    await browse('/cart/add', { id: String(variant.id), selling_plan: String(every!.id) })
    await browse('/cart/add', { id: String(variant.id), selling_plan: String(fortnightly!.id) })
    await browse('/checkout', { ...BUYER, email: `two-plans.${STAMP}@example.jp` })
    await env.emulator.idle()
    const made = shop.contracts.slice(-2)
    expect(made.map((c) => c.lines[0]!.sellingPlanId)).toEqual([every!.id, fortnightly!.id])
    expect(made[0]!.originOrderId).toBe(made[1]!.originOrderId)
    const shopId = env.shopIds[DOMAIN]!
    for (const c of made) expect(await orderCount(env.pool, shopId, String(c.id))).toBe(1)

    // The contract the order is not linked to renews at the later price.
    const second = made[1]!
    const summary = await runBilling({
      db: env.pool,
      clients: env.app.shopClients,
      shop: (await findInstalledShop(env.pool, DOMAIN))!,
      now: new Date(second.nextBillingDate! + 60_000),
      engine: env.app.billingEngine,
      wait: { intervalMs: 20, timeoutMs: 30_000 },
    })
    expect(summary.succeeded).toBeGreaterThanOrEqual(1)
    const renewal = shop.orders.find((o) => o.contractId === second.id && o.id !== second.originOrderId)!
    expect(renewal.totalPriceSet).toBe(Math.round(variant.price * 0.9) + second.deliveryPrice)
    expect(await orderCount(env.pool, shopId, String(second.id))).toBe(2)
  })
})
