import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatDateTime } from '../src/format.ts'
import { toGid } from '../src/gid.ts'
import type { Emulator } from '../src/server.ts'
import { gql, SHOP, smallEmulator } from './support/harness.ts'
import * as m from './support/mutations.ts'

// Bulk exports with more than one nested connection, as the app's first sync runs them
// (contracts with their lines and orders), and the platform's limits on bulk queries.

const contractsWithLinesAndOrders = `{
  subscriptionContracts {
    edges { node {
      id status
      lines { edges { node { id quantity } } }
      orders { edges { node {
        id name createdAt cancelledAt test
        totalPriceSet { shopMoney { amount currencyCode } }
        customer { id }
      } } }
    } }
  }
}`

type Row = Record<string, unknown> & { id: string; __parentId?: string }

describe('bulk exports with nested connections', () => {
  let emulator: Emulator
  const shop = () => emulator.store.shop(SHOP)!

  beforeAll(async () => {
    emulator = await smallEmulator()
    await emulator.listen(0)
  })
  afterAll(() => emulator.close())

  async function runBulk(query: string) {
    const run = await gql(emulator, m.bulkOperationRunQuery, { query })
    await emulator.idle()
    return run.bulkOperationRunQuery as {
      bulkOperation: { id: string } | null
      userErrors: Array<{ code: string; field: string[]; message: string }>
    }
  }

  it('writes each contract, then its lines and its orders as their own lines carrying __parentId', async () => {
    const cancelled = shop().orders.find((o) => o.contractId !== null)!
    cancelled.cancelledAt = cancelled.createdAt + 86_400_000
    const run = await runBulk(contractsWithLinesAndOrders)
    expect(run.userErrors).toEqual([])
    const op = (await gql(emulator, m.bulkOperationNode, { id: run.bulkOperation!.id })).node
    expect(op.status).toBe('COMPLETED')
    const text = await (await fetch(op.url)).text()
    const rows = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Row)

    const contracts = shop().contracts
    const lineCount = contracts.reduce((n, c) => n + c.lines.length, 0)
    const orderCount = contracts.reduce((n, c) => n + c.orderIds.length, 0)
    expect(orderCount).toBeGreaterThan(contracts.length)
    expect(op.rootObjectCount).toBe(String(contracts.length))
    expect(op.objectCount).toBe(String(contracts.length + lineCount + orderCount))
    expect(rows).toHaveLength(contracts.length + lineCount + orderCount)

    // Walk the file: a root line, then exactly that contract's lines and orders.
    let i = 0
    for (const c of contracts) {
      const gid = toGid('SubscriptionContract', c.id)
      const root = rows[i++]!
      expect(root).toEqual({ id: gid, status: c.status })
      const children: Row[] = []
      while (i < rows.length && rows[i]!.__parentId !== undefined) children.push(rows[i++]!)
      expect(children.every((r) => r.__parentId === gid)).toBe(true)
      expect(children.filter((r) => r.id.includes('/SubscriptionLine/')).map((r) => r.id)).toEqual(
        c.lines.map((l) => toGid('SubscriptionLine', l.id)),
      )
      expect(children.filter((r) => r.id.includes('/Order/')).map((r) => r.id)).toEqual(
        c.orderIds.map((id) => toGid('Order', id)),
      )
      expect(children).toHaveLength(c.lines.length + c.orderIds.length)
    }

    const order = rows.find((r) => r.id === toGid('Order', cancelled.id))!
    expect(order).toEqual({
      id: toGid('Order', cancelled.id),
      name: `#${cancelled.number}`,
      createdAt: formatDateTime(cancelled.createdAt),
      cancelledAt: formatDateTime(cancelled.cancelledAt!),
      test: cancelled.test,
      totalPriceSet: { shopMoney: { amount: expect.any(String), currencyCode: 'JPY' } },
      customer: { id: toGid('Customer', cancelled.customerId!) },
      __parentId: toGid('SubscriptionContract', cancelled.contractId!),
    })
    const money = order.totalPriceSet as { shopMoney: { amount: string } }
    expect(Number(money.shopMoney.amount)).toBe(cancelled.totalPriceSet)
  })

  it('refuses queries beyond the platform limits: five connections, two levels, parent ids', async () => {
    const refused = async (query: string) => {
      const run = await runBulk(query)
      expect(run.bulkOperation).toBeNull()
      expect(run.userErrors.length).toBeGreaterThan(0)
      for (const e of run.userErrors) expect(e).toMatchObject({ code: 'INVALID', field: ['query'] })
      return run.userErrors.map((e) => e.message).join('\n')
    }
    const lines = (alias: string) => `${alias}: lines { edges { node { id } } }`
    const sixConnections = `{ subscriptionContracts { edges { node { id ${['a', 'b', 'c', 'd', 'e'].map(lines).join(' ')} } } } }`
    expect(await refused(sixConnections)).toMatch(/more than 5 connections/)
    const fiveConnections = `{ subscriptionContracts { edges { node { id ${['a', 'b', 'c', 'd'].map(lines).join(' ')} } } } }`
    expect((await runBulk(fiveConnections)).userErrors).toEqual([])

    const threeLevels = `{ subscriptionContracts { edges { node { id
      orders { edges { node { id lineItems { edges { node { id } } } } } } } } } }`
    expect(await refused(threeLevels)).toMatch(/nested more than 2 levels/)

    const noParentId = `{ subscriptionContracts { edges { node { status lines { edges { node { id } } } } } } }`
    expect(await refused(noParentId)).toMatch(/must select the 'id' field.*lines/)
    // An aliased id is not the parent id either; an id reached through a fragment is.
    const aliasedId = `{ subscriptionContracts { edges { node { key: id lines { edges { node { id } } } } } } }`
    expect(await refused(aliasedId)).toMatch(/must select the 'id' field/)
    const viaFragment = `query { subscriptionContracts { edges { node { ...C lines { edges { node { id } } } } } } }
      fragment C on SubscriptionContract { id status }`
    expect((await runBulk(viaFragment)).userErrors).toEqual([])

    expect(await refused('{ shop { name } }')).toMatch(/at least one connection/)
  })
})
