import { readdirSync } from 'node:fs'
import { createSchema, queryCost } from '@teiki/shopify-emulator'
import { type OperationDefinitionNode, parse } from 'graphql'
import { describe, expect, it } from 'vitest'
import { validateAgainstRealSchema } from '../../../packages/shopify-emulator/test/support/conformance.ts'
import { SYNC_PAGE_SIZES } from '../src/sync/full-sync.ts'

// Every GraphQL document the app sends lives in src/platform/operations, one per file, as an
// exported string constant. They are collected here by reading the folder, so a new
// operation is checked without anyone remembering to list it.
const dir = new URL('../src/platform/operations/', import.meta.url)
const documents: Array<[string, string]> = []
for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
  const module = (await import(new URL(file, dir).href)) as Record<string, unknown>
  for (const [name, value] of Object.entries(module)) {
    if (typeof value === 'string' && /^\s*(query|mutation)\b/.test(value))
      documents.push([`${file}:${name}`, value])
  }
}

describe('GraphQL documents the app sends', () => {
  it('are found', () => {
    expect(documents.length).toBeGreaterThanOrEqual(5)
  })

  it.each(documents)('%s validates against the real 2025-04 Admin schema', (_name, document) => {
    expect(validateAgainstRealSchema(document)).toEqual([])
  })

  it('a deliberately wrong document is rejected (the check bites)', () => {
    const [, contracts] = documents.find(([name]) => name.includes('subscription-contracts-page'))!
    const renamed = contracts.replace('nextBillingDate', 'nextBillingDay')
    expect(validateAgainstRealSchema(renamed).join('\n')).toMatch(/nextBillingDay/)
    const mistyped = contracts.replace('$first: Int!', '$first: String!')
    expect(validateAgainstRealSchema(mistyped).length).toBeGreaterThan(0)
  })

  it.each(Object.entries(SYNC_PAGE_SIZES))(
    'the %s sync page (first: %i) stays under the 1,000-point query cost cap',
    (kind, first) => {
      const file = {
        customers: 'customers-page',
        products: 'products-page',
        sellingPlanGroups: 'selling-plan-groups-page',
        contracts: 'subscription-contracts-page',
      }[kind]!
      const [, document] = documents.find(([name]) => name.startsWith(`${file}.ts`))!
      const parsed = parse(document)
      const operation = parsed.definitions.find(
        (d): d is OperationDefinitionNode => d.kind === 'OperationDefinition',
      )!
      const cost = queryCost(createSchema(), parsed, operation, { first })
      expect(cost).toBeGreaterThan(first)
      expect(cost).toBeLessThanOrEqual(1000)
    },
  )
})
