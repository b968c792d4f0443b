/**
 * Prints the emulator's subset of the real Admin API schema to `src/schema.graphql`.
 * Working on the AST (not a built schema) keeps argument defaults and deprecations exactly as
 * the platform wrote them; descriptions are dropped so the committed file stays small.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  type ConstDirectiveNode,
  type DefinitionNode,
  type FieldDefinitionNode,
  type InterfaceTypeDefinitionNode,
  Kind,
  type NamedTypeNode,
  type ObjectTypeDefinitionNode,
  parse,
  print,
  type TypeNode,
} from 'graphql'
import { type SchemaSelection, selection } from './schema-selection.ts'

type TypeDef = Exclude<DefinitionNode, { kind: Kind.SCHEMA_DEFINITION }> & { name: { value: string } }
type FieldedDef = ObjectTypeDefinitionNode | InterfaceTypeDefinitionNode

const builtinScalars = new Set(['String', 'Int', 'Float', 'Boolean', 'ID'])

const namedType = (t: TypeNode): string => (t.kind === Kind.NAMED_TYPE ? t.name.value : namedType(t.type))

// Only @deprecated survives: the other directives (@accessRestricted…) are documentation.
const keepDeprecated = (ds: readonly ConstDirectiveNode[] | undefined) =>
  (ds ?? []).filter((d) => d.name.value === 'deprecated')

export function extractSubset(sdl: string, sel: SchemaSelection): string {
  const doc = parse(sdl, { noLocation: true })
  const defs = new Map<string, TypeDef>()
  for (const d of doc.definitions) if ('name' in d && d.name) defs.set(d.name.value, d as TypeDef)

  const isLeaf = (name: string) => {
    const k = builtinScalars.has(name) ? Kind.SCALAR_TYPE_DEFINITION : defs.get(name)?.kind
    return k === Kind.SCALAR_TYPE_DEFINITION || k === Kind.ENUM_TYPE_DEFINITION
  }
  const kept = new Map<string, Set<string> | 'whole'>()
  const queue: string[] = []
  const include = (name: string) => {
    if (builtinScalars.has(name) || kept.has(name)) return
    const def = defs.get(name)
    if (!def) throw new Error(`type ${name} is not in the real schema`)
    kept.set(name, 'whole')
    queue.push(name)
  }
  const fieldsOf = (def: FieldedDef) => new Map((def.fields ?? []).map((f) => [f.name.value, f]))
  const keepFields = (typeName: string, names: Iterable<string>) => {
    const def = defs.get(typeName) as FieldedDef
    const real = fieldsOf(def)
    let set = kept.get(typeName)
    if (set === 'whole' || set === undefined) {
      set = new Set()
      kept.set(typeName, set)
    }
    for (const n of names) {
      const f = real.get(n)
      if (!f) throw new Error(`${typeName}.${n} is not in the real schema`)
      if (set.has(n)) continue
      set.add(n)
      include(namedType(f.type))
      for (const a of f.arguments ?? []) include(namedType(a.type))
    }
  }
  const defaultFields = (def: FieldedDef): string[] => {
    const chosen = sel.types[def.name.value]
    if (chosen === 'all') return (def.fields ?? []).map((f) => f.name.value)
    if (chosen) return [...chosen]
    // Unlisted types (reached through a union, say) keep scalars without required arguments.
    return (def.fields ?? [])
      .filter((f) => isLeaf(namedType(f.type)))
      .filter((f) => !(f.arguments ?? []).some((a) => a.type.kind === Kind.NON_NULL_TYPE && !a.defaultValue))
      .map((f) => f.name.value)
  }

  kept.set('QueryRoot', new Set())
  keepFields('QueryRoot', sel.query)
  if (sel.mutation.length > 0) {
    kept.set('Mutation', new Set())
    keepFields('Mutation', sel.mutation)
  }
  // Listed types are kept even when only reachable through an interface (MediaImage via Media).
  for (const name of Object.keys(sel.types)) include(name)

  const drain = () => {
    while (queue.length > 0) {
      const name = queue.shift()!
      const def = defs.get(name)!
      if (def.kind === Kind.OBJECT_TYPE_DEFINITION || def.kind === Kind.INTERFACE_TYPE_DEFINITION) {
        keepFields(name, defaultFields(def))
      } else if (def.kind === Kind.UNION_TYPE_DEFINITION) {
        for (const t of def.types ?? []) include(t.name.value)
      } else if (def.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION) {
        for (const f of def.fields ?? []) include(namedType(f.type))
      }
    }
  }
  // Interfaces are fixed points: every kept implementation must carry the interface's kept fields,
  // and adding those may pull in more types, so loop until nothing changes.
  let changed = true
  while (changed) {
    drain()
    changed = false
    for (const [name, set] of kept) {
      const def = defs.get(name)
      if (!def || set === 'whole') continue
      if (def.kind !== Kind.OBJECT_TYPE_DEFINITION && def.kind !== Kind.INTERFACE_TYPE_DEFINITION) continue
      for (const i of def.interfaces ?? []) {
        const iset = kept.get(i.name.value)
        if (!iset || iset === 'whole') continue
        const missing = [...iset].filter((f) => !set.has(f))
        if (missing.length > 0) {
          keepFields(name, missing)
          changed = true
        }
      }
    }
  }

  const hasFields = (name: string) => {
    const s = kept.get(name)
    return s !== undefined && (s === 'whole' || s.size > 0)
  }
  // A union member with no scalar fields (and not listed) cannot be printed; the union shrinks.
  const keptNamed = (ts: readonly NamedTypeNode[] | undefined) =>
    (ts ?? []).filter((t) => kept.has(t.name.value) && hasFields(t.name.value))

  const out: DefinitionNode[] = []
  for (const [name, set] of [...kept].sort(([a], [b]) => a.localeCompare(b))) {
    const def = defs.get(name)!
    if (set !== 'whole' && set.size === 0) continue
    const strip = { description: undefined, directives: [] as ConstDirectiveNode[] }
    const field = (f: FieldDefinitionNode): FieldDefinitionNode => ({
      ...f,
      description: undefined,
      directives: keepDeprecated(f.directives),
      arguments: (f.arguments ?? []).map((a) => ({
        ...a,
        description: undefined,
        directives: keepDeprecated(a.directives),
      })),
    })
    switch (def.kind) {
      case Kind.OBJECT_TYPE_DEFINITION:
      case Kind.INTERFACE_TYPE_DEFINITION: {
        const names = set as Set<string>
        out.push({
          ...def,
          ...strip,
          interfaces: keptNamed(def.interfaces),
          fields: (def.fields ?? []).filter((f) => names.has(f.name.value)).map(field),
        })
        break
      }
      case Kind.UNION_TYPE_DEFINITION: {
        const types = keptNamed(def.types)
        if (types.length === 0) throw new Error(`union ${name} has no kept member; list one in the selection`)
        out.push({ ...def, ...strip, types })
        break
      }
      case Kind.ENUM_TYPE_DEFINITION:
        out.push({
          ...def,
          ...strip,
          values: (def.values ?? []).map((v) => ({
            ...v,
            description: undefined,
            directives: keepDeprecated(v.directives),
          })),
        })
        break
      case Kind.INPUT_OBJECT_TYPE_DEFINITION:
        out.push({
          ...def,
          ...strip,
          fields: (def.fields ?? []).map((f) => ({
            ...f,
            description: undefined,
            directives: keepDeprecated(f.directives),
          })),
        })
        break
      default:
        out.push({ ...def, ...strip } as DefinitionNode)
    }
  }
  const roots = `schema {\n  query: QueryRoot${kept.has('Mutation') ? '\n  mutation: Mutation' : ''}\n}`
  const header = '# GENERATED by scripts/extract-schema.ts from the Admin API 2025-04 SDL. Do not edit.'
  return `${header}\n\n${roots}\n\n${print({ kind: Kind.DOCUMENT, definitions: out })}\n`
}

const here = dirname(fileURLToPath(import.meta.url))
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const realPath = resolve(here, '../../../../shared/shopify-admin-schema/shopify-2025-04.graphql')
  const target = resolve(here, '../src/schema.graphql')
  const text = extractSubset(readFileSync(realPath, 'utf8'), selection)
  writeFileSync(target, text)
  console.log(`wrote ${target} (${text.length} bytes)`)
}
