import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Emulator } from '../src/server.ts'
import { gql, SHOP, smallEmulator } from './support/harness.ts'
import * as m from './support/mutations.ts'

// The platform runs a bulk export on its own machines: while one runs, the API answers and a
// finished file downloads (the first sync writes one part while the platform exports the
// next). The emulator generates the file in its own event loop, so it must give the loop a
// turn between pages, or a 100k-contract export held every other caller for its whole run.

const contractsOfRange = (from: number, to: number) => `{
  subscriptionContracts(query: "id:>=${from} id:<=${to}") {
    edges { node { id lines { edges { node { id } } } orders { edges { node { id } } } } }
  }
}`

describe('a bulk export running on the platform', () => {
  let emulator: Emulator
  const shop = () => emulator.store.shop(SHOP)!

  beforeAll(async () => {
    emulator = await smallEmulator({ shops: [{ domain: SHOP, contracts: 5_000 }], bulkDelayMs: 20 })
    await emulator.listen(0)
  })
  afterAll(() => emulator.close())

  async function start(query: string): Promise<string> {
    const run = await gql(emulator, m.bulkOperationRunQuery, { query })
    expect(run.bulkOperationRunQuery.userErrors).toEqual([])
    return run.bulkOperationRunQuery.bulkOperation.id
  }
  const operation = async (id: string) => (await gql(emulator, m.bulkOperationNode, { id })).node

  it('lets a finished file download, and answers, while the next export runs', async () => {
    const ids = shop()
      .contracts.map((c) => c.id)
      .sort((a, b) => a - b)
    const first = await start(contractsOfRange(ids[0]!, ids[99]!))
    await emulator.idle()
    const done = await operation(first)
    expect(done.status).toBe('COMPLETED')

    const next = await start(contractsOfRange(ids[100]!, ids.at(-1)!))
    // Past bulkDelayMs: the export of 4,900 contracts (20 pages) has begun.
    await new Promise((resolve) => setTimeout(resolve, 60))
    const text = await (await fetch(done.url)).text()
    expect(text.split('\n').filter(Boolean).length).toBe(Number(done.objectCount))
    expect((await operation(next)).status).toBe('RUNNING')

    await emulator.idle()
    const finished = await operation(next)
    expect(finished.status).toBe('COMPLETED')
    expect(Number(finished.rootObjectCount)).toBe(ids.length - 100)
  })

  it('sorts contracts by id, lowest or highest first, as the first sync asks to split its export', async () => {
    const ids = shop().contracts.map((c) => c.id)
    const data = await gql(
      emulator,
      `{ lowest: subscriptionContracts(first: 1, sortKey: ID) { nodes { id } }
         highest: subscriptionContracts(first: 1, sortKey: ID, reverse: true) { nodes { id } } }`,
    )
    expect(data.lowest.nodes[0].id).toBe(`gid://shopify/SubscriptionContract/${Math.min(...ids)}`)
    expect(data.highest.nodes[0].id).toBe(`gid://shopify/SubscriptionContract/${Math.max(...ids)}`)
  })
})
