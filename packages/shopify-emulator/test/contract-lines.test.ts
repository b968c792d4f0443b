import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toGid } from '../src/gid.ts'
import { STATE_FILE } from '../src/persistence.ts'
import { allocateDiscounts, cyclePrice, roundMoney } from '../src/pricing.ts'
import type { ContractLineRecord, ContractRecord, PricingPolicy, ShopState } from '../src/records.ts'
import type { DiscountRecord } from '../src/records-extra.ts'
import type { Emulator } from '../src/server.ts'
import { newId } from '../src/shop-extra.ts'
import { nextId } from '../src/store.ts'
import { gql, SHOP, smallEmulator } from './support/harness.ts'
import * as m from './support/mutations.ts'

/** Whole yen of `price` less `percentage`%, half up, with BigInt (the independent oracle). */
function halfUpPercentOff(price: number, percentage: number): number {
  const kept = BigInt(Math.round((100 - percentage) * 1000))
  const twice = (BigInt(price) * kept * 2n) / 100_000n // floor of 2 × the exact value
  return Number((twice + 1n) / 2n)
}

const CONTRACT_LINES = `query ContractLines($id: ID!) {
  subscriptionContract(id: $id) {
    lines(first: 90) {
      nodes {
        id
        currentPrice { amount currencyCode }
        pricingPolicy {
          basePrice { amount currencyCode }
          cycleDiscounts {
            adjustmentType
            adjustmentValue {
              __typename
              ... on SellingPlanPricingPolicyPercentageValue { percentage }
              ... on MoneyV2 { amount currencyCode }
            }
            afterCycle
            computedPrice { amount currencyCode }
          }
        }
        discountAllocations {
          amount { amount currencyCode }
          discount {
            __typename
            ... on SubscriptionManualDiscount { id title }
            ... on SubscriptionAppliedCodeDiscount { id redeemCode }
          }
        }
      }
    }
  }
}`

const DRAFT_ALLOCATIONS = `query DraftAllocations($id: ID!) {
  subscriptionDraft(id: $id) {
    lines(first: 20) {
      nodes {
        id
        discountAllocations {
          amount { amount }
          discount { __typename ... on SubscriptionAppliedCodeDiscount { redeemCode } }
        }
      }
    }
  }
}`

const DELIVERY_METHOD = `query DeliveryMethod($id: ID!) {
  subscriptionContract(id: $id) {
    deliveryMethod {
      __typename
      ... on SubscriptionDeliveryMethodShipping { address { address1 } }
      ... on SubscriptionDeliveryMethodPickup {
        pickupOption { title presentmentTitle code location { id name } }
      }
      ... on SubscriptionDeliveryMethodLocalDelivery {
        address { address1 city province zip countryCode firstName lastName phone }
        localDeliveryOption { title phone instructions }
      }
    }
  }
}`

const PAYMENT_METHODS = `query PaymentMethods($id: ID!, $first: Int!, $after: String, $showRevoked: Boolean) {
  customer(id: $id) {
    paymentMethods(first: $first, after: $after, showRevoked: $showRevoked) {
      nodes {
        id
        revokedAt
        instrument { __typename ... on CustomerCreditCard { lastDigits } }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
}`

type Line = {
  id: string
  currentPrice: { amount: string; currencyCode: string }
  pricingPolicy: null | {
    basePrice: { amount: string; currencyCode: string }
    cycleDiscounts: Array<{
      adjustmentType: string
      adjustmentValue: { __typename: string; percentage?: number; amount?: string }
      afterCycle: number
      computedPrice: { amount: string; currencyCode: string }
    }>
  }
  discountAllocations: Array<{
    amount: { amount: string; currencyCode: string }
    discount: { __typename: string; id: string; title?: string; redeemCode?: string }
  }>
}

const percentage = (p: number) => ({
  __typename: 'SellingPlanPricingPolicyPercentageValue' as const,
  percentage: p,
})
const yen = (amount: number) => ({
  __typename: 'MoneyV2' as const,
  amount: `${amount}.0`,
  currencyCode: 'JPY',
})

const discount = (id: number, over: Partial<DiscountRecord>): DiscountRecord => ({
  id,
  title: `D${id}`,
  redeemCode: null,
  type: 'MANUAL',
  targetType: 'LINE_ITEM',
  value: { percentage: 10 },
  recurringCycleLimit: null,
  usageCount: 0,
  ...over,
})

