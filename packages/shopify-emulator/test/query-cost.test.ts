import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { billingDelaySampler } from '../src/billing-delay.ts'
import { toGid } from '../src/gid.ts'
import { createEmulator, type Emulator } from '../src/server.ts'
import { SHOP } from './support/harness.ts'

const now = new Date('2025-06-01T03:00:00Z')

// How the emulator prices a query (cost.ts quotes the platform's documentation it follows).
describe('query cost', () => {
  let emulator: Emulator
  const shop = () => emulator.store.shop(SHOP)!
  const cost = async (query: string, variables: Record<string, unknown> = {}) => {
    const r = await emulator.graphql(SHOP, { query, variables })
    expect(r.errors).toBeUndefined()
    return { requested: r.extensions.cost.requestedQueryCost, actual: r.extensions.cost.actualQueryCost, r }
  }
  const ATTEMPTS = `query A($ids: [ID!]!) {
    nodes(ids: $ids) { ... on SubscriptionBillingAttempt { id ready order { id } subscriptionContract { id } } }
  }`

  beforeAll(async () => {
    emulator = await createEmulator({ now, throttle: false, shops: [{ domain: SHOP, contracts: 200 }] })
  })
  afterAll(() => emulator.close())

  it('prices nodes(ids:) per id asked and per item returned, not as one item', async () => {
    const attempts = shop().billingAttempts.slice(0, 50)
    expect(attempts).toHaveLength(50)
    const ids = attempts.map((a) => toGid('SubscriptionBillingAttempt', a.id))
    const { requested, actual } = await cost(ATTEMPTS, { ids })
    // Each attempt: itself 1, its order 1 (a failed one's null order: its 1 only), its contract 1.
    expect(requested).toBe(50 * 3)
    expect(actual).toBe(50 * 3)
    // Ids the shop does not know come back null: 1 each (the lookup), nothing below.
    const unknown = [
      toGid('SubscriptionBillingAttempt', 9_999_999_991),
      toGid('SubscriptionBillingAttempt', 9_999_999_992),
    ]
    const few = await cost(ATTEMPTS, { ids: [ids[0], ...unknown] })
    expect(few.requested).toBe(3 * 3)
    expect(few.actual).toBe(3 + 1 + 1)
  })

  it('counts every item of a plain list in the actual cost', async () => {
    const c = shop().contracts.find((x) => x.lines.length >= 2)!
    c.customAttributes = [
      { key: 'お届け予定日', value: '2025-06-10' },
      { key: '配送時間帯', value: '午前中' },
      { key: 'ギフト', value: 'なし' },
    ]
    const query = `query C($id: ID!) { subscriptionContract(id: $id) { id customAttributes { key value } } }`
    const { requested, actual } = await cost(query, { id: toGid('SubscriptionContract', c.id) })
    // The list has no argument that sizes it: asked as one item; answered with three.
    expect(requested).toBe(1 + 1)
    expect(actual).toBe(1 + 3)
  })

  it('charges an object that came back null its own point only', async () => {
    const query = `query C($id: ID!) { subscriptionContract(id: $id) { id customer { id } lines(first: 10) { nodes { id } } } }`
    const { requested, actual } = await cost(query, { id: toGid('SubscriptionContract', 9_999_999_999) })
    expect(requested).toBe(1 + 1 + 2 + 10)
    expect(actual).toBe(1)
  })

  it('takes from the bucket what an answer cost beyond what was asked up front', async () => {
    const throttled = await createEmulator({
      now,
      throttle: { restoreRate: 1, bucketSize: 100 },
      shops: [{ domain: SHOP, contracts: 20 }],
    })
    try {
      const c = throttled.store.shop(SHOP)!.contracts[0]!
      c.customAttributes = Array.from({ length: 6 }, (_, i) => ({ key: `k${i}`, value: 'v' }))
      const r = await throttled.graphql(SHOP, {
        query: `query C($id: ID!) { subscriptionContract(id: $id) { customAttributes { key } } }`,
        variables: { id: toGid('SubscriptionContract', c.id) },
      })
      expect(r.extensions.cost).toMatchObject({ requestedQueryCost: 2, actualQueryCost: 7 })
      expect(r.extensions.cost.throttleStatus.currentlyAvailable).toBeLessThanOrEqual(100 - 7 + 1)
      expect(throttled.callLog.at(-1)).toMatchObject({ requestedCost: 2, actualCost: 7 })
    } finally {
      await throttled.close()
    }
  })
})

describe('billing settlement delay', () => {
  it('draws each attempt a delay within the spread, the same sequence for the same seed', () => {
    const draw = (seed: number) => {
      const next = billingDelaySampler({ minMs: 2_000, maxMs: 12_000, seed }, 1)
      return Array.from({ length: 200 }, () => next())
    }
    const a = draw(7)
    expect(draw(7)).toEqual(a)
    expect(draw(8)).not.toEqual(a)
    for (const ms of a) {
      expect(ms).toBeGreaterThanOrEqual(2_000)
      expect(ms).toBeLessThanOrEqual(12_000)
    }
    // Spread, not one value: both halves of the range are drawn.
    expect(a.some((ms) => ms < 7_000)).toBe(true)
    expect(a.some((ms) => ms > 7_000)).toBe(true)
  })

  it('keeps a fixed delay fixed, 50 ms by default, and refuses an inverted range', () => {
    expect(billingDelaySampler(5, 1)()).toBe(5)
    expect(billingDelaySampler(undefined, 1)()).toBe(50)
    expect(() => billingDelaySampler({ minMs: 10, maxMs: 5 }, 1)).toThrow(/minMs/)
  })

  it('creates attempts not ready under a spread delay', async () => {
    const emulator = await createEmulator({
      now,
      throttle: false,
      shops: [{ domain: SHOP, contracts: 40 }],
      billingDelayMs: { minMs: 60_000, maxMs: 120_000, seed: 3 },
    })
    try {
      const c = emulator.store.shop(SHOP)!.contracts.find((x) => x.status === 'ACTIVE')!
      const r = await emulator.graphql(SHOP, {
        query: `mutation B($id: ID!, $key: String!) {
          subscriptionBillingAttemptCreate(subscriptionContractId: $id, subscriptionBillingAttemptInput: { idempotencyKey: $key }) {
            subscriptionBillingAttempt { id ready } userErrors { message }
          }
        }`,
        variables: { id: toGid('SubscriptionContract', c.id), key: 'delay-1' },
      })
      const created = (
        r.data as { subscriptionBillingAttemptCreate: { subscriptionBillingAttempt: { ready: boolean } } }
      ).subscriptionBillingAttemptCreate.subscriptionBillingAttempt
      expect(created.ready).toBe(false)
      const attempt = emulator.store.shop(SHOP)!.billingAttempts.at(-1)!
      expect(attempt.ready).toBe(false)
    } finally {
      await emulator.close()
    }
  })
})
