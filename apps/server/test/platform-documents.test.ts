import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createSchema, queryCost } from '@teiki/shopify-emulator'
import {
  type FragmentDefinitionNode,
  Kind,
  type OperationDefinitionNode,
  parse,
  print,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from 'graphql'
import { describe, expect, it } from 'vitest'
import {
  realSchema,
  validateAgainstRealSchema,
} from '../../../packages/shopify-emulator/test/support/conformance.ts'
import { CUSTOMERS_BULK_QUERY } from '../src/platform/operations/customers-bulk-query.ts'
import { SUBSCRIPTION_CONTRACT_DETAIL } from '../src/platform/operations/subscription-contract-detail.ts'
import { SUBSCRIPTION_CONTRACTS_BULK_QUERY } from '../src/platform/operations/subscription-contracts-bulk-query.ts'
import { SUBSCRIPTION_CONTRACTS_PAGE } from '../src/platform/operations/subscription-contracts-page.ts'
import { SYNC_PAGE_SIZES } from '../src/sync/full-sync.ts'

// Every GraphQL document the app sends is checked against the real 2025-04 schema, wherever
// in src/ it is written. The source text of every file is searched for operations
// (`query Name(`, `mutation Name {` inside a template literal); each must be an exported
// string constant of its module, so it is validated here: a document kept in a local constant,
// or written inline in a call, fails the test instead of escaping it. Documents are one per
// file, in platform/operations/, named after the operation. Shared selections are named
// fragments in platform/operations/*-fragments.ts; a document is validated as it is sent, its
// fragment definitions included, so one it spreads without them or carries unused fails.

const SRC = fileURLToPath(new URL('../src/', import.meta.url))
const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  )
const rel = (file: string) => relative(SRC, file).replaceAll('\\', '/')