describe('pricing arithmetic', () => {
  it('computes each adjustment type, rounding JPY half up to whole yen', () => {
    const fixed = (
      adjustmentType: PricingPolicy['adjustmentType'],
      value: PricingPolicy['adjustmentValue'],
    ) =>
      ({
        __typename: 'SellingPlanFixedPricingPolicy',
        adjustmentType,
        adjustmentValue: value,
      }) as PricingPolicy
    expect(cyclePrice(1990, fixed('PERCENTAGE', percentage(25)), 'JPY')).toBe(1493) // 1492.5
    expect(cyclePrice(1999, fixed('PERCENTAGE', percentage(15)), 'JPY')).toBe(1699) // 1699.15
    expect(cyclePrice(1980, fixed('PERCENTAGE', percentage(10)), 'JPY')).toBe(1782)
    // Exactly half a yen, which floating point puts just below (1990 × 0.95 = 1890.4999…).
    expect(cyclePrice(1990, fixed('PERCENTAGE', percentage(5)), 'JPY')).toBe(1891)
    expect(cyclePrice(999, fixed('PERCENTAGE', percentage(50)), 'JPY')).toBe(500)
    expect(cyclePrice(12.34, fixed('PERCENTAGE', percentage(12.5)), 'USD')).toBe(10.8) // 10.7975
    expect(cyclePrice(1980, fixed('FIXED_AMOUNT', yen(300)), 'JPY')).toBe(1680)
    expect(cyclePrice(200, fixed('FIXED_AMOUNT', yen(300)), 'JPY')).toBe(0)
    expect(cyclePrice(1980, fixed('PRICE', yen(1500)), 'JPY')).toBe(1500)
    expect(cyclePrice(19.99, fixed('PERCENTAGE', percentage(15)), 'USD')).toBe(16.99) // 16.9915
    expect(roundMoney(1492.5, 'JPY')).toBe(1493)
    expect(roundMoney(16.9915, 'USD')).toBe(16.99)
  })

  it('splits a fixed amount exactly, caps each line at its total and skips used-up and shipping discounts', () => {
    const line = (id: number, currentPrice: number, quantity = 1) =>
      ({ id, currentPrice, quantity }) as ContractLineRecord
    const lines = [line(1, 1000), line(2, 1000), line(3, 1000)]
    const split = allocateDiscounts(
      lines,
      [discount(9, { value: { amount: 500, appliesOnEachItem: false } })],
      'JPY',
    )
    expect([1, 2, 3].map((id) => split.get(id)!.map((a) => a.amount))).toEqual([[167], [167], [166]])

    const mixed = allocateDiscounts(
      [line(1, 1200, 2), line(2, 300)],
      [
        discount(1, { value: { percentage: 50 } }),
        discount(2, { value: { amount: 400, appliesOnEachItem: true } }),
        discount(3, { targetType: 'SHIPPING_LINE', value: { percentage: 100 } }),
        discount(4, { recurringCycleLimit: 2, usageCount: 2 }),
      ],
      'JPY',
    )
    // Line 1: 2,400 → 50% is 1,200, then 400 × 2. Line 2: 300 → 150, then only the 150 left.
    expect(mixed.get(1)!.map((a) => [a.discount.id, a.amount])).toEqual([
      [1, 1200],
      [2, 800],
    ])
    expect(mixed.get(2)!.map((a) => [a.discount.id, a.amount])).toEqual([
      [1, 150],
      [2, 150],
    ])
  })
})

