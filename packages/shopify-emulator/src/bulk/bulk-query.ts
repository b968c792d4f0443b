import {
  type DocumentNode,
  execute,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  getNamedType,
  isCompositeType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  parse,
  type SelectionSetNode,
  TypeInfo,
  typeFromAST,
  type ValueNode,
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

/** The platform's limits on a bulk query (bulkOperationRunQuery's description in the 2025-04 schema). */
export const BULK_MAX_CONNECTIONS = 5
export const BULK_MAX_CONNECTION_DEPTH = 2

/**
 * The platform's structural rules for bulk queries: at least one connection, at most five, at
 * most two levels of them, and a nested connection's parent node selects `id` (its children's
 * `__parentId`). Fragments are followed. The messages are the emulator's wording.
 */
function connectionRules(schema: GraphQLSchema, doc: DocumentNode, op: OperationDefinitionNode): string[] {
  const fragments = new Map<string, FragmentDefinitionNode>()
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d)
  const errors: string[] = []
  let connections = 0
  let deepest = 0
  const fields = function* (
    set: SelectionSetNode,
    parent: GraphQLCompositeType,
  ): Generator<{ name: string; alias: string | null; set?: SelectionSetNode; parent: GraphQLCompositeType }> {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        yield { name: sel.name.value, alias: sel.alias?.value ?? null, set: sel.selectionSet, parent }
        continue
      }
      const frag = sel.kind === Kind.FRAGMENT_SPREAD ? fragments.get(sel.name.value) : sel
      if (!frag) continue
      const cond = frag.typeCondition ? typeFromAST(schema, frag.typeCondition) : parent
      if (cond && isCompositeType(cond)) yield* fields(frag.selectionSet, cond)
    }
  }
  /** `depth`: connections above this selection; `nodeSelectsId`: the enclosing node selects id. */
  const walk = (
    set: SelectionSetNode,
    parent: GraphQLCompositeType,
    depth: number,
    nodeSelectsId: boolean,
  ) => {
    const list = [...fields(set, parent)]
    const idHere = nodeSelectsId || list.some((f) => f.name === 'id' && f.alias === null)
    for (const f of list) {
      if (!f.set || !('getFields' in f.parent)) continue
      const def = f.parent.getFields()[f.name]
      const type = def && getNamedType(def.type)
      if (!type || !isCompositeType(type)) continue
      if (isConnectionType(type)) {
        connections++
        deepest = Math.max(deepest, depth + 1)
        if (depth > 0 && !idHere) {
          errors.push(
            `The parent 'node' field for a nested connection must select the 'id' field. Connection fields without 'id': ${f.name}.`,
          )
        }
        walk(f.set, type, depth + 1, false)
      } else {
        // The connection's own wrappers (edges, node, nodes) belong to the items below them.
        const item = f.name === 'node' || f.name === 'nodes'
        walk(f.set, type, depth, item ? false : idHere)
      }
    }
  }
  const root = schema.getQueryType()
  if (root) walk(op.selectionSet, root, 0, false)
  if (connections === 0) errors.push('Bulk queries must contain at least one connection.')
  if (connections > BULK_MAX_CONNECTIONS) {
    errors.push(`Bulk queries cannot contain more than ${BULK_MAX_CONNECTIONS} connections.`)
  }
  if (deepest > BULK_MAX_CONNECTION_DEPTH) {
    errors.push(
      `Bulk queries cannot contain connections nested more than ${BULK_MAX_CONNECTION_DEPTH} levels deep.`,
    )
  }
  return errors
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
  const broken = connectionRules(schema, doc, op)
  if (broken.length > 0) return broken
  return unbound(schema, doc)
}

/** Root objects read per page of a bulk run: the whole result is never held at once. */
export const BULK_PAGE_SIZE = 250

/**
 * The query with its root connection paged: `first`/`after` set on the root field and
 * `pageInfo { hasNextPage endCursor }` selected beside what the query asks.
 */
function pagedRoot(doc: DocumentNode, after: string | null): DocumentNode {
  const op = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!
  const root = op.selectionSet.selections.find((s): s is FieldNode => s.kind === Kind.FIELD)!
  const args = (root.arguments ?? []).filter((a) => a.name.value !== 'first' && a.name.value !== 'after')
  const arg = (name: string, value: ValueNode) => ({
    kind: Kind.ARGUMENT as const,
    name: { kind: Kind.NAME as const, value: name },
    value,
  })
  args.push(arg('first', { kind: Kind.INT, value: String(BULK_PAGE_SIZE) }))
  if (after !== null) args.push(arg('after', { kind: Kind.STRING, value: after }))
  const pageInfo = parse('{ __teikiPageInfo: pageInfo { hasNextPage endCursor } }')
    .definitions[0] as OperationDefinitionNode
  const pagedField: FieldNode = {
    ...root,
    arguments: args,
    selectionSet: {
      ...root.selectionSet!,
      selections: [...root.selectionSet!.selections, ...pageInfo.selectionSet.selections],
    },
  }
  const pagedOp: OperationDefinitionNode = {
    ...op,
    selectionSet: {
      ...op.selectionSet,
      selections: op.selectionSet.selections.map((s) => (s === root ? pagedField : s)),
    },
  }
  return { ...doc, definitions: doc.definitions.map((d) => (d === op ? pagedOp : d)) }
}

/**
 * Runs a bulk query a page of root objects at a time (the platform runs it in the background
 * and writes the file as it goes), handing each page's data to `onPage`, so a 100k-contract
 * export never builds its whole result in memory and never holds the emulator's event loop.
 */
export async function runBulkQuery(
  schema: GraphQLSchema,
  doc: DocumentNode,
  ctx: Context,
  onPage: (data: Record<string, unknown>) => void,
): Promise<void> {
  let after: string | null = null
  const exportCtx: Context = { ...ctx, exportMemo: new Map() }
  for (;;) {
    const result = await execute({ schema, document: pagedRoot(doc, after), contextValue: exportCtx })
    if (result.errors?.length) throw new Error(result.errors.map((e) => e.message).join('; '))
    const data = (result.data ?? {}) as Record<string, Record<string, unknown> | null>
    const key = Object.keys(data)[0]!
    const connection = data[key]
    const info = connection?.__teikiPageInfo as { hasNextPage: boolean; endCursor: string | null } | undefined
    if (connection) delete connection.__teikiPageInfo
    onPage(data)
    if (!info?.hasNextPage || !info.endCursor) return
    after = info.endCursor
    // The platform writes the file on its own machines: a finished file is downloaded, and the
    // API answers, while an export runs. Give the event loop a turn between pages.
    await new Promise<void>((resolve) => setImmediate(resolve))
  }
}
