import {
  type DocumentNode,
  type FragmentDefinitionNode,
  Kind,
  parse,
  print,
  type SelectionNode,
  type SelectionSetNode,
  visit,
} from 'graphql'
import * as appSubscription from './app-subscription-fragments.ts'
import * as contract from './contract-fragments.ts'
import * as customer from './customer-fragments.ts'
import * as order from './order-fragments.ts'
import * as sellingPlan from './selling-plan-fragments.ts'
import * as shared from './shared-fragments.ts'

// The selections several documents share are named fragments, each written once in a
// *-fragments.ts module beside this one. A document spreads them by name (`...LineFields`) and
// is exported through withFragments, which appends the definition of every fragment it spreads,
// directly or through another fragment, exactly once: the text sent is then a complete, valid
// GraphQL document, and a document can neither miss a fragment nor carry one it does not use.
// Fragments are found here by name, so the fragment modules import nothing of this one.

/** Every fragment the app defines, by name, with its source text. */
const FRAGMENTS = new Map<string, { text: string; node: FragmentDefinitionNode }>()
for (const module of [appSubscription, contract, customer, order, sellingPlan, shared]) {
  for (const value of Object.values(module as Record<string, unknown>)) {
    if (typeof value !== 'string' || !/^\s*fragment\b/.test(value)) continue
    const definitions = parse(value).definitions
    const node = definitions[0]
    if (definitions.length !== 1 || node?.kind !== Kind.FRAGMENT_DEFINITION)
      throw new Error(`a fragment constant holds one fragment definition: ${value}`)
    if (FRAGMENTS.has(node.name.value)) throw new Error(`fragment ${node.name.value} is defined twice`)
    FRAGMENTS.set(node.name.value, { text: dedented(value), node })
  }
}

/** A fragment's text from its first line, its other lines moved left as far as all of them go (tidier in what is sent). */
function dedented(text: string): string {
  const [first = '', ...rest] = text.trim().split('\n')
  const indent = Math.min(...rest.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length))
  return [first, ...rest.map((l) => l.slice(Number.isFinite(indent) ? indent : 0))].join('\n')
}

function fragmentNamed(name: string) {
  const fragment = FRAGMENTS.get(name)
  if (!fragment) throw new Error(`unknown GraphQL fragment ${name}: define it in a *-fragments.ts module`)
  return fragment
}

/** The names of the fragments spread in `node` itself (not through other fragments). */
function spreadsIn(node: DocumentNode | SelectionSetNode): string[] {
  const names: string[] = []
  visit(node, {
    FragmentSpread(spread) {
      names.push(spread.name.value)
    },
  })
  return names
}

/** The fragments a document spreads, with those they spread in turn, each once, in first-use order. */
function fragmentsUsedBy(document: DocumentNode): string[] {
  const used: string[] = []
  const visitName = (name: string) => {
    if (used.includes(name)) return
    used.push(name)
    for (const next of spreadsIn(fragmentNamed(name).node.selectionSet)) visitName(next)
  }
  for (const name of spreadsIn(document)) visitName(name)
  return used
}

/** Throws for a document that defines fragments of its own: they belong in the fragment modules. */
function assertNoLocalFragments(document: DocumentNode): void {
  const local = document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION)
  if (local)
    throw new Error(`fragment ${local.name.value} is defined in a document: move it to a fragment module`)
}

/** The document with the definitions of the fragments it uses appended, each once. */
export function withFragments(document: string): string {
  const parsed = parse(document)
  assertNoLocalFragments(parsed)
  const definitions = fragmentsUsedBy(parsed).map((name) => fragmentNamed(name).text)
  return `${[document.trimEnd(), ...definitions].join('\n\n')}\n`
}

/** A fragment's selections with the spreads inside them expanded, the same way. */
function expandedSelections(name: string, path: string[]): readonly SelectionNode[] {
  if (path.includes(name)) throw new Error(`fragment cycle: ${[...path, name].join(' → ')}`)
  return expand(fragmentNamed(name).node.selectionSet, [...path, name]).selections
}

function expand(set: SelectionSetNode, path: string[]): SelectionSetNode {
  return visit(set, {
    SelectionSet: {
      leave: (node) => ({
        ...node,
        selections: node.selections.flatMap((s) =>
          s.kind === Kind.FRAGMENT_SPREAD ? expandedSelections(s.name.value, path) : [s],
        ),
      }),
    },
  })
}

/**
 * The document with every fragment spread replaced by the fragment's fields, in place, and no
 * fragment definitions: for the bulk queries. The platform's rules for a bulkOperationRunQuery
 * query (one top-level field, at least one and at most five connections, two levels deep, no
 * top-level node or nodes) say nothing of named fragments, and a bulk query is run by another
 * executor than the one that answers ordinary queries; the app cannot try it before a large
 * shop's first sync depends on it, so it sends the bulk queries in the plain form the platform's
 * guide shows. In place means the fields stand where the spread stood, which keeps the spread's
 * meaning because every spread in the app stands on the fragment's own type (a convention
 * platform-documents.test.ts checks against the real schema).
 */
export function inlineFragments(document: string): string {
  const parsed = parse(document)
  const operations = parsed.definitions.filter((d) => d.kind !== Kind.FRAGMENT_DEFINITION)
  const expanded = operations.map((d) =>
    d.kind === Kind.OPERATION_DEFINITION ? { ...d, selectionSet: expand(d.selectionSet, []) } : d,
  )
  return `${print({ ...parsed, definitions: expanded })}\n`
}
