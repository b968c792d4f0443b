import { parse, validate } from 'graphql'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, type Emulator } from '../src/index.ts'
import { realSchema } from './support/conformance.ts'

// The spec's section 7 queries that the foundation's documents do not already cover.
const DOMAIN = 'spec-queries.myshopify.com'
let emulator: Emulator

beforeAll(async () => {
  emulator = await createEmulator({
    shops: [{ domain: DOMAIN, contracts: 30 }],
    now: new Date('2026-11-22T00:00:00Z'),
    throttle: false,
  })
})
afterAll(() => emulator.close())

// biome-ignore lint/suspicious/noExplicitAny: answers are read by path in the assertions; their shape is the query's, validated against the real schema in run()
type Answer = Record<string, any>

async function run(query: string, variables: Record<string, unknown> = {}) {
  expect(validate(realSchema(), parse(query))).toEqual([])
  const res = await emulator.graphql(DOMAIN, { query, variables })
  expect(res.errors).toBeUndefined()
  return res.data as Answer
}

describe('spec section 7 queries', () => {
  it('finds customers with their contracts (customer search with contracts)', async () => {
    const shop = emulator.store.shop(DOMAIN)!
    const contract = shop.contracts[0]!
    const customer = shop.customers.find((c) => c.id === contract.customerId)!
    const data = await run(
      `query CustomerWithContracts($query: String) {
        customers(first: 10, query: $query) {
          nodes { id displayName subscriptionContracts(first: 10) { nodes { id status } } }
        }
      }`,
      { query: `email:${customer.email}` },
    )
    const found = data.customers.nodes[0]
    expect(found.displayName).toBe(customer.displayName)
    const expected = shop.contracts
      .filter((c) => c.customerId === customer.id)
      .map((c) => `gid://shopify/SubscriptionContract/${c.id}`)
    expect(found.subscriptionContracts.nodes.map((n: { id: string }) => n.id).sort()).toEqual(expected.sort())
  })

  it('answers the first published product', async () => {
    const data = await run(
      `{ products(first: 1, query: "published_status:published") { nodes { id title status } } }`,
    )
    expect(data.products.nodes).toHaveLength(1)
    expect(data.products.nodes[0].status).toBe('ACTIVE')
  })

  it("pages a selling plan group's variants", async () => {
    const groups = await run(
      `{ sellingPlanGroups(first: 1) { nodes { id productVariantsCount { count } } } }`,
    )
    const group = groups.sellingPlanGroups.nodes[0]
    const seen: string[] = []
    let after: string | null = null
    for (;;) {
      const page: Answer = await run(
        `query GroupVariants($id: ID!, $after: String) {
          sellingPlanGroup(id: $id) { productVariants(first: 2, after: $after) { nodes { id } pageInfo { hasNextPage endCursor } } }
        }`,
        { id: group.id, after },
      )
      const variants = page.sellingPlanGroup.productVariants
      seen.push(...variants.nodes.map((n: { id: string }) => n.id))
      if (!variants.pageInfo.hasNextPage) break
      after = variants.pageInfo.endCursor
    }
    expect(new Set(seen).size).toBe(seen.length)
    expect(seen.length).toBe(group.productVariantsCount.count)
  })

  it("answers a contract's status and customer name", async () => {
    const contract = emulator.store.shop(DOMAIN)!.contracts[3]!
    const data = await run(
      `query ContractStatus($id: ID!) { subscriptionContract(id: $id) { status customer { displayName } } }`,
      { id: `gid://shopify/SubscriptionContract/${contract.id}` },
    )
    expect(data.subscriptionContract.status).toBe(contract.status)
    expect(data.subscriptionContract.customer.displayName).toMatch(/^\S+ \S+$/)
  })
})