describe('contract lines, delivery methods and payment methods', () => {
  let emulator: Emulator
  const shop = (): ShopState => emulator.store.shop(SHOP)!
  const gidOf = (c: ContractRecord) => toGid('SubscriptionContract', c.id)
  const linesOf = async (c: ContractRecord): Promise<Line[]> =>
    (await gql(emulator, CONTRACT_LINES, { id: gidOf(c) })).subscriptionContract.lines.nodes

  beforeAll(async () => {
    emulator = await smallEmulator()
  })
  afterAll(() => emulator.close())

  it("gives lines made from a plan with pricing policies the variant's price and the plan's policies", async () => {
    const s = shop()
    const plans = new Map(s.sellingPlanGroups.flatMap((g) => g.sellingPlans.map((p) => [p.id, p])))
    let withPolicy = 0
    let without = 0
    for (const c of s.contracts.slice(0, 25)) {
      const served = await linesOf(c)
      for (const [i, record] of c.lines.entries()) {
        const line = served[i]!
        const plan = plans.get(record.sellingPlanId!)!
        if (plan.pricingPolicies.length === 0) {
          expect(line.pricingPolicy).toBeNull()
          without++
          continue
        }
        withPolicy++
        const variant = s.variants.find((v) => v.id === record.variantId)!
        expect(line.pricingPolicy!.basePrice).toEqual({ amount: `${variant.price}.0`, currencyCode: 'JPY' })
        const expected = plan.pricingPolicies
          .map((p) => {
            const v = p.adjustmentValue
            const price =
              v.__typename === 'SellingPlanPricingPolicyPercentageValue'
                ? halfUpPercentOff(variant.price, v.percentage)
                : p.adjustmentType === 'PRICE'
                  ? Number(v.amount)
                  : variant.price - Number(v.amount)
            return {
              adjustmentType: p.adjustmentType,
              adjustmentValue: v,
              afterCycle: p.afterCycle ?? 0,
              computedPrice: { amount: `${price}.0`, currencyCode: 'JPY' },
            }
          })
          .sort((a, b) => a.afterCycle - b.afterCycle)
        expect(line.pricingPolicy!.cycleDiscounts).toEqual(expected)
        // The generator charges the price of the latest cycle the policy reaches.
        expect(line.currentPrice).toEqual(expected.at(-1)!.computedPrice)
      }
    }
    expect(withPolicy).toBeGreaterThan(0)
    expect(without).toBeGreaterThan(0)
  })

  it('serves a hand-made PRICE and FIXED_AMOUNT policy, and null without one', async () => {
    const c = shop().contracts[3]!
    c.lines = c.lines.map((l, i) =>
      i === 0
        ? {
            ...l,
            pricingPolicy: {
              basePrice: 2480,
              cycleDiscounts: [
                {
                  __typename: 'SellingPlanRecurringPricingPolicy',
                  afterCycle: 3,
                  adjustmentType: 'PRICE',
                  adjustmentValue: yen(1800),
                },
                {
                  __typename: 'SellingPlanFixedPricingPolicy',
                  adjustmentType: 'FIXED_AMOUNT',
                  adjustmentValue: yen(480),
                },
              ],
            },
          }
        : { ...l, pricingPolicy: null },
    )
    const [first, ...rest] = await linesOf(c)
    expect(first!.pricingPolicy).toEqual({
      basePrice: { amount: '2480.0', currencyCode: 'JPY' },
      cycleDiscounts: [
        {
          adjustmentType: 'FIXED_AMOUNT',
          adjustmentValue: yen(480),
          afterCycle: 0,
          computedPrice: { amount: '2000.0', currencyCode: 'JPY' },
        },
        {
          adjustmentType: 'PRICE',
          adjustmentValue: yen(1800),
          afterCycle: 3,
          computedPrice: { amount: '1800.0', currencyCode: 'JPY' },
        },
      ],
    })
    for (const l of rest) expect(l.pricingPolicy).toBeNull()
  })

  it("allocates the contract's manual discounts to its lines, none without discounts", async () => {
    const s = shop()
    const plain = s.contracts.find((c) => !c.discounts?.length)!
    for (const l of await linesOf(plain)) expect(l.discountAllocations).toEqual([])

    const c = s.contracts[5]!
    const base = c.lines[0]!
    c.lines = [
      { ...base, currentPrice: 1782, quantity: 2 },
      { ...base, id: nextId(s, 'SubscriptionLine'), currentPrice: 990, quantity: 1 },
    ]
    c.discounts = [
      discount(newId(s, 'SubscriptionManualDiscount'), { title: '10%オフ', value: { percentage: 10 } }),
      discount(newId(s, 'SubscriptionManualDiscount'), {
        title: '500円引き',
        value: { amount: 500, appliesOnEachItem: false },
      }),
      discount(newId(s, 'SubscriptionManualDiscount'), { title: '送料無料', targetType: 'SHIPPING_LINE' }),
    ]
    const [pct, fixed] = c.discounts.map((d) => toGid('SubscriptionManualDiscount', d.id))
    const lines = await linesOf(c)
    const amounts = lines.map((l) => l.discountAllocations.map((a) => [a.discount.id, a.amount.amount]))
    // 3,564 and 990: 10% is 356 (356.4) and 99; 500 then splits over what is left, 3,208 and 891.
    expect(amounts).toEqual([
      [
        [pct, '356.0'],
        [fixed, '391.0'],
      ],
      [
        [pct, '99.0'],
        [fixed, '109.0'],
      ],
    ])
    expect(lines[0]!.discountAllocations[0]!.discount).toEqual({
      __typename: 'SubscriptionManualDiscount',
      id: pct,
      title: '10%オフ',
    })
  })

  it('allocates a code applied on a draft to its lines, a manual discount once committed', async () => {
    const c = shop().contracts.find(
      (x) => x.status === 'ACTIVE' && !x.discounts?.length && x.lines.length === 1,
    )!
    const line = c.lines[0]!
    const draft = (await gql(emulator, m.contractUpdate, { contractId: gidOf(c) })).subscriptionContractUpdate
      .draft
    await gql(emulator, m.draftDiscountCodeApply, { draftId: draft.id, redeemCode: 'WELCOME10' })
    const expected = `${Math.round((line.currentPrice * line.quantity) / 10)}.0`
    const onDraft = (await gql(emulator, DRAFT_ALLOCATIONS, { id: draft.id })).subscriptionDraft.lines.nodes
    expect(onDraft[0].discountAllocations).toEqual([
      {
        amount: { amount: expected },
        discount: { __typename: 'SubscriptionAppliedCodeDiscount', redeemCode: 'WELCOME10' },
      },
    ])
    // The contract itself has no discount until the commit.
    expect((await linesOf(c))[0]!.discountAllocations).toEqual([])
    await gql(emulator, m.draftCommit, { draftId: draft.id })
    const committed = (await linesOf(c))[0]!.discountAllocations
    expect(committed).toEqual([
      {
        amount: { amount: expected, currencyCode: 'JPY' },
        discount: { __typename: 'SubscriptionManualDiscount', id: expect.any(String), title: 'WELCOME10' },
      },
    ])
  })

  it('serves pickup and local delivery methods from records', async () => {
    const [pickup, local] = shop().contracts.slice(10, 12) as [ContractRecord, ContractRecord]
    pickup.deliveryMethod = {
      __typename: 'SubscriptionDeliveryMethodPickup',
      pickupOption: {
        title: '店頭受け取り',
        presentmentTitle: '店頭受け取り',
        description: null,
        code: 'pickup-shibuya',
        location: { id: 71_000_000_001, name: '渋谷店' },
      },
    }
    local.deliveryMethod = {
      __typename: 'SubscriptionDeliveryMethodLocalDelivery',
      address: {
        address1: '神南1-1-1',
        address2: null,
        city: '渋谷区',
        company: null,
        country: 'Japan',
        countryCode: 'JP',
        firstName: '花子',
        lastName: '山田',
        name: '山田 花子',
        phone: '+819012345678',
        province: '東京都',
        provinceCode: 'JP-13',
        zip: '150-0041',
      },
      localDeliveryOption: {
        title: 'ローカル配達',
        presentmentTitle: 'ローカル配達',
        description: null,
        code: 'local',
        phone: '+819012345678',
        instructions: '午前中に',
      },
    }
    const served = async (c: ContractRecord) =>
      (await gql(emulator, DELIVERY_METHOD, { id: gidOf(c) })).subscriptionContract.deliveryMethod
    expect(await served(pickup)).toEqual({
      __typename: 'SubscriptionDeliveryMethodPickup',
      pickupOption: {
        title: '店頭受け取り',
        presentmentTitle: '店頭受け取り',
        code: 'pickup-shibuya',
        location: { id: 'gid://shopify/Location/71000000001', name: '渋谷店' },
      },
    })
    expect(await served(local)).toEqual({
      __typename: 'SubscriptionDeliveryMethodLocalDelivery',
      address: {
        address1: '神南1-1-1',
        city: '渋谷区',
        province: '東京都',
        zip: '150-0041',
        countryCode: 'JP',
        firstName: '花子',
        lastName: '山田',
        phone: '+819012345678',
      },
      localDeliveryOption: { title: 'ローカル配達', phone: '+819012345678', instructions: '午前中に' },
    })

    // A draft moves a locally delivered contract to shipping: the address carries over.
    const draft = (await gql(emulator, m.contractUpdate, { contractId: gidOf(local) }))
      .subscriptionContractUpdate.draft
    const updated = await gql(emulator, m.draftUpdate, {
      draftId: draft.id,
      input: { deliveryMethod: { shipping: { address: { zip: '150-0042' } } } },
    })
    expect(updated.subscriptionDraftUpdate.userErrors).toEqual([])
    expect(updated.subscriptionDraftUpdate.draft.deliveryMethod).toMatchObject({
      __typename: 'SubscriptionDeliveryMethodShipping',
      address: { address1: '神南1-1-1', zip: '150-0042', lastName: '山田' },
    })
  })

  it("lists a customer's payment methods, revoked ones only when asked, page by page", async () => {
    const s = shop()
    const own = s.paymentMethods[0]!
    const customer = toGid('Customer', own.customerId)
    const add = (revokedAt: number | null) => {
      const pm = { ...own, id: nextId(s, 'CustomerPaymentMethod'), revokedAt, revokedReason: null }
      s.paymentMethods.push(pm)
      return pm
    }
    const second = add(null)
    const revoked = add(Date.parse('2025-05-01T00:00:00Z'))
    const page = async (vars: Record<string, unknown>) =>
      (await gql(emulator, PAYMENT_METHODS, { id: customer, first: 10, ...vars })).customer.paymentMethods

    const active = await page({})
    const mine = s.paymentMethods.filter((p) => p.customerId === own.customerId)
    expect(mine.length).toBe(3)
    expect(active.nodes.map((n: { id: string }) => n.id)).toEqual(
      [own, second].map((p) => toGid('CustomerPaymentMethod', p.id)),
    )
    expect(active.nodes[0]).toEqual({
      id: toGid('CustomerPaymentMethod', own.id),
      revokedAt: null,
      instrument:
        own.instrument.__typename === 'CustomerCreditCard'
          ? { __typename: 'CustomerCreditCard', lastDigits: own.instrument.lastDigits }
          : { __typename: own.instrument.__typename },
    })
    const all = await page({ showRevoked: true })
    expect(all.nodes.map((n: { id: string }) => n.id)).toContain(toGid('CustomerPaymentMethod', revoked.id))
    expect(all.nodes.at(-1).revokedAt).toBe('2025-05-01T00:00:00Z')

    const first = await page({ first: 1 })
    expect(first.pageInfo.hasNextPage).toBe(true)
    const next = await page({ first: 1, after: first.pageInfo.endCursor })
    expect(next.nodes.map((n: { id: string }) => n.id)).toEqual([toGid('CustomerPaymentMethod', second.id)])
    expect(next.pageInfo.hasNextPage).toBe(false)

    // Another customer sees only their own.
    const other = s.customers.find((c) => c.id !== own.customerId)!
    const theirs = await gql(emulator, PAYMENT_METHODS, { id: toGid('Customer', other.id), first: 10 })
    expect(theirs.customer.paymentMethods.nodes.map((n: { id: string }) => n.id)).toEqual(
      s.paymentMethods
        .filter((p) => p.customerId === other.id && p.revokedAt === null)
        .map((p) => toGid('CustomerPaymentMethod', p.id)),
    )
    expect(theirs.customer.paymentMethods.nodes.length).toBeGreaterThan(0)
  })
})

