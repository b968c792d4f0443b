import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createSchema, queryCost } from '@teiki/shopify-emulator'
import { type OperationDefinitionNode, parse } from 'graphql'
import { describe, expect, it } from 'vitest'
import { validateAgainstRealSchema } from '../../../packages/shopify-emulator/test/support/conformance.ts'
import { SYNC_PAGE_SIZES } from '../src/sync/full-sync.ts'

// Every GraphQL document the app sends is checked against the real 2025-04 schema, wherever
// in src/ it is written. The source text of every file is searched for operations
// (`query Name(`, `mutation Name {` inside a template literal); each must be an exported
// string constant of its module, so it is validated here: a document kept in a local constant,
// or written inline in a call, fails the test instead of escaping it. Documents are one per
// file, in platform/operations/, named after the operation.

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
