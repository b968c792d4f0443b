import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  getArgumentValues,
  getNamedType,
  getNullableType,
  isCompositeType,
  isLeafType,
  isListType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  typeFromAST,
} from 'graphql'

/*
 * The platform's calculated query cost, as shopify.dev documents it ("GraphQL Admin API rate
 * limits", Cost calculation):
 *   "Every field in the schema has an integer cost value assigned to it. The cost of a query is
 *    the maximum of possible fields selected." — Scalar 0, Enum 0, Object 1, Interface and
 *    Union: maximum of possible selections, Connection: sized by first and last arguments,
 *    Mutation 10.
 *   "Shopify calculates the cost of a query both before and after query execution. The
 *    requested cost is based on the number of fields requested. The actual cost is based on the
 *    results returned, since the query can end early due to an object type field returning
 *    null, or connection fields can return fewer edges than requested." (call limit page)
 *   "Before execution can begin, the app's bucket must have enough room for the requested cost
 *    of the query; then, once execution is complete, the bucket is refunded the difference
 *    between the requested cost and the actual cost of the query."
 * (Shopify Engineering's write-up of the same model says a connection costs two points plus the
 * number of objects it returns.)
 *
 * So here:
 * - a connection costs 2 + first (or last) × the per-item cost when requested, 2 + the sum over
 *   the items returned when actual;
 * - a plain list of objects (`nodes(ids:)`, `customAttributes`, `cycleDiscounts`) is priced per
 *   item like a connection: requested, per item the list argument asks for (the ids of
 *   `nodes(ids:)`; a list no argument sizes counts as one item, the least it can hold); actual,
 *   per item returned. A batched read of 50 attempts is 50 objects, not one;
 * - an object is 1 plus its selection; one that came back null costs its 1 and nothing below;
 * - inline fragments on several types are all counted when requested (an upper bound of the
 *   documented "maximum of possible selections"), and only the returned object's when actual;
 * - each mutation root field 10.
 * The actual cost is not capped by the requested one: where a list no argument sizes returns
 * more than one item, the bucket is charged the difference after the call (execute.ts), so the
 * emulator never prices a read below what its answer holds.
 */
export const MUTATION_COST = 10

type Walk = {
  schema: GraphQLSchema
  fragments: Map<string, FragmentDefinitionNode>
  variables: Record<string, unknown>
  /** Pricing the answer (actual cost) rather than the request. */
  actual: boolean
}
/** The object a selection set was resolved on (actual), or undefined (requested). */
type Data = Record<string, unknown> | undefined

/** Fields of a selection set, with fragments flattened (inline fragments on other types included). */
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

const asData = (value: unknown): Data =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined

function argumentsOf(walk: Walk, node: FieldNode, def: GraphQLField<unknown, unknown>) {
  try {
    return getArgumentValues(def, node, walk.variables)
  } catch {
    // invalid arguments fail in execution with a proper error; price them as absent
    return {} as Record<string, unknown>
  }
}

function fieldCost(walk: Walk, node: FieldNode, parent: GraphQLCompositeType, data: Data): number {
  const name = node.name.value
  if (name.startsWith('__')) return 0
  const def = fieldDef(parent, name)
  if (!def) return 0
  const type = getNamedType(def.type)
  if (isLeafType(type) || !node.selectionSet || !isCompositeType(type)) return 0
  const key = node.alias?.value ?? name
  // Actual: a field the answer lacks was selected on another type than the object returned.
  if (walk.actual && (data === undefined || !(key in data))) return 0
  const value = walk.actual ? data?.[key] : undefined
  if (isConnection(type)) return 2 + connectionItemsCost(walk, { node, def, type, value })
  if (isListType(getNullableType(def.type))) return listCost(walk, { node, def, type, value })
  if (walk.actual && asData(value) === undefined) return 1
  return 1 + selectionCost(walk, node.selectionSet, type, asData(value))
}

/** One object of a list or connection: 1 plus its selection (null: its 1 only). */
function itemCost(
  walk: Walk,
  set: SelectionSetNode,
  type: GraphQLCompositeType,
  item: unknown,
  base: number,
) {
  if (walk.actual && asData(item) === undefined) return base
  return base + selectionCost(walk, set, type, asData(item))
}

/** A field of objects (a list or a connection): its node, definition, item type and answered value. */
type ObjectsField = {
  node: FieldNode
  def: GraphQLField<unknown, unknown>
  type: GraphQLCompositeType
  value: unknown
}

/** A plain list of objects: per item asked (a list argument's length, else 1), or per item returned. */
function listCost(walk: Walk, { node, def, type, value }: ObjectsField): number {
  const set = node.selectionSet!
  if (walk.actual) {
    if (!Array.isArray(value)) return value === null || value === undefined ? 0 : 1
    let sum = 0
    for (const item of value) sum += itemCost(walk, set, type, item, 1)
    return sum
  }
  const sizes = Object.values(argumentsOf(walk, node, def))
    .filter(Array.isArray)
    .map((a) => a.length)
  const size = sizes.length > 0 ? Math.max(...sizes) : 1
  return size * itemCost(walk, set, type, undefined, 1)
}

function connectionItemsCost(walk: Walk, { node, def, type, value }: ObjectsField): number {
  let size = 0
  if (!walk.actual) {
    const args = argumentsOf(walk, node, def)
    size = Number(args.first ?? args.last ?? 0)
  }
  let best = 0
  for (const { node: sub, parent } of fieldsOf(walk, node.selectionSet!, type)) {
    const subDef = fieldDef(parent, sub.name.value)
    if (!subDef || !sub.selectionSet) continue
    const itemType = getNamedType(subDef.type)
    if (!isCompositeType(itemType)) continue
    // `nodes` items are objects (1 each); `edges` are free wrappers whose `node` costs 1.
    const base = sub.name.value === 'nodes' ? 1 : sub.name.value === 'edges' ? 0 : -1
    if (base < 0) continue
    if (!walk.actual) {
      best = Math.max(best, size * itemCost(walk, sub.selectionSet, itemType, undefined, base))
    } else {
      const items = asData(value)?.[sub.alias?.value ?? sub.name.value]
      let sum = 0
      for (const item of Array.isArray(items) ? items : [])
        sum += itemCost(walk, sub.selectionSet, itemType, item, base)
      best = Math.max(best, sum)
    }
  }
  return best
}

/**
 * Cost of `operation`. Without `data` it is the requested cost; with the response data it is the
 * actual cost (lists and connections counted by what they returned). An answer without data
 * (an error at the root) costs what was requested.
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
  const root = schema.getRootType(operation.operation)
  if (!root) return 0
  const actual = data !== undefined && data !== null
  const walk: Walk = { schema, fragments, variables, actual }
  if (operation.operation === 'mutation') {
    let n = 0
    for (const _ of fieldsOf(walk, operation.selectionSet, root)) n++
    return n * MUTATION_COST
  }
  return selectionCost(walk, operation.selectionSet, root, actual ? data : undefined)
}
