import { type SubscriptionDetailLine, ZSubscriptionDetail } from '@teiki/contract'
import { DELIVERY_TIME_ATTRIBUTE, deliveryDateOf, deliveryTimeSlot } from '@teiki/domain'
import {
  type ContractLineRecord,
  type ContractRecord,
  createSchema,
  type DiscountRecord,
  nextId,
  queryCost,
} from '@teiki/shopify-emulator'
import { type OperationDefinitionNode, parse } from 'graphql'
import { describe, expect, it } from 'vitest'
import { isCardExpired } from '../src/features/subscriptions/payment-instrument.ts'
import { toGid } from '../src/platform/gid.ts'
import { fetchCustomerPaymentMethods } from '../src/platform/operations/customer-payment-methods.ts'
import { fetchSubscriptionContract } from '../src/platform/operations/subscription-contract.ts'
import { SUBSCRIPTION_CONTRACT_DETAIL } from '../src/platform/operations/subscription-contract-detail.ts'
import { upsertContracts } from '../src/sync/contracts-repo.ts'
import { contractRecord, lineRecords } from '../src/sync/records.ts'
import { useMainAndOther } from './support/emulated-app.ts'
import { testDomain } from './support/fixtures.ts'

const DOMAIN = testDomain('detail')
const OTHER = testDomain('detail-other')
const SECRET = 's3cret-detail'

const env = useMainAndOther('detail', { secret: SECRET, contracts: [30, 5], sync: false })

const shopState = (domain: string) => env.emulator.store.shop(domain)!

/** Puts the platform's current contract in the mirror, as the full sync would. */
async function mirror(domain: string, contractId: number): Promise<void> {
  const contract = await fetchSubscriptionContract(
    env.clients[domain]!,
    toGid('SubscriptionContract', contractId),
  )
  await upsertContracts(env.pool, env.shopIds[domain]!, [contractRecord(contract!)], lineRecords(contract!))
}

function detail(contractId: string | number, domain = DOMAIN) {
  return env.app.inject({
    method: 'GET',
    url: `/app-admin/subscriptions/${contractId}?shop=${domain}&secret=${SECRET}`,
  })
}

const callsFor = (domain: string, from: number) =>
  env.emulator.callLog.slice(from).filter((c) => c.shop === domain).length

type Money = { amount: string; currencyCode: string }
type PlatformLine = {
  discountAllocations: Array<{ amount: Money }>
  pricingPolicy: {
    basePrice: Money
    cycleDiscounts: Array<{
      adjustmentType: string
      adjustmentValue: { __typename: string; percentage?: number; amount?: string }
      afterCycle: number
      computedPrice: Money
    }>
  } | null
}

/**
 * The contract's line pricing as the platform answers it, in the detail's shape: a percentage
 * as its number, a money value as its amount.
 */
async function platformLinePricing(
  domain: string,
  contractId: number,
): Promise<Array<Pick<SubscriptionDetailLine, 'discountAllocations' | 'pricingPolicy'>>> {
  // Every line, a page of 50 at a time (a generated contract may hold more than one page).
  const lines: PlatformLine[] = []
  for (let after: string | null = null; ; ) {
    const { data, errors } = await env.emulator.graphql(domain, {
      query: `query ($id: ID!, $after: String) {
        subscriptionContract(id: $id) {
          lines(first: 50, after: $after) {
            nodes {
              discountAllocations { amount { amount currencyCode } }
              pricingPolicy {
                basePrice { amount currencyCode }
                cycleDiscounts {
                  adjustmentType
                  adjustmentValue {
                    __typename
                    ... on SellingPlanPricingPolicyPercentageValue { percentage }
                    ... on MoneyV2 { amount }
                  }
                  afterCycle
                  computedPrice { amount currencyCode }
                }
              }
            }
            pageInfo { hasNextPage endCursor }
          }
        }
      }`,
      variables: { id: toGid('SubscriptionContract', contractId), after },
    })
    expect(errors).toBeUndefined()
    type Page = { nodes: PlatformLine[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } }
    const page: Page = (data as { subscriptionContract: { lines: Page } }).subscriptionContract.lines
    lines.push(...page.nodes)
    if (!page.pageInfo.hasNextPage) break
    after = page.pageInfo.endCursor
  }
  return lines.map((l) => ({
    discountAllocations: l.discountAllocations,
    pricingPolicy: l.pricingPolicy && {
      basePrice: l.pricingPolicy.basePrice,
      cycleDiscounts: l.pricingPolicy.cycleDiscounts.map((d) => ({
        ...d,
        adjustmentValue:
          d.adjustmentValue.percentage !== undefined
            ? String(d.adjustmentValue.percentage)
            : d.adjustmentValue.amount!,
      })),
    },
  }))
}

