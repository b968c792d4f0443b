import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { validateAgainstRealSchema } from '../../../packages/shopify-emulator/test/support/conformance.ts'
import { subscriptionContractsBulkQuery } from '../src/platform/operations/subscription-contracts-bulk-query.ts'
import {
  CONTRACTS_PER_PART,
  contractPartCount,
  MAX_CONTRACT_PARTS,
  splitIdRange,
} from '../src/sync/bulk-contracts.ts'

// The first sync's contracts export in parts by id (ADR 0032): the parts must cover every id of
// the shop's range exactly once, or a contract would be missing from (or read twice into) the mirror.

describe('contract export parts', () => {
  it('cover the id range exactly once, in order, with no empty part', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 40 }),
        fc.integer({ min: 0, max: 2 ** 32 }),
        fc.integer({ min: 1, max: 12 }),
        (from, width, parts) => {
          const range = { from, to: from + width }
          const split = splitIdRange(range, parts)
          expect(split.length).toBe(Math.min(parts, width + 1))
          expect(split[0]!.from).toBe(range.from)
          expect(split.at(-1)!.to).toBe(range.to)
          for (const [i, part] of split.entries()) {
            expect(part.to).toBeGreaterThanOrEqual(part.from)
            if (i > 0) expect(part.from).toBe(split[i - 1]!.to + 1)
          }
        },
      ),
    )
  })

  it('are sized by the shop: one export for a small shop, at most eight', () => {
    expect(contractPartCount(0)).toBe(1)
    expect(contractPartCount(240)).toBe(1)
    expect(contractPartCount(CONTRACTS_PER_PART * 1.4)).toBe(1)
    expect(contractPartCount(85_000)).toBe(4)
    expect(contractPartCount(10_000_000)).toBe(MAX_CONTRACT_PARTS)
    expect(contractPartCount(240, 60)).toBe(4)
  })

  it('ask the platform for an id range in its search syntax, valid against the 2025-04 schema', () => {
    const query = subscriptionContractsBulkQuery({ from: 5_100_000_000_001, to: 5_100_000_050_000 })
    expect(query).toContain('subscriptionContracts(query: "id:>=5100000000001 id:<=5100000050000") {')
    expect(validateAgainstRealSchema(query)).toEqual([])
    expect(subscriptionContractsBulkQuery()).not.toContain('query:')
    expect(() => subscriptionContractsBulkQuery({ from: 1.5, to: 2 })).toThrow()
  })
})
