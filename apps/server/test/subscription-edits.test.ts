import { cycleUnitPrice, DEFAULT_DELIVERY_SETTINGS } from '@teiki/domain'
import { describe, expect, it } from 'vitest'
import { saveDeliverySettings } from '../src/features/delivery/repo.ts'
import { contractOrderCount } from '../src/sync/order-count.ts'
import { useMainAndOther } from './support/emulated-app.ts'
import { testDomain } from './support/fixtures.ts'

const DOMAIN = testDomain('edits')
const OTHER = testDomain('edits-other')
const SECRET = 's3cret-edits'

const env = useMainAndOther('edits', { secret: SECRET, contracts: [200, 5] })

const platformShop = (domain = DOMAIN) => env.emulator.store.shop(domain)!
const platformContract = (id: string, domain = DOMAIN) =>
  platformShop(domain).contracts.find((c) => String(c.id) === id)!

type Fixture = { contractId: string; customerId: string; lineId: string; revision: string }

const used = new Set<string>()
/** An ACTIVE contract (with two lines when asked) no earlier test used, as the mirror has it. */
function fresh(domain = DOMAIN, opts: { lines?: number } = {}): Fixture {
  const c = platformShop(domain).contracts.find(
    (c) =>
      c.status === 'ACTIVE' &&
      !used.has(`${domain}:${c.id}`) &&
      (opts.lines === undefined || c.lines.length >= opts.lines),
  )
  if (!c) throw new Error('no fresh contract left')
  used.add(`${domain}:${c.id}`)
  return {
    contractId: String(c.id),
    customerId: String(c.customerId),
    lineId: String(c.lines[0]!.id),
    revision: String(c.revisionId),
  }
}