const pricingOf = (lines: SubscriptionDetailLine[]) =>
  lines.map((l) => ({ discountAllocations: l.discountAllocations, pricingPolicy: l.pricingPolicy }))

describe('GET /app-admin/subscriptions/:contractId', () => {
  it("equals the platform's state of the contract", async () => {
    const shop = shopState(DOMAIN)
    // The contract with the most orders, so the 10-newest cut is exercised when possible.
    const c = [...shop.contracts].sort((a, b) => b.orderIds.length - a.orderIds.length)[0]!
    await mirror(DOMAIN, c.id)
    // A merchant's correction: 7, with no orders mirrored after it.
    await env.pool.query(
      'update subscription_contracts set order_count_set = 7, order_count_set_at = now() where shop_id = $1 and id = $2',
      [env.shopIds[DOMAIN], c.id],
    )

    const res = await detail(c.id)
    expect(res.statusCode).toBe(200)
    const body = ZSubscriptionDetail.parse(res.json())

    expect(body.contractId).toBe(String(c.id))
    expect(body.status).toBe(c.status)
    const { data } = await env.emulator.graphql(DOMAIN, {
      query: `{ customer(id: "${toGid('Customer', c.customerId)}") { displayName email } }`,
    })
    expect(body.customer).toEqual({ id: String(c.customerId), ...(data as { customer: object }).customer })
    expect(body.customer.displayName.length).toBeGreaterThan(0)

    expect(body.lines.map((l) => [l.title, l.quantity])).toEqual(c.lines.map((l) => [l.title, l.quantity]))
    expect(body.lines.map((l) => l.id)).toEqual(c.lines.map((l) => String(l.id)))

    const newest = [...c.orderIds].reverse().slice(0, 10).map(String)
    expect(body.orders.map((o) => o.id)).toEqual(newest)
    expect(c.orderIds.length).toBeGreaterThan(10)
    expect(body.orders).toHaveLength(10)
    const times = body.orders.map((o) => Date.parse(o.createdAt))
    expect(times).toEqual([...times].sort((a, b) => b - a))
    expect(body.billingAttempts.length).toBeLessThanOrEqual(10)

    expect(body.orderCount).toBe(7)
    expect(body.interval).toBe(c.billingPolicy.interval)
    expect(body.intervalCount).toBe(c.billingPolicy.intervalCount)
    expect(body.billingPolicy.anchors).toEqual(body.anchors)
    // Generated contracts carry a time slot (配送時間帯) some of the time.
    const slot = c.customAttributes.find((a) => a.key === DELIVERY_TIME_ATTRIBUTE)?.value
    expect(body.nextDeliveryDate).toBe(deliveryDateOf(c.customAttributes))
    expect(body.deliveryTime).toBe(slot ? deliveryTimeSlot(slot) : null)
    if (slot) expect(body.deliveryTime).not.toBeNull()

    const pm = shop.paymentMethods.find((p) => p.id === c.paymentMethodId)
    const expectedKind = !pm
      ? 'none'
      : {
          CustomerCreditCard: 'card',
          CustomerPaypalBillingAgreement: 'paypal',
          CustomerShopPayAgreement: 'wallet',
        }[pm.instrument.__typename]
    expect(body.paymentMethod.kind).toBe(expectedKind)
    if (body.paymentMethod.kind === 'card' && pm?.instrument.__typename === 'CustomerCreditCard') {
      expect(body.paymentMethod.lastDigits).toBe(pm.instrument.lastDigits)
    }

    // Generated lines carry their selling plan's pricing policy; generated contracts have no discounts.
    const pricing = await platformLinePricing(DOMAIN, c.id)
    expect(pricingOf(body.lines)).toEqual(pricing)
    expect(body.lines.every((l) => l.discountAllocations.length === 0)).toBe(true)

    if (c.deliveryMethod) {
      expect(body.deliveryMethod.kind).toBe('shipping')
      if (
        body.deliveryMethod.kind === 'shipping' &&
        c.deliveryMethod.__typename === 'SubscriptionDeliveryMethodShipping'
      ) {
        expect(body.deliveryMethod.address.province).toBe(c.deliveryMethod.address.province)
        expect(body.deliveryMethod.address.zip).toBe(c.deliveryMethod.address.zip)
      }
    } else {
      expect(body.deliveryMethod).toEqual({ kind: 'none' })
    }
  })

  it('maps PayPal, Shop Pay and expired cards', async () => {
    const shop = shopState(DOMAIN)
    const method = (id: number | null) => shop.paymentMethods.find((p) => p.id === id)!
    // Three contracts paying with three different cards (a customer with two contracts
    // shares one payment method, and a few demo customers pay with PayPal already).
    const seen = new Set<number | null>()
    const [paypal, wallet, expired] = shop.contracts.filter((c) => {
      if (
        seen.has(c.paymentMethodId) ||
        shop.paymentMethods.find((p) => p.id === c.paymentMethodId)?.instrument.__typename !==
          'CustomerCreditCard'
      )
        return false
      seen.add(c.paymentMethodId)
      return true
    })
    method(paypal!.paymentMethodId).instrument = {
      __typename: 'CustomerPaypalBillingAgreement',
      inactive: false,
      isRevocable: true,
      paypalAccountEmail: 'hanako@example.jp',
    }
    const card = method(wallet!.paymentMethodId).instrument
    if (card.__typename !== 'CustomerCreditCard') throw new Error('expected a card')
    // The emulator's records have no Shop Pay instrument type, its schema does.
    method(wallet!.paymentMethodId).instrument = {
      ...card,
      __typename: 'CustomerShopPayAgreement',
      inactive: false,
    } as unknown as typeof card
    const old = method(expired!.paymentMethodId).instrument
    if (old.__typename !== 'CustomerCreditCard') throw new Error('expected a card')
    method(expired!.paymentMethodId).instrument = { ...old, expiryMonth: 3, expiryYear: 2024 }

    const bodies = []
    for (const c of [paypal!, wallet!, expired!]) {
      await mirror(DOMAIN, c.id)
      const res = await detail(c.id)
      expect(res.statusCode).toBe(200)
      bodies.push(ZSubscriptionDetail.parse(res.json()).paymentMethod)
    }
    expect(bodies[0]).toEqual({ kind: 'paypal', email: 'hanako@example.jp' })
    expect(bodies[1]).toEqual({ kind: 'wallet', name: card.name })
    expect(bodies[2]).toMatchObject({ kind: 'card', expiryMonth: 3, expiryYear: 2024, isExpired: true })
  })

  it("maps the platform's line pricing policies, discount allocations and pickup / local delivery", async () => {
    const shop = shopState(DOMAIN)
    const [priced, local] = shop.contracts.slice(2, 4) as [ContractRecord, ContractRecord]
    const template = priced.lines[0]!
    const line = (over: Partial<ContractLineRecord>): ContractLineRecord => ({
      ...template,
      id: nextId(shop, 'SubscriptionLine'),
      ...over,
    })
    const percentage = (p: number) => ({
      __typename: 'SellingPlanPricingPolicyPercentageValue' as const,
      percentage: p,
    })
    priced.lines = [
      line({
        currentPrice: 1800,
        quantity: 2,
        pricingPolicy: {
          basePrice: 2000,
          cycleDiscounts: [
            {
              __typename: 'SellingPlanFixedPricingPolicy',
              adjustmentType: 'PERCENTAGE',
              adjustmentValue: percentage(20),
            },
            {
              __typename: 'SellingPlanRecurringPricingPolicy',
              afterCycle: 1,
              adjustmentType: 'PERCENTAGE',
              adjustmentValue: percentage(10),
            },
          ],
        },
      }),
      line({
        currentPrice: 1200,
        quantity: 1,
        pricingPolicy: {
          basePrice: 1500,
          cycleDiscounts: [
            {
              __typename: 'SellingPlanFixedPricingPolicy',
              adjustmentType: 'FIXED_AMOUNT',
              adjustmentValue: { __typename: 'MoneyV2', amount: '300.0', currencyCode: 'JPY' },
            },
          ],
        },
      }),
      line({ currentPrice: 980, quantity: 1, pricingPolicy: null }),
    ]
    const discount = (over: Partial<DiscountRecord>): DiscountRecord => ({
      id: nextId(shop, 'SubscriptionManualDiscount', 31_000_000_000),
      title: '値引き',
      redeemCode: null,
      type: 'MANUAL',
      targetType: 'LINE_ITEM',
      value: { percentage: 10 },
      recurringCycleLimit: null,
      usageCount: 0,
      ...over,
    })
    priced.discounts = [
      discount({ title: '10%オフ' }),
      discount({ title: '500円引き', value: { amount: 500, appliesOnEachItem: false } }),
      discount({ title: '送料無料', targetType: 'SHIPPING_LINE', value: { percentage: 100 } }),
    ]
    priced.deliveryMethod = {
      __typename: 'SubscriptionDeliveryMethodPickup',
      pickupOption: {
        title: '店舗受け取り',
        presentmentTitle: '店舗受け取り',
        description: null,
        code: 'pickup',
        location: { id: 71_000_000_001, name: '渋谷店' },
      },
    }
    const address = {
      address1: '神南1-1-1',
      address2: null,
      city: '渋谷区',
      company: null,
      country: 'Japan',
      countryCode: 'JP',
      firstName: '花子',
      lastName: '山田',
      name: '山田 花子',
      phone: '+819011112222',
      province: '東京都',
      provinceCode: 'JP-13',
      zip: '150-0041',
    }
    local.deliveryMethod = {
      __typename: 'SubscriptionDeliveryMethodLocalDelivery',
      address,
      localDeliveryOption: {
        title: 'ローカル配達',
        presentmentTitle: 'ローカル配達',
        description: null,
        code: 'local',
        phone: '+819033334444',
        instructions: null,
      },
    }

    await mirror(DOMAIN, priced.id)
    await mirror(DOMAIN, local.id)
    const res = await detail(priced.id)
    expect(res.statusCode).toBe(200)
    const body = ZSubscriptionDetail.parse(res.json())
    expect(pricingOf(body.lines)).toEqual(await platformLinePricing(DOMAIN, priced.id))

    const yen = (amount: string) => ({ amount, currencyCode: 'JPY' })
    // Totals 3,600 / 1,200 / 980: 10% is 360 / 120 / 98, then 500 splits over what is left
    // (3,240 / 1,080 / 882) as 311 / 104 / 85. Shipping discounts reach no line.
    expect(body.lines.map((l) => l.discountAllocations.map((a) => a.amount.amount))).toEqual([
      ['360.0', '311.0'],
      ['120.0', '104.0'],
      ['98.0', '85.0'],
    ])
    expect(body.lines.map((l) => l.pricingPolicy)).toEqual([
      {
        basePrice: yen('2000.0'),
        cycleDiscounts: [
          {
            adjustmentType: 'PERCENTAGE',
            adjustmentValue: '20',
            afterCycle: 0,
            computedPrice: yen('1600.0'),
          },
          {
            adjustmentType: 'PERCENTAGE',
            adjustmentValue: '10',
            afterCycle: 1,
            computedPrice: yen('1800.0'),
          },
        ],
      },
      {
        basePrice: yen('1500.0'),
        cycleDiscounts: [
          {
            adjustmentType: 'FIXED_AMOUNT',
            adjustmentValue: '300.0',
            afterCycle: 0,
            computedPrice: yen('1200.0'),
          },
        ],
      },
      null,
    ])
    expect(body.deliveryMethod).toEqual({ kind: 'pickup', locationName: '渋谷店' })

    const localRes = await detail(local.id)
    expect(localRes.statusCode).toBe(200)
    expect(ZSubscriptionDetail.parse(localRes.json()).deliveryMethod).toEqual({
      kind: 'local',
      phone: '+819033334444',
    })
  })

  it("answers 404 for another shop's contract without calling the platform", async () => {
    const theirs = shopState(OTHER).contracts[0]!
    await mirror(OTHER, theirs.id)
    const from = env.emulator.callLog.length
    const res = await detail(theirs.id, DOMAIN)
    expect(res.statusCode).toBe(404)
    expect(res.json().error).toEqual({ code: 'NOT_FOUND', message: '契約が見つかりません' })
    expect(callsFor(DOMAIN, from) + callsFor(OTHER, from)).toBe(0)
    // The owner does see it.
    expect((await detail(theirs.id, OTHER)).statusCode).toBe(200)
  })

  it('answers 404 for an unknown id', async () => {
    const from = env.emulator.callLog.length
    const res = await detail('999999999999')
    expect(res.statusCode).toBe(404)
    expect(res.json().error.message).toBe('契約が見つかりません')
    expect(callsFor(DOMAIN, from)).toBe(0)
  })

  it('answers 400 in Japanese for an id that is not digits', async () => {
    for (const id of ['abc', '12a', '-1', '1234567890123456789012']) {
      const res = await detail(id)
      expect(res.statusCode).toBe(400)
      expect(res.json().error.code).toBe('INVALID_INPUT')
      expect(res.json().error.message).toMatch(
        /契約IDは(数字|1〜9223372036854775807の範囲)で指定してください/,
      )
    }
  })

  it('answers 502 when the platform keeps failing', async () => {
    const c = shopState(DOMAIN).contracts[1]!
    await mirror(DOMAIN, c.id)
    env.emulator.faults.set({ errorRate: 1 })
    const res = await detail(c.id)
    env.emulator.faults.reset()
    expect(res.statusCode).toBe(502)
    expect(res.json().error).toEqual({
      code: 'PLATFORM_UNAVAILABLE',
      message: 'Shopify に接続できませんでした。しばらくしてから再度お試しください。',
    })
  })

  it('answers 404 when the platform no longer has a mirrored contract', async () => {
    // Mirrored, then deleted on the platform before the next sync.
    const contracts = shopState(OTHER).contracts
    const gone = contracts.at(-1)!
    await mirror(OTHER, gone.id)
    contracts.splice(contracts.indexOf(gone), 1)
    const ghost = gone.id
    const res = await detail(ghost, OTHER)
    expect(res.statusCode).toBe(404)
    expect(res.json().error.message).toBe('契約が見つかりません')
  })
})