/** Operations written in template literals of `text`, by name. */
function writtenOperations(text: string): string[] {
  const names: string[] = []
  for (const literal of text.matchAll(/`([^`]*)`/g)) {
    for (const m of literal[1]!.matchAll(/\b(?:query|mutation|subscription)\s+([A-Za-z_]\w*)\s*[({]/g)) {
      names.push(m[1]!)
    }
  }
  return names
}

/** Every fragment the app defines (the string constants of the *-fragments.ts modules), by name. */
const OPERATIONS = join(SRC, 'platform/operations')
const fragmentTexts = new Map<string, string>()
for (const file of readdirSync(OPERATIONS).filter((f) => f.endsWith('-fragments.ts'))) {
  const module = (await import(pathToFileURL(join(OPERATIONS, file)).href)) as Record<string, unknown>
  for (const value of Object.values(module)) {
    if (typeof value !== 'string' || !/^\s*fragment\b/.test(value)) continue
    const definition = parse(value).definitions[0] as FragmentDefinitionNode
    fragmentTexts.set(definition.name.value, value)
  }
}

/** The names of the fragments a document defines. */
const definedFragments = (document: string): string[] =>
  parse(document)
    .definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
    .map((d) => d.name.value)

const operationNames = (document: string): string[] =>
  parse(document)
    .definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition')
    .map((d) => d.name?.value ?? '(anonymous)')

const written: Array<{ file: string; operation: string }> = []
const documents: Array<[string, string]> = []
const documentFiles = new Map<string, string[]>()
for (const file of sourceFiles(SRC)) {
  const operations = writtenOperations(readFileSync(file, 'utf8'))
  if (operations.length === 0) continue
  for (const operation of operations) written.push({ file: rel(file), operation })
  const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>
  for (const [name, value] of Object.entries(module)) {
    if (typeof value !== 'string' || !/^\s*(query|mutation)\b/.test(value)) continue
    documents.push([`${rel(file)}:${name}`, value])
    documentFiles.set(rel(file), [...(documentFiles.get(rel(file)) ?? []), value])
  }
}

describe('GraphQL documents the app sends', () => {
  it('are found wherever they are written', () => {
    expect(documents.length).toBeGreaterThanOrEqual(30)
    expect(written.length).toBe(documents.length)
    // The search sees a document in any file and any form of template literal.
    expect(writtenOperations('const a = 1\nrun(`\n  mutation Hidden($id: ID!) { x }`)')).toEqual(['Hidden'])
    expect(writtenOperations('// the query Name( in a comment, and a string "query X {"')).toEqual([])
  })

  it('each one written in src/ is exported by its module, so it is validated below', () => {
    for (const { file, operation } of written) {
      const exported = (documentFiles.get(file) ?? []).flatMap(operationNames)
      expect(exported, `${file}: ${operation}`).toContain(operation)
    }
  })

  it('are one per file, in platform/operations/', () => {
    for (const [file, docs] of documentFiles) {
      expect(file, file).toMatch(/^platform\/operations\/[a-z0-9-]+\.ts$/)
      expect(docs, file).toHaveLength(1)
      expect(operationNames(docs[0]!), file).toHaveLength(1)
    }
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
      const [, document] = documents.find(([name]) => name.startsWith(`platform/operations/${file}.ts:`))!
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

describe('fragments in the documents the app sends', () => {
  const sent = documents.map(([, document]) => document)

  it('the contract page carries each fragment it uses, transitively, once, and their fields reach the text', () => {
    const defined = definedFragments(SUBSCRIPTION_CONTRACTS_PAGE)
    expect(defined).toContain('ContractWithFirstLines')
    // Spread inside ContractWithFirstLines and the fragments it spreads, not in the query itself.
    for (const nested of [
      'ContractFields',
      'ContractCoreFields',
      'LineFields',
      'MoneyFields',
      'AnchorFields',
    ])
      expect(defined).toContain(nested)
    expect(new Set(defined).size).toBe(defined.length)
    const definitions = parse(SUBSCRIPTION_CONTRACTS_PAGE).definitions
    for (const name of defined) {
      expect(SUBSCRIPTION_CONTRACTS_PAGE.split(`fragment ${name} on `).length - 1, name).toBe(1)
      const sentDefinition = definitions.find(
        (d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === name,
      )!
      expect(print(sentDefinition), name).toBe(print(parse(fragmentTexts.get(name)!).definitions[0]!))
    }
    // The fields behind `...ContractWithFirstLines`, two fragments down, are in what is sent.
    expect(SUBSCRIPTION_CONTRACTS_PAGE).toMatch(
      /fragment ContractCoreFields on SubscriptionContract \{[^}]*nextBillingDate/,
    )
  })

  it('every fragment the app defines is sent by some document', () => {
    const used = new Set(sent.flatMap(definedFragments))
    expect([...fragmentTexts.keys()].filter((name) => !used.has(name))).toEqual([])
  })

  it('a document missing a fragment it spreads, or carrying one it does not, is rejected (the check bites)', () => {
    const parsed = parse(SUBSCRIPTION_CONTRACTS_PAGE)
    const missing = print({
      ...parsed,
      definitions: parsed.definitions.filter(
        (d) => !(d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === 'ContractCoreFields'),
      ),
    })
    expect(validateAgainstRealSchema(missing).join('\n')).toMatch(/Unknown fragment "ContractCoreFields"/)
    const extra = `${SUBSCRIPTION_CONTRACTS_PAGE}\n${fragmentTexts.get('CustomerFields')}`
    expect(validateAgainstRealSchema(extra).join('\n')).toMatch(/Fragment "CustomerFields" is never used/)
  })

  it('the bulk queries are sent with their fragments expanded in place', () => {
    for (const bulk of [CUSTOMERS_BULK_QUERY, SUBSCRIPTION_CONTRACTS_BULK_QUERY]) {
      expect(definedFragments(bulk)).toEqual([])
      expect(bulk).not.toMatch(/\.\.\.\s*(?!on\b)[A-Za-z_]/)
    }
    expect(CUSTOMERS_BULK_QUERY).toMatch(/node \{\s+id\s+firstName/)
    expect(SUBSCRIPTION_CONTRACTS_BULK_QUERY).toMatch(/lines \{\s+edges \{\s+node \{\s+id\s+productId/)
  })

  // Expanding a spread in place (the bulk queries) keeps its meaning only where the fragment's
  // type is the type the spread stands on; the app's documents keep to that.
  it.each(documents)('%s spreads each fragment on its own type', (_name, document) => {
    const schema = realSchema()
    const parsed = parse(document)
    const conditions = new Map(
      parsed.definitions
        .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
        .map((d) => [d.name.value, d.typeCondition.name.value]),
    )
    const info = new TypeInfo(schema)
    const misplaced: string[] = []
    visit(
      parsed,
      visitWithTypeInfo(info, {
        FragmentSpread(spread) {
          const on = info.getParentType()?.name
          if (on !== conditions.get(spread.name.value)) misplaced.push(`${spread.name.value} on ${on}`)
        },
      }),
    )
    expect(misplaced).toEqual([])
  })

  it('the contract detail shares the mirror contract core and the instrument, address and line fragments', () => {
    expect(definedFragments(SUBSCRIPTION_CONTRACT_DETAIL).sort()).toEqual(
      [
        'AnchorFields',
        'ContractCoreFields',
        'DeliveryAddressFields',
        'DetailLineFields',
        'LineFields',
        'LinePricingPolicyFields',
        'MoneyFields',
        'OrderSummaryFields',
        'PaymentInstrumentFields',
        'PricingValue',
      ].sort(),
    )
  })
})