function call(method: string, path: string, body?: unknown, domain = DOMAIN) {
  const sep = path.includes('?') ? '&' : '?'
  return env.app.inject({
    method: method as 'GET',
    url: `/app-admin${path}${sep}shop=${domain}&secret=${SECRET}`,
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}

const shopCalls = (from: number, domain = DOMAIN) =>
  env.emulator.callLog.slice(from).filter((c) => c.shop === domain)

async function mirrorRow(contractId: string, domain = DOMAIN) {
  const { rows } = await env.pool.query<{
    revision_id: string
    next_billing_date: Date | null
    note: string | null
    custom_attributes: Array<{ key: string; value: string }>
    delivery_method: { address?: Record<string, string> } | null
    billing_policy: { interval: string; intervalCount: number }
    price_manually_changed_at: Date | null
  }>('select * from subscription_contracts where shop_id = $1 and id = $2', [env.shopIds[domain], contractId])
  return rows[0]!
}

async function mirrorLines(contractId: string) {
  const { rows } = await env.pool.query<{
    id: string
    variant_id: string
    quantity: number
    current_price: string
  }>(
    `select id, variant_id::text, quantity, current_price::text from subscription_lines
     where shop_id = $1 and contract_id = $2 order by position`,
    [env.shopIds[DOMAIN], contractId],
  )
  return rows
}

async function events(contractId: string, type: string) {
  const { rows } = await env.pool.query<{ source: string; payload: Record<string, unknown> }>(
    'select source, payload from contract_events where shop_id = $1 and contract_id = $2 and type = $3 order by id',
    [env.shopIds[DOMAIN], contractId, type],
  )
  return rows
}

/** A variant of the shop other than the ones on the contract, with its mirrored price. */
async function otherVariant(contractId: string): Promise<{ id: string; price: string }> {
  const onContract = new Set(platformContract(contractId).lines.map((l) => String(l.variantId)))
  const { rows } = await env.pool.query<{ id: string; price: string }>(
    'select id::text, price::text from product_variants where shop_id = $1 order by id',
    [env.shopIds[DOMAIN]],
  )
  const variant = rows.find((r) => !onContract.has(r.id))
  if (!variant) throw new Error('no spare variant')
  return variant
}

const hasJapanese = (text: string) => /[\u3040-\u30ff\u4e00-\u9fff]/.test(text)

type Endpoint = {
  name: string
  method: 'GET' | 'PUT' | 'POST' | 'DELETE'
  path: (f: Fixture) => string
  body?: (f: Fixture) => unknown
  /** A request the schema or the checks refuse (400). */
  invalid: { path?: (f: Fixture) => string; body?: (f: Fixture) => unknown }
  /** The root mutation the platform refuses in the userError case; none for reads and app-only edits. */
  mutation?: string
  /** False when the endpoint never calls the platform (app-only data). */
  platform: boolean
  /** Checks a successful call on the platform, in the mirror and in the history. */
  verify: (f: Fixture, json: Record<string, unknown>) => Promise<void>
}

const contractPath = (suffix: string) => (f: Fixture) => `/subscription-contracts/${f.contractId}/${suffix}`
const subscriptionPath = (suffix: string) => (f: Fixture) => `/subscriptions/${f.contractId}/${suffix}`

const ENDPOINTS: Endpoint[] = [
  {
    name: 'PUT /next-billing-date',
    method: 'PUT',
    path: () => '/next-billing-date',
    body: (f) => ({
      contractId: f.contractId,
      nextBillingDate: '2027-03-15',
      isAdmin: true,
      revision: f.revision,
    }),
    invalid: { body: (f) => ({ contractId: f.contractId, nextBillingDate: '2027-02-30', isAdmin: true }) },
    mutation: 'subscriptionContractSetNextBillingDate',
    platform: true,
    async verify(f) {
      const at = platformContract(f.contractId).nextBillingDate!
      // 2027-03-15 in Japan, at the time of day the contract billed at before.
      expect(new Date(at).toLocaleDateString('sv-SE', { timeZone: 'Asia/Tokyo' })).toBe('2027-03-15')
      expect((await mirrorRow(f.contractId)).next_billing_date?.getTime()).toBe(at)
      const [event] = await events(f.contractId, 'next_billing_date_changed')
      expect(event?.payload).toMatchObject({ to: new Date(at).toISOString(), isAdmin: true })
    },
  },
  {
    name: 'GET /subscriptions/:id/next-delivery-date',
    method: 'GET',
    path: subscriptionPath('next-delivery-date'),
    invalid: { path: () => '/subscriptions/abc/next-delivery-date' },
    platform: false,
    async verify(f, json) {
      const c = platformContract(f.contractId)
      expect(json).toEqual({
        contractId: f.contractId,
        nextDeliveryDate: null,
        nextBillingDate: new Date(c.nextBillingDate!).toLocaleDateString('sv-SE', { timeZone: 'Asia/Tokyo' }),
      })
    },
  },
  {
    name: 'PUT /subscriptions/:id/next-delivery-date',
    method: 'PUT',
    path: subscriptionPath('next-delivery-date'),
    body: (f) => ({ nextDeliveryDate: '2027-12-24', isAdmin: true, revision: f.revision }),
    invalid: { body: () => ({ nextDeliveryDate: '24/12/2027' }) },
    mutation: 'subscriptionDraftCommit',
    platform: true,
    async verify(f) {
      expect(platformContract(f.contractId).customAttributes).toContainEqual({
        key: 'お届け予定日',
        value: '2027-12-24',
      })
      const read = await call('GET', `/subscriptions/${f.contractId}/next-delivery-date`)
      expect(read.json().nextDeliveryDate).toBe('2027-12-24')
      expect((await events(f.contractId, 'next_delivery_date_changed'))[0]?.payload).toMatchObject({
        to: '2027-12-24',
      })
    },
  },
  {
    name: 'PUT /subscription-contracts/:id/specify-delivery-time',
    method: 'PUT',
    path: contractPath('specify-delivery-time'),
    body: (f) => ({ deliveryTime: '14-16', revision: f.revision }),
    invalid: { body: () => ({ deliveryTime: '25時' }) },
    mutation: 'subscriptionDraftUpdate',
    platform: true,
    async verify(f) {
      expect(platformContract(f.contractId).customAttributes).toContainEqual({
        key: '配送時間帯',
        value: '14時〜16時',
      })
      expect((await mirrorRow(f.contractId)).custom_attributes).toContainEqual({
        key: '配送時間帯',
        value: '14時〜16時',
      })
      const detail = await call('GET', `/subscriptions/${f.contractId}`)
      expect(detail.json().deliveryTime).toBe('14-16')
    },
  },
  {
    name: 'PUT /interval-and-interval-count',
    method: 'PUT',
    path: () => '/interval-and-interval-count',
    body: (f) => ({
      contractId: f.contractId,
      interval: 'WEEK',
      intervalCount: 2,
      anchors: [{ type: 'WEEKDAY', day: 5 }],
      revision: f.revision,
    }),
    invalid: {
      body: (f) => ({
        contractId: f.contractId,
        interval: 'WEEK',
        intervalCount: 2,
        anchors: [{ type: 'MONTHDAY', day: 15 }],
      }),
    },
    mutation: 'subscriptionDraftCommit',
    platform: true,
    async verify(f) {
      const c = platformContract(f.contractId)
      expect(c.billingPolicy).toMatchObject({
        interval: 'WEEK',
        intervalCount: 2,
        anchors: [{ type: 'WEEKDAY', day: 5 }],
      })
      expect(c.deliveryPolicy).toMatchObject({ interval: 'WEEK', intervalCount: 2 })
      expect((await mirrorRow(f.contractId)).billing_policy).toMatchObject({
        interval: 'WEEK',
        intervalCount: 2,
      })
      expect(await events(f.contractId, 'interval_changed')).toHaveLength(1)
    },
  },
  {
    name: 'POST /create-order-now',
    method: 'POST',
    path: () => '/create-order-now',
    body: (f) => ({ contractId: f.contractId, revision: f.revision }),
    invalid: { body: () => ({ contractId: 'x1' }) },
    mutation: 'subscriptionBillingAttemptCreate',
    platform: true,
    async verify(f, json) {
      const c = platformContract(f.contractId)
      expect(c.billingAttemptIds.map(String)).toContain(json.billingAttemptId)
      const { rows } = await env.pool.query(
        'select idempotency_key from billing_attempts where shop_id = $1 and id = $2',
        [env.shopIds[DOMAIN], json.billingAttemptId],
      )
      expect(rows[0]?.idempotency_key).toBe(`order-now-${f.contractId}-${f.revision}`)
    },
  },
  {
    name: 'POST /subscriptions/:id/lines',
    method: 'POST',
    path: subscriptionPath('lines'),
    body: (f) => ({ variantId: 'VARIANT', quantity: 2, revision: f.revision }),
    invalid: { body: () => ({ variantId: '1', quantity: 0 }) },
    mutation: 'subscriptionDraftLineAdd',
    platform: true,
    async verify(f) {
      const lines = platformContract(f.contractId).lines
      const added = lines.at(-1)!
      expect(added.quantity).toBe(2)
      expect((await mirrorLines(f.contractId)).map((l) => l.id)).toContain(
        `gid://shopify/SubscriptionLine/${added.id}`,
      )
      expect(await events(f.contractId, 'line_added')).toHaveLength(1)
    },
  },
  {
    name: 'DELETE /subscriptions/:id/lines/:lineId',
    method: 'DELETE',
    path: (f) => `/subscriptions/${f.contractId}/lines/${f.lineId}?revision=${f.revision}`,
    invalid: { path: (f) => `/subscriptions/${f.contractId}/lines/${encodeURIComponent('a b')}` },
    mutation: 'subscriptionDraftLineRemove',
    platform: true,
    async verify(f) {
      expect(platformContract(f.contractId).lines.map((l) => String(l.id))).not.toContain(f.lineId)
      expect((await mirrorLines(f.contractId)).map((l) => l.id)).not.toContain(
        `gid://shopify/SubscriptionLine/${f.lineId}`,
      )
      expect((await events(f.contractId, 'line_removed'))[0]?.payload).toMatchObject({ lineId: f.lineId })
    },
  },
  {
    name: 'PUT /subscriptions/:contractId/:lineId/quantity',
    method: 'PUT',
    path: (f) => `/subscriptions/${f.contractId}/${f.lineId}/quantity`,
    body: (f) => ({ quantity: 7, revision: f.revision }),
    invalid: { body: () => ({ quantity: 1.5 }) },
    mutation: 'subscriptionDraftLineUpdate',
    platform: true,
    async verify(f) {
      expect(platformContract(f.contractId).lines.find((l) => String(l.id) === f.lineId)?.quantity).toBe(7)
      expect((await mirrorLines(f.contractId))[0]?.quantity).toBe(7)
      expect((await events(f.contractId, 'line_quantity_changed'))[0]?.payload).toMatchObject({ to: 7 })
    },
  },
  {
    name: 'POST /subscription-contracts/:id/price-manually-changed',
    method: 'POST',
    path: contractPath('price-manually-changed'),
    body: (f) => ({ lineId: f.lineId, price: '1234', revision: f.revision }),
    invalid: { body: (f) => ({ lineId: f.lineId, price: '-5' }) },
    mutation: 'subscriptionDraftLineUpdate',
    platform: true,
    async verify(f) {
      expect(platformContract(f.contractId).lines.find((l) => String(l.id) === f.lineId)?.currentPrice).toBe(
        1234,
      )
      expect((await mirrorRow(f.contractId)).price_manually_changed_at).toBeInstanceOf(Date)
      expect((await events(f.contractId, 'line_price_changed'))[0]?.payload).toMatchObject({
        to: '1234',
        manual: true,
      })
    },
  },
  {
    name: 'PUT /subscriptions/:contractId/:lineId/product-variant',
    method: 'PUT',
    path: (f) => `/subscriptions/${f.contractId}/${f.lineId}/product-variant`,
    body: (f) => ({ variantId: 'VARIANT', revision: f.revision }),
    invalid: { body: () => ({ variantId: 'abc' }) },
    mutation: 'subscriptionDraftLineUpdate',
    platform: true,
    async verify(f) {
      const line = platformContract(f.contractId).lines.find((l) => String(l.id) === f.lineId)!
      const variant = await env.pool.query<{ id: string; price: string }>(
        'select id::text, price from product_variants where shop_id = $1 and id = $2',
        [env.shopIds[DOMAIN], line.variantId],
      )
      const price = Number(variant.rows[0]?.price)
      if (!line.pricingPolicy) {
        // No plan pricing: the line takes the variant's price.
        expect(line.currentPrice).toBe(price)
      } else {
        // The plan's discount follows the new variant: the policy's base is the variant's price,
        // and the line carries the policy's price for the coming cycle (what billing will charge).
        expect(line.pricingPolicy.basePrice).toBe(price)
        const policy = {
          basePrice: String(price),
          cycleDiscounts: line.pricingPolicy.cycleDiscounts.map((d) => ({
            adjustmentType: d.adjustmentType,
            adjustmentValue:
              d.adjustmentValue.__typename === 'MoneyV2'
                ? d.adjustmentValue.amount
                : String(d.adjustmentValue.percentage),
            afterCycle: d.afterCycle ?? 0,
          })),
        }
        const cycle = (await contractOrderCount(env.pool, env.shopIds[DOMAIN]!, f.contractId)) + 1
        expect(line.currentPrice).toBe(Number(cycleUnitPrice(policy, cycle, 'JPY')))
        expect(line.currentPrice).toBeLessThanOrEqual(price)
      }
      expect((await events(f.contractId, 'line_variant_swapped'))[0]?.payload).toMatchObject({
        to: String(line.variantId),
      })
    },
  },
  {
    name: 'PUT /subscription-contracts/:id/note',
    method: 'PUT',
    path: contractPath('note'),
    body: (f) => ({ note: '玄関前に置き配希望', revision: f.revision }),
    invalid: { body: () => ({ note: 'あ'.repeat(5001) }) },
    mutation: 'subscriptionDraftUpdate',
    platform: true,
    async verify(f) {
      expect(platformContract(f.contractId).note).toBe('玄関前に置き配希望')
      expect((await mirrorRow(f.contractId)).note).toBe('玄関前に置き配希望')
    },
  },
  {
    name: 'GET /subscription-contracts/:id/order-count',
    method: 'GET',
    path: contractPath('order-count'),
    invalid: { path: () => '/subscription-contracts/1.5/order-count' },
    platform: false,
    async verify(f, json) {
      const c = platformContract(f.contractId)
      const cancelled = new Set(
        platformShop()
          .orders.filter((o) => o.cancelledAt !== null)
          .map((o) => o.id),
      )
      // The orders the sync mirrored for the contract, cancelled ones left out.
      expect(json).toEqual({
        contractId: f.contractId,
        count: c.orderIds.filter((id) => !cancelled.has(id)).length,
        setCount: null,
        setAt: null,
      })
    },
  },
  {
    name: 'PUT /subscription-contracts/:id/order-count',
    method: 'PUT',
    path: contractPath('order-count'),
    body: () => ({ count: 12 }),
    invalid: { body: () => ({ count: -1 }) },
    platform: false,
    async verify(f, json) {
      expect(json).toMatchObject({ contractId: f.contractId, count: 12, setCount: 12 })
      expect((await events(f.contractId, 'order_count_set'))[0]?.payload).toMatchObject({ to: 12 })
    },
  },
  {
    name: 'PUT /subscriptions/:id/delivery-address',
    method: 'PUT',
    path: subscriptionPath('delivery-address'),
    body: (f) => ({
      address: {
        lastName: '山田',
        firstName: '花子',
        zip: '1500001',
        provinceCode: 'JP-13',
        city: '渋谷区',
        address1: '神宮前1-2-3',
        address2: 'テイキビル501',
        phone: '090-1234-5678',
      },
      revision: f.revision,
    }),
    invalid: {
      body: () => ({
        address: {
          lastName: '山田',
          zip: '15-0001',
          provinceCode: 'JP-13',
          city: '渋谷区',
          address1: '1-2-3',
        },
      }),
    },
    mutation: 'subscriptionDraftUpdate',
    platform: true,
    async verify(f) {
      const address = platformContract(f.contractId).deliveryMethod as { address: Record<string, string> }
      expect(address.address).toMatchObject({
        lastName: '山田',
        firstName: '花子',
        zip: '150-0001',
        provinceCode: 'JP-13',
        city: '渋谷区',
        address1: '神宮前1-2-3',
        address2: 'テイキビル501',
      })
      expect((await mirrorRow(f.contractId)).delivery_method?.address).toMatchObject({
        city: '渋谷区',
        zip: '150-0001',
      })
    },
  },
  {
    name: 'GET /subscription-contracts/:id/payment-methods',
    method: 'GET',
    path: contractPath('payment-methods'),
    invalid: { path: () => '/subscription-contracts/x/payment-methods' },
    platform: true,
    async verify(f, json) {
      const c = platformContract(f.contractId)
      const theirs = platformShop().paymentMethods.filter((m) => m.customerId === c.customerId)
      expect(json.currentId).toBe(String(c.paymentMethodId))
      expect((json.methods as Array<{ id: string }>).map((m) => m.id).sort()).toEqual(
        theirs.map((m) => String(m.id)).sort(),
      )
    },
  },
  {
    name: 'PUT /modify-payment-method',
    method: 'PUT',
    path: () => '/modify-payment-method',
    body: (f) => ({ contractId: f.contractId, paymentMethodId: 'METHOD', revision: f.revision }),
    invalid: { body: (f) => ({ contractId: f.contractId }) },
    mutation: 'subscriptionDraftUpdate',
    platform: true,
    async verify(f) {
      const c = platformContract(f.contractId)
      expect(String(c.paymentMethodId)).toBe(spareMethods.get(f.contractId))
      expect((await events(f.contractId, 'payment_method_changed'))[0]?.payload).toMatchObject({
        to: spareMethods.get(f.contractId),
      })
    },
  },
  {
    name: 'POST /subscription-contracts/:id/payment-method-update-email',
    method: 'POST',
    path: contractPath('payment-method-update-email'),
    invalid: { path: () => '/subscription-contracts/-1/payment-method-update-email' },
    mutation: 'customerPaymentMethodSendUpdateEmail',
    platform: true,
    async verify(f, json) {
      const customer = platformShop().customers.find((c) => String(c.id) === f.customerId)!
      expect(json).toEqual({ contractId: f.contractId, sentTo: customer.email })
      expect(await events(f.contractId, 'payment_update_email_sent')).toHaveLength(1)
    },
  },
  {
    name: 'GET /subscriptions/:id/discount-code/',
    method: 'GET',
    path: subscriptionPath('discount-code/'),
    invalid: { path: () => '/subscriptions/%20/discount-code/' },
    platform: true,
    async verify(f, json) {
      expect(json).toEqual({ contractId: f.contractId, discounts: [] })
    },
  },
  {
    name: 'PUT /subscriptions/:id/discount-code/apply',
    method: 'PUT',
    path: subscriptionPath('discount-code/apply'),
    body: (f) => ({ discountCode: 'WELCOME10', revision: f.revision }),
    invalid: { body: () => ({ discountCode: '   ' }) },
    mutation: 'subscriptionDraftDiscountCodeApply',
    platform: true,
    async verify(f) {
      const read = await call('GET', `/subscriptions/${f.contractId}/discount-code/`)
      expect(read.json().discounts.map((d: { title: string }) => d.title)).toEqual(['WELCOME10'])
      expect((platformContract(f.contractId).discounts ?? []).map((d) => d.title)).toEqual(['WELCOME10'])
    },
  },
]

/** Per contract: a payment method of the same customer other than the current one. */
const spareMethods = new Map<string, string>()

function resolveBody(endpoint: Endpoint, f: Fixture, variant: string): unknown {
  const body = endpoint.body?.(f)
  if (!body) return body
  const text = JSON.stringify(body)
    .replace('"VARIANT"', JSON.stringify(variant))
    .replace('"METHOD"', JSON.stringify(spareMethods.get(f.contractId) ?? '1'))
  return JSON.parse(text)
}

/** A fixture fit for the endpoint (a second line to remove, a spare payment method). */
async function fixtureFor(endpoint: Endpoint, domain = DOMAIN): Promise<Fixture> {
  if (endpoint.name.startsWith('DELETE /subscriptions/:id/lines')) return fresh(domain, { lines: 2 })
  if (endpoint.name === 'PUT /modify-payment-method') {
    for (;;) {
      const f = fresh(domain)
      const c = platformContract(f.contractId, domain)
      const spare = platformShop(domain).paymentMethods.find(
        (m) => m.customerId === c.customerId && m.id !== c.paymentMethodId && m.revokedAt == null,
      )
      if (spare) {
        spareMethods.set(f.contractId, String(spare.id))
        return f
      }
      if (domain !== DOMAIN) return f
      // Give the customer a second card, as a customer who added one in checkout has.
      const id = Math.max(...platformShop().paymentMethods.map((m) => m.id)) + 1
      const base = platformShop().paymentMethods.find((m) => m.id === c.paymentMethodId)!
      platformShop().paymentMethods.push({ ...base, id })
      spareMethods.set(f.contractId, String(id))
      return f
    }
  }
  return fresh(domain)
}

describe.each(ENDPOINTS)('$name', (endpoint) => {
  it('succeeds and is right on the platform, in the mirror and in the history', async () => {
    const f = await fixtureFor(endpoint)
    const variant = await otherVariant(f.contractId)
    const res = await call(endpoint.method, endpoint.path(f), resolveBody(endpoint, f, variant.id))
    expect(res.statusCode, res.body).toBe(200)
    const json = res.json()
    if ('revision' in json && endpoint.platform) {
      // An edit answers the contract's new revision, which the mirror holds too.
      expect(json.revision).toBe(String(platformContract(f.contractId).revisionId))
      expect((await mirrorRow(f.contractId)).revision_id).toBe(json.revision)
    }
    await endpoint.verify(f, json)
  })

  it('refuses invalid input with 400 and a Japanese message, without calling the platform', async () => {
    const f = await fixtureFor(endpoint)
    const before = env.emulator.callLog.length
    const path = endpoint.invalid.path?.(f) ?? endpoint.path(f)
    const body = endpoint.invalid.body ? endpoint.invalid.body(f) : resolveBody(endpoint, f, '1')
    const res = await call(endpoint.method, path, body)
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json().error.code).toBe('INVALID_INPUT')
    expect(hasJapanese(res.json().error.message)).toBe(true)
    expect(shopCalls(before)).toEqual([])
  })

  it("answers 404 for another shop's contract and for an unknown id, without calling the platform", async () => {
    // Nothing is changed here, so any of the other shop's contracts will do.
    const c = platformShop(OTHER).contracts[0]!
    const theirs: Fixture = {
      contractId: String(c.id),
      customerId: String(c.customerId),
      lineId: String(c.lines[0]!.id),
      revision: String(c.revisionId),
    }
    const unknown: Fixture = { ...theirs, contractId: '999999999' }
    for (const f of [theirs, unknown]) {
      const before = env.emulator.callLog.length
      const res = await call(endpoint.method, endpoint.path(f), resolveBody(endpoint, f, '1'))
      expect(res.statusCode, res.body).toBe(404)
      expect(res.json().error.code).toBe('NOT_FOUND')
      expect(shopCalls(before)).toEqual([])
      expect(shopCalls(before, OTHER)).toEqual([])
    }
  })

  if (endpoint.mutation) {
    const mutation = endpoint.mutation
    it(`answers 422 when the platform refuses (${mutation} userError) and leaves the mirror as it was`, async () => {
      const f = await fixtureFor(endpoint)
      const variant = await otherVariant(f.contractId)
      const before = await mirrorRow(f.contractId)
      const revision = platformContract(f.contractId).revisionId
      env.emulator.faults.failMutation(mutation, { code: 'INVALID', message: 'Refused by the platform' })
      const res = await call(endpoint.method, endpoint.path(f), resolveBody(endpoint, f, variant.id))
      expect(res.statusCode, res.body).toBe(422)
      expect(res.json().error.code).toBe('PLATFORM_USER_ERROR')
      expect(res.json().error.message).toContain('Refused by the platform')
      expect(hasJapanese(res.json().error.message)).toBe(true)
      expect(platformContract(f.contractId).revisionId).toBe(revision)
      // The lines' policies the charge path read (a cache of the platform's state) may be kept.
      const withoutCache = (row: object) =>
        Object.fromEntries(Object.entries(row).filter(([key]) => !key.startsWith('line_pricing')))
      expect(withoutCache(await mirrorRow(f.contractId))).toEqual(withoutCache(before))
    })
  }

  if (endpoint.platform) {
    it('answers 502 when the platform is down and leaves the mirror as it was', async () => {
      const f = await fixtureFor(endpoint)
      const variant = await otherVariant(f.contractId)
      const before = await mirrorRow(f.contractId)
      env.emulator.faults.set({ errorRate: 1 })
      const res = await call(endpoint.method, endpoint.path(f), resolveBody(endpoint, f, variant.id))
      env.emulator.faults.reset()
      expect(res.statusCode, res.body).toBe(502)
      expect(res.json().error.code).toBe('PLATFORM_UNAVAILABLE')
      expect(hasJapanese(res.json().error.message)).toBe(true)
      expect(await mirrorRow(f.contractId)).toEqual(before)
    })
  } else {
    it('needs no platform: it works while the platform is down', async () => {
      const f = await fixtureFor(endpoint)
      env.emulator.faults.set({ errorRate: 1 })
      const res = await call(endpoint.method, endpoint.path(f), resolveBody(endpoint, f, '1'))
      env.emulator.faults.reset()
      expect(res.statusCode, res.body).toBe(200)
    })
  }
})

describe('stale updates', () => {
  it('refuses an edit made from an old revision with 409 and changes nothing', async () => {
    const f = fresh()
    const first = await call('PUT', `/subscription-contracts/${f.contractId}/note`, {
      note: '担当Aのメモ',
      revision: f.revision,
    })
    expect(first.statusCode).toBe(200)
    // A second person still looking at the screen from before the first edit.
    const before = env.emulator.callLog.length
    const second = await call('PUT', `/subscription-contracts/${f.contractId}/note`, {
      note: '担当Bのメモ',
      revision: f.revision,
    })
    expect(second.statusCode).toBe(409)
    expect(second.json().error.code).toBe('CONFLICT')
    expect(second.json().error.message).toContain('再読み込み')
    expect(platformContract(f.contractId).note).toBe('担当Aのメモ')
    expect(shopCalls(before).flatMap((c) => c.rootFields)).toEqual(['subscriptionContract'])
    // With the revision the first edit answered, the second person's edit goes through.
    const retried = await call('PUT', `/subscription-contracts/${f.contractId}/note`, {
      note: '担当Bのメモ',
      revision: first.json().revision,
    })
    expect(retried.statusCode).toBe(200)
    expect(platformContract(f.contractId).note).toBe('担当Bのメモ')
  })

  it('refuses a stale pause too', async () => {
    const f = fresh()
    await call('PUT', `/subscription-contracts/${f.contractId}/note`, { note: '先に変更' })
    const res = await call('POST', '/pause', {
      contractId: f.contractId,
      customerId: f.customerId,
      revision: f.revision,
    })
    expect(res.statusCode).toBe(409)
    expect(platformContract(f.contractId).status).toBe('ACTIVE')
  })
})

describe('edit rules', () => {
  it('fails a line add with the spec message when the platform refuses the variant', async () => {
    const f = fresh()
    // A variant the mirror knows but the platform deleted since.
    const variant = await otherVariant(f.contractId)
    const shop = platformShop()
    const index = shop.variants.findIndex((v) => String(v.id) === variant.id)
    const [removed] = shop.variants.splice(index, 1)
    try {
      const res = await call('POST', `/subscriptions/${f.contractId}/lines`, {
        variantId: variant.id,
        quantity: 1,
      })
      expect(res.statusCode).toBe(422)
      expect(res.json().error.message).toContain('Failed to add line to subscription')
      expect(res.json().error.message).toContain('商品を追加できませんでした')
      expect(platformContract(f.contractId).lines).toHaveLength((await mirrorLines(f.contractId)).length)
    } finally {
      shop.variants.splice(index, 0, removed!)
    }
  })

  it('adds a line at the price given, on the contract plan', async () => {
    const f = fresh()
    const variant = await otherVariant(f.contractId)
    const res = await call('POST', `/subscriptions/${f.contractId}/lines`, {
      variantId: variant.id,
      quantity: 3,
      price: '980',
      revision: f.revision,
    })
    expect(res.statusCode).toBe(200)
    const lines = platformContract(f.contractId).lines
    const added = lines.at(-1)!
    expect(added).toMatchObject({ quantity: 3, currentPrice: 980, sellingPlanId: lines[0]!.sellingPlanId })
    const detail = await call('GET', `/subscriptions/${f.contractId}`)
    expect(detail.json().lines.map((l: { id: string }) => l.id)).toContain(String(added.id))
  })

  it('refuses to remove the last line with 409', async () => {
    const f = fresh()
    const c = platformContract(f.contractId)
    // Leave one line through the API, then try to remove it.
    for (const line of c.lines.slice(1)) {
      const res = await call('DELETE', `/subscriptions/${f.contractId}/lines/${line.id}`)
      expect(res.statusCode).toBe(200)
    }
    const last = platformContract(f.contractId).lines[0]!
    const res = await call('DELETE', `/subscriptions/${f.contractId}/lines/${last.id}`)
    expect(res.statusCode).toBe(409)
    expect(res.json().error.message).toContain('最後の商品')
    expect(platformContract(f.contractId).lines).toHaveLength(1)
  })

  it('配送設定: a slot the shop’s carrier does not deliver in is refused; the carrier’s own is taken', async () => {
    const f = fresh()
    const res = await call('PUT', `/subscription-contracts/${f.contractId}/specify-delivery-time`, {
      deliveryTime: '12-14',
      revision: f.revision,
    })
    // ヤマト (the default) dropped 12-14時 in 2017.
    expect(res.statusCode).toBe(400)
    expect(res.json().error.message).toBe('ヤマト運輸では「12時〜14時」を指定できません（設定 › 配送設定）')
    expect(platformContract(f.contractId).customAttributes).not.toContainEqual({
      key: '配送時間帯',
      value: '12時〜14時',
    })
    await saveDeliverySettings(env.pool, env.shopIds[DOMAIN]!, {
      ...DEFAULT_DELIVERY_SETTINGS,
      carrier: 'sagawa',
    })
    try {
      const ok = await call('PUT', `/subscription-contracts/${f.contractId}/specify-delivery-time`, {
        deliveryTime: '12-14',
        revision: f.revision,
      })
      expect(ok.statusCode).toBe(200)
      expect(platformContract(f.contractId).customAttributes).toContainEqual({
        key: '配送時間帯',
        value: '12時〜14時',
      })
    } finally {
      await env.pool.query('delete from delivery_settings where shop_id = $1', [env.shopIds[DOMAIN]])
    }
  })

  it('answers 404 for a line the contract does not have', async () => {
    const f = fresh()
    const res = await call('PUT', `/subscriptions/${f.contractId}/999999/quantity`, { quantity: 2 })
    expect(res.statusCode).toBe(404)
    expect(res.json().error.message).toContain('明細')
  })

  it('refuses edits of a cancelled contract with 409 (the note stays editable)', async () => {
    const f = fresh()
    const churn = await call('POST', '/churn', { contractId: f.contractId, customerId: f.customerId })
    expect(churn.statusCode).toBe(200)
    const date = await call('PUT', '/next-billing-date', {
      contractId: f.contractId,
      nextBillingDate: '2027-01-10',
    })
    expect(date.statusCode).toBe(409)
    expect(date.json().error.message).toBe('解約済みの契約は次回請求日を変更できません')
    const now = await call('POST', '/create-order-now', { contractId: f.contractId })
    expect(now.statusCode).toBe(409)
    const note = await call('PUT', `/subscription-contracts/${f.contractId}/note`, {
      note: '解約理由: 在庫過多',
    })
    expect(note.statusCode).toBe(200)
  })

  it('refuses a next billing date in the past and a delivery date before billing', async () => {
    const f = fresh()
    const past = await call('PUT', '/next-billing-date', {
      contractId: f.contractId,
      nextBillingDate: '2020-01-01',
    })
    expect(past.statusCode).toBe(400)
    expect(past.json().error.message).toBe('次回請求日には今日以降の日付を指定してください')
    await call('PUT', '/next-billing-date', { contractId: f.contractId, nextBillingDate: '2027-06-10' })
    const early = await call('PUT', `/subscriptions/${f.contractId}/next-delivery-date`, {
      nextDeliveryDate: '2027-06-01',
    })
    expect(early.statusCode).toBe(400)
    expect(early.json().error.message).toBe(
      'お届け予定日には次回請求日（2027年6月10日）以降の日付を指定してください',
    )
  })

  it('refuses a day that does not exist, naming it (issue 22)', async () => {
    const f = fresh()
    for (const [path, body] of [
      ['/next-billing-date', { contractId: f.contractId, nextBillingDate: '2026-13-45' }],
      [`/subscriptions/${f.contractId}/next-delivery-date`, { nextDeliveryDate: '2026-13-45' }],
    ] as const) {
      const refused = await call('PUT', path, body)
      expect(refused.statusCode).toBe(400)
      expect(refused.json().error.message).toContain('2026年13月45日は存在しない日付です')
    }
  })

  it('creates one billing attempt for a double click (same revision, same idempotency key)', async () => {
    const f = fresh()
    const [a, b] = await Promise.all([
      call('POST', '/create-order-now', { contractId: f.contractId, revision: f.revision }),
      call('POST', '/create-order-now', { contractId: f.contractId, revision: f.revision }),
    ])
    expect(a.statusCode).toBe(200)
    // The second answers the same attempt, or 409 if the first already moved the revision.
    if (b.statusCode === 200) expect(b.json().billingAttemptId).toBe(a.json().billingAttemptId)
    else expect(b.statusCode).toBe(409)
    expect(
      platformContract(f.contractId).billingAttemptIds.filter(
        (id) => String(id) === a.json().billingAttemptId,
      ),
    ).toHaveLength(1)
    const { rows } = await env.pool.query(
      `select count(*)::int as n from billing_attempts where shop_id = $1 and contract_id = $2
       and idempotency_key like 'order-now-%'`,
      [env.shopIds[DOMAIN], f.contractId],
    )
    expect(rows[0].n).toBe(1)
  })

  it('counts orders from a corrected order count on', async () => {
    const f = fresh()
    const set = await call('PUT', `/subscription-contracts/${f.contractId}/order-count`, { count: 5 })
    expect(set.json().count).toBe(5)
    // An order mirrored after the correction counts on top of it.
    await env.pool.query(
      `insert into orders (shop_id, id, name, contract_id, customer_id, total_amount, currency_code, created_at)
       values ($1, 990000001, '#X1', $2, $3, 1000, 'JPY', now() + interval '1 second')`,
      [env.shopIds[DOMAIN], f.contractId, f.customerId],
    )
    const read = await call('GET', `/subscription-contracts/${f.contractId}/order-count`)
    expect(read.json()).toMatchObject({ count: 6, setCount: 5 })
    const detail = await call('GET', `/subscriptions/${f.contractId}`)
    expect(detail.json().orderCount).toBe(6)
  })

  it('removes an applied discount by its code', async () => {
    const f = fresh()
    const applied = await call('PUT', `/subscriptions/${f.contractId}/discount-code/apply`, {
      discountCode: 'TEIKI500',
    })
    expect(applied.statusCode).toBe(200)
    const unknown = await call('PUT', `/subscriptions/${f.contractId}/discount-code/apply`, {
      discountCode: 'NOPE',
    })
    expect(unknown.statusCode).toBe(422)
    expect(unknown.json().error.message).toMatch(
      /^Shopify が割引コード「NOPE」の適用を受け付けませんでした：割引コードが無効です。.*\n詳細: Discount code is invalid$/,
    )
    const removed = await call('DELETE', `/subscriptions/${f.contractId}/discount-code/TEIKI500`)
    expect(removed.statusCode, removed.body).toBe(200)
    expect(platformContract(f.contractId).discounts ?? []).toEqual([])
    const again = await call('DELETE', `/subscriptions/${f.contractId}/discount-code/TEIKI500`)
    expect(again.statusCode).toBe(404)
  })
})
