import { describe, expect, it } from 'vitest'
import { pageSizeOf } from '../src/platform/admin-client.ts'
import { createCostMemory } from '../src/platform/cost-memory.ts'

describe('cost memory: what an operation costs at a page size it has not sent yet', () => {
  it('knows nothing of an operation never answered', () => {
    const costs = createCostMemory()
    expect(costs.estimate('Lines', 60)).toBeUndefined()
    expect(costs.estimate('Shop', undefined)).toBeUndefined()
  })

  it('answers the learnt figures for a size seen, and for an operation without a page size', () => {
    const costs = createCostMemory()
    costs.learn('Lines', 20, 44, 30)
    costs.learn('Shop', undefined, 2, 1)
    expect(costs.estimate('Lines', 20)).toEqual({ requested: 44, actual: 30 })
    expect(costs.estimate('Shop', undefined)).toEqual({ requested: 2, actual: 1 })
  })

  it('takes the smallest larger size as an upper bound, unscaled', () => {
    const costs = createCostMemory()
    costs.learn('Lines', 100, 300, 200)
    costs.learn('Lines', 250, 900, 600)
    expect(costs.estimate('Lines', 60)).toEqual({ requested: 300, actual: 200 })
  })

  it('scales the largest smaller size up by the ratio of sizes (never below the real cost)', () => {
    const costs = createCostMemory()
    costs.learn('Lines', 1, 9, 5)
    costs.learn('Lines', 10, 32, 21)
    // 60 lines of a connection costing 2 + 3 per line: 182 asked, estimated 192 from the 10.
    expect(costs.estimate('Lines', 60)).toEqual({ requested: 192, actual: 126 })
    expect(costs.estimate('Lines', 60)!.requested).toBeGreaterThanOrEqual(2 + 3 * 60)
  })

  it('keeps the last actual cost when an answer reports only what was asked', () => {
    const costs = createCostMemory()
    costs.learn('Lines', 5, 20, 12)
    costs.learn('Lines', 5, 22, undefined)
    expect(costs.estimate('Lines', 5)).toEqual({ requested: 22, actual: 12 })
  })

  it('does not guess a size from an operation learnt only without one', () => {
    const costs = createCostMemory()
    costs.learn('Lines', undefined, 10, 10)
    expect(costs.estimate('Lines', 50)).toBeUndefined()
  })
})

describe('page size of a request', () => {
  it('is its first, else the number of ids it asks for', () => {
    expect(pageSizeOf({ first: 60, ids: ['a'] })).toBe(60)
    expect(pageSizeOf({ ids: ['a', 'b', 'c'] })).toBe(3)
    expect(pageSizeOf({ id: 'a' })).toBeUndefined()
    expect(pageSizeOf(undefined)).toBeUndefined()
  })
})
