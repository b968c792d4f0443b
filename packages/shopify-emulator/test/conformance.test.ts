import { readFileSync } from 'node:fs'
import { buildSchema } from 'graphql'
import { describe, expect, it } from 'vitest'
import { extractSubset } from '../scripts/extract-schema.ts'
import { selection } from '../scripts/schema-selection.ts'
import { createSchema, schemaSdl } from '../src/schema.ts'
import { compareSchemas, realSchema, validateAgainstRealSchema } from './support/conformance.ts'
import { mutationDocuments } from './support/mutations.ts'
import { allDocuments } from './support/queries.ts'

describe('emulator schema conforms to the real Admin API 2025-04', () => {
  it('has only real types, fields and arguments, with identical type strings', () => {
    expect(compareSchemas(createSchema(), realSchema())).toEqual([])
  })

  // The committed subset is what scripts/extract-schema.ts makes of the selection: a field
  // added to schema.graphql by hand (it had drifted by 40 fields) fails here.
  it('schema.graphql is the extract of scripts/schema-selection.ts', () => {
    const real = readFileSync(
      new URL('../../../../shared/shopify-admin-schema/shopify-2025-04.graphql', import.meta.url),
      'utf8',
    )
    expect(schemaSdl()).toBe(extractSubset(real, selection))
  })

  it('reports a made-up field, a wrong type, a wrong argument and a fake enum value', () => {
    const broken = schemaSdl()
      .replace(/(type Customer [^{]*\{[^}]*?)displayName: String!/, '$1displayName: Int')
      .replace('customer(id: ID!): Customer', 'customer(id: String!, legacyId: Int): Customer')
      .replace(/enum CountPrecision \{/, 'enum CountPrecision {\n  ROUGHLY')
    const sdl = `${broken}\nextend type Customer { favouriteColour: String }`
    const problems = compareSchemas(buildSchema(sdl), realSchema())
    expect(problems).toEqual(
      expect.arrayContaining([
        'Customer.displayName is Int, real is String!',
        'Customer.favouriteColour is not in the real schema',
        'QueryRoot.customer(id) is String!, real is ID!',
        'QueryRoot.customer(legacyId) is not in the real schema',
        'CountPrecision.ROUGHLY is not a real value',
      ]),
    )
  })

  it.each(Object.entries({ ...allDocuments, ...mutationDocuments }))(
    'the app document %s is valid against the real schema',
    (_name, doc) => {
      expect(validateAgainstRealSchema(doc)).toEqual([])
    },
  )

  it('validateAgainstRealSchema reports unknown fields', () => {
    expect(validateAgainstRealSchema('{ shop { nonsense } }')).toEqual([
      'Cannot query field "nonsense" on type "Shop".',
    ])
  })
})
