import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  getArgumentValues,
  getNamedType,
  isCompositeType,
  isLeafType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  typeFromAST,
} from 'graphql'

/**
 * The platform's calculated query cost: scalars and enums 0, objects 1, connections
 * 2 + size x per-item cost (size is first/last when requested, the returned count when actual),
 * each mutation field 10.
 */
export const MUTATION_COST = 10

type Walk = {
  schema: GraphQLSchema
  fragments: Map<string, FragmentDefinitionNode>
  variables: Record<string, unknown>
}
type Data = Record<string, unknown> | null | undefined

/** Fields of a selection set, with fragments flattened (inline fragments on other types included: an upper bound). */
function* fieldsOf(
  walk: Walk,
  set: SelectionSetNode,
  parent: GraphQLCompositeType,
): Generator<{ node: FieldNode; parent: GraphQLCompositeType }> {
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) yield { node: sel, parent }
    else {
      const frag = sel.kind === Kind.FRAGMENT_SPREAD ? walk.fragments.get(sel.name.value) : sel
      if (!frag) continue
      const cond = frag.typeCondition ? typeFromAST(walk.schema, frag.typeCondition) : parent
      if (cond && isCompositeType(cond)) yield* fieldsOf(walk, frag.selectionSet, cond)
    }
  }
}

function fieldDef(parent: GraphQLCompositeType, name: string): GraphQLField<unknown, unknown> | undefined {
  return 'getFields' in parent ? parent.getFields()[name] : undefined
}

function selectionCost(walk: Walk, set: SelectionSetNode, parent: GraphQLCompositeType, data: Data): number {
  let total = 0
  for (const { node, parent: p } of fieldsOf(walk, set, parent)) total += fieldCost(walk, node, p, data)
  return total
}

const isConnection = (t: unknown): t is GraphQLCompositeType =>
  isObjectType(t) && t.name.endsWith('Connection') && 'pageInfo' in t.getFields()

function fieldCost(walk: Walk, node: FieldNode, parent: GraphQLCompositeType, data: Data): number {
  const name = node.name.value
  if (name.startsWith('__')) return 0
  const def = fieldDef(parent, name)
  if (!def) return 0
  const type = getNamedType(def.type)
  if (isLeafType(type) || !node.selectionSet || !isCompositeType(type)) return 0
  const value = data === undefined ? undefined : (data?.[node.alias?.value ?? name] as unknown)
  if (isConnection(type)) return 2 + connectionItemsCost(walk, node, def, type, value)
  if (Array.isArray(value)) {
    // Plain lists are not multiplied on the platform; count the heaviest item once.
    let max = 0
    for (const item of value) max = Math.max(max, selectionCost(walk, node.selectionSet, type, item as Data))
    return 1 + max
  }
  return 1 + selectionCost(walk, node.selectionSet, type, value === undefined ? undefined : (value as Data))
}

function connectionItemsCost(
  walk: Walk,
  node: FieldNode,
  def: GraphQLField<unknown, unknown>,
  type: GraphQLCompositeType,
  value: unknown,
): number {
  let size = 0
  if (value === undefined) {
    let args: Record<string, unknown> = {}
    try {
      args = getArgumentValues(def, node, walk.variables)
    } catch {
      // invalid arguments fail in execution with a proper error; cost them as empty
    }
    size = Number(args.first ?? args.last ?? 0)
  }
  let best = 0
  for (const { node: sub, parent } of fieldsOf(walk, node.selectionSet!, type)) {
    const subDef = fieldDef(parent, sub.name.value)
    if (!subDef || !sub.selectionSet) continue
    const itemType = getNamedType(subDef.type)
    if (!isCompositeType(itemType)) continue
    const key = sub.alias?.value ?? sub.name.value
    // `nodes` items are objects (1 each); `edges` are free wrappers whose `node` costs 1.
    const base = sub.name.value === 'nodes' ? 1 : sub.name.value === 'edges' ? 0 : -1
    if (base < 0) continue
    if (value === undefined) {
      best = Math.max(best, size * (base + selectionCost(walk, sub.selectionSet, itemType, undefined)))
    } else {
      const items = ((value as Data)?.[key] as Data[] | undefined) ?? []
      let sum = 0
      for (const item of items) sum += base + selectionCost(walk, sub.selectionSet, itemType, item)
      best = Math.max(best, sum)
    }
  }
  return best
}

/**
 * Cost of `operation`. Without `data` it is the requested cost; with the response data it is the
 * actual cost (connections counted by what they returned).
 */
export function queryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
  data?: Record<string, unknown> | null,
): number {
  const fragments = new Map<string, FragmentDefinitionNode>()
  for (const d of document.definitions)
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d)
  const walk: Walk = { schema, fragments, variables }
  const root = schema.getRootType(operation.operation)
  if (!root) return 0
  if (operation.operation === 'mutation') {
    let n = 0
    for (const _ of fieldsOf(walk, operation.selectionSet, root)) n++
    return n * MUTATION_COST
  }
  return selectionCost(walk, operation.selectionSet, root, data === undefined ? undefined : data)
}