describe('customer payment methods operation', () => {
  it("reads the customer's methods without revoked ones; null for an unknown customer", async () => {
    const shop = shopState(OTHER)
    const own = shop.paymentMethods[0]!
    const revoked = {
      ...own,
      id: nextId(shop, 'CustomerPaymentMethod'),
      revokedAt: Date.parse('2026-10-01T00:00:00Z'),
      revokedReason: null,
    }
    shop.paymentMethods.push(revoked)
    const methods = await fetchCustomerPaymentMethods(env.clients[OTHER]!, toGid('Customer', own.customerId))
    const expected = shop.paymentMethods.filter(
      (p) => p.customerId === own.customerId && p.revokedAt === null,
    )
    expect(methods?.map((m) => m.id)).toEqual(expected.map((p) => toGid('CustomerPaymentMethod', p.id)))
    expect(methods?.map((m) => m.id)).not.toContain(toGid('CustomerPaymentMethod', revoked.id))
    expect(methods?.[0]).toMatchObject({
      revokedAt: null,
      instrument: { __typename: own.instrument.__typename },
    })
    if (own.instrument.__typename === 'CustomerCreditCard')
      expect(methods?.[0]?.instrument).toMatchObject({ lastDigits: own.instrument.lastDigits })

    expect(await fetchCustomerPaymentMethods(env.clients[OTHER]!, toGid('Customer', 1))).toBeNull()
  })
})

describe('detail operation and card expiry', () => {
  it('stays under the 1,000-point query cost cap', () => {
    const parsed = parse(SUBSCRIPTION_CONTRACT_DETAIL)
    const operation = parsed.definitions.find(
      (d): d is OperationDefinitionNode => d.kind === 'OperationDefinition',
    )!
    const cost = queryCost(createSchema(), parsed, operation, {})
    expect(cost).toBeLessThanOrEqual(1000)
  })

  it('judges expiry on the Tokyo calendar', () => {
    // 2026-11-30T15:30Z is already 1 December in Tokyo.
    const now = new Date('2026-11-30T15:30:00Z')
    expect(isCardExpired(11, 2026, now)).toBe(true)
    expect(isCardExpired(12, 2026, now)).toBe(false)
    expect(isCardExpired(11, 2026, new Date('2026-11-30T14:30:00Z'))).toBe(false)
    expect(isCardExpired(1, 2027, now)).toBe(false)
    expect(isCardExpired(12, 2025, now)).toBe(true)
  })
})