describe('state saved before pricing policies existed', () => {
  it('loads, and its lines have no pricing policy', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emulator-old-state-'))
    try {
      const first = await smallEmulator({ dataDir: dir })
      const contract = first.store.shop(SHOP)!.contracts.find((c) => c.lines.some((l) => l.pricingPolicy))!
      await first.close()
      const path = join(dir, STATE_FILE)
      const saved = JSON.parse(readFileSync(path, 'utf8'))
      let stripped = 0
      for (const s of saved.shops)
        for (const c of s.full.contracts)
          for (const l of c.lines) {
            if ('pricingPolicy' in l) stripped++
            delete l.pricingPolicy
          }
      expect(stripped).toBeGreaterThan(0)
      writeFileSync(path, JSON.stringify(saved))

      const again = await smallEmulator({ dataDir: dir })
      try {
        const data = await again.graphql(SHOP, {
          query: CONTRACT_LINES,
          variables: { id: toGid('SubscriptionContract', contract.id) },
        })
        expect(data.errors).toBeUndefined()
        const lines = (data.data as { subscriptionContract: { lines: { nodes: Line[] } } })
          .subscriptionContract.lines.nodes
        expect(lines.length).toBe(contract.lines.length)
        for (const l of lines) expect(l.pricingPolicy).toBeNull()
      } finally {
        await again.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
