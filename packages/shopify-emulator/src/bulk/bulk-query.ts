import {
  type DocumentNode,
  execute,
  type GraphQLSchema,
  getNamedType,
  isObjectType,
  Kind,
  parse,
  TypeInfo,
  validate,
  visit,
  visitWithTypeInfo,
} from 'graphql'
import { UNBOUNDED } from '../connection.ts'
import type { Context } from '../context.ts'

const isConnectionType = (t: unknown) =>
  isObjectType(t) && t.name.endsWith('Connection') && 'pageInfo' in t.getFields()

/** Connections without `first`/`last` get every item: bulk queries are not paginated by the client. */
function unbound(schema: GraphQLSchema, doc: DocumentNode): DocumentNode {
  const info = new TypeInfo(schema)
  return visit(
    doc,
    visitWithTypeInfo(info, {
      Field(node) {
        const def = info.getFieldDef()
        if (!def || !isConnectionType(getNamedType(def.type))) return undefined
        const args = node.arguments ?? []
        if (args.some((a) => a.name.value === 'first' || a.name.value === 'last')) return undefined
        return {
          ...node,
          arguments: [
            ...args,
            {
              kind: Kind.ARGUMENT,
              name: { kind: Kind.NAME, value: 'first' },
              value: { kind: Kind.INT, value: String(UNBOUNDED) },
            },
          ],
        }
      },
    }),
  )
}

/** Parses and validates a bulk query; the error messages, or the document to run later. */
export function prepareBulkQuery(schema: GraphQLSchema, query: string): DocumentNode | string[] {
  let doc: DocumentNode
  try {
    doc = parse(query)
  } catch (e) {
    return [String((e as Error).message)]
  }
  const errors = validate(schema, doc).map((e) => e.message)
  if (errors.length > 0) return errors
  const op = doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION)
  if (op?.operation !== 'query') return ['Bulk queries must be a query operation']
  const roots = op.selectionSet.selections.filter((s) => s.kind === Kind.FIELD)
  if (roots.length !== 1) return ['Bulk queries must have exactly one top-level field']
  return unbound(schema, doc)
}

export async function runBulkQuery(schema: GraphQLSchema, doc: DocumentNode, ctx: Context) {
  const result = await execute({ schema, document: doc, contextValue: ctx })
  if (result.errors?.length) throw new Error(result.errors.map((e) => e.message).join('; '))
  return (result.data ?? {}) as Record<string, unknown>
}
