import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  Kind,
  parse,
  type SelectionSetNode,
  valueFromASTUntyped,
} from 'graphql'

/**
 * A Shopify Function's input, built as the platform builds it: the function's input query
 * (`src/run.graphql`) is run against the cart, so the function receives exactly the fields the
 * query names, under the query's aliases, and nothing else (shopify.dev, "Input and output").
 * The graph it runs on is made of plain values and of functions of a field's arguments, each
 * evaluated only when the query asks for its field. A field the emulated graph lacks fails the
 * run, as a query the platform's input schema refuses fails `shopify app deploy`.
 */

/** One object of the input graph: a field's value, or a function of the field's arguments. */
export type InputSource = {
  __typename?: string
  [field: string]: unknown
}

export class FunctionInputError extends Error {}

const parsed = new Map<string, DocumentNode>()
function documentOf(query: string): DocumentNode {
  let doc = parsed.get(query)
  if (!doc) {
    doc = parse(query)
    parsed.set(query, doc)
  }
  return doc
}

type Walk = { fragments: Map<string, FragmentDefinitionNode>; variables: Record<string, unknown> }

function fieldValue(source: InputSource, field: FieldNode, walk: Walk, path: string): unknown {
  const name = field.name.value
  if (name === '__typename') return source.__typename ?? null
  if (!(name in source)) throw new FunctionInputError(`the emulated input has no field ${path}`)
  const raw = source[name]
  if (typeof raw !== 'function') return raw
  const args = Object.fromEntries(
    (field.arguments ?? []).map((a) => [a.name.value, valueFromASTUntyped(a.value, walk.variables)]),
  )
  return (raw as (args: Record<string, unknown>) => unknown)(args)
}

function resolveValue(value: unknown, set: SelectionSetNode | undefined, walk: Walk, path: string): unknown {
  if (value === null || value === undefined) return null
  if (Array.isArray(value)) return value.map((v, i) => resolveValue(v, set, walk, `${path}[${i}]`))
  if (!set) return value
  return resolveSet(value as InputSource, set, walk, path)
}

function resolveSet(
  source: InputSource,
  set: SelectionSetNode,
  walk: Walk,
  path: string,
  out: Record<string, unknown> = {},
): Record<string, unknown> {
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value
      const here = `${path}.${selection.name.value}`
      out[key] = resolveValue(fieldValue(source, selection, walk, here), selection.selectionSet, walk, here)
      continue
    }
    const fragment =
      selection.kind === Kind.INLINE_FRAGMENT ? selection : walk.fragments.get(selection.name.value)
    if (!fragment) throw new FunctionInputError(`unknown fragment in ${path}`)
    const on = fragment.typeCondition?.name.value
    if (on === undefined || on === source.__typename)
      resolveSet(source, fragment.selectionSet, walk, path, out)
  }
  return out
}

/** The input `query` names, read from `root` (the query's `$variables` from `variables`). */
export function functionInput(
  query: string,
  root: InputSource,
  variables: Record<string, unknown> = {},
): Record<string, unknown> {
  const doc = documentOf(query)
  const operation = doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION)
  if (!operation) throw new FunctionInputError('the input query has no operation')
  const fragments = new Map(
    doc.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  )
  return resolveSet(root, operation.selectionSet, { fragments, variables }, 'Input')
}
