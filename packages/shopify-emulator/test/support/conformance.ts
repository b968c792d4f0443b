import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import {
  buildSchema,
  type GraphQLNamedType,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isScalarType,
  isUnionType,
  OperationTypeNode,
  parse,
  validate,
} from 'graphql'

/**
 * The real Admin API 2025-04 SDL, read from ../shared (never copied into the repo);
 * `SHOPIFY_ADMIN_SCHEMA` points elsewhere (a checkout whose parent has no shared/, such as a
 * git worktree one level deeper).
 */
export const realSchemaPath =
  process.env.SHOPIFY_ADMIN_SCHEMA ??
  fileURLToPath(
    new URL('../../../../../shared/shopify-admin-schema/shopify-2025-04.graphql', import.meta.url),
  )

let cached: GraphQLSchema | null = null
/** Builds the 3 MB real schema once per test file (it takes a few seconds). */
export function realSchema(): GraphQLSchema {
  cached ??= buildSchema(readFileSync(realSchemaPath, 'utf8'))
  return cached
}

const kindOf = (t: GraphQLNamedType) =>
  isObjectType(t)
    ? 'object'
    : isInterfaceType(t)
      ? 'interface'
      : isUnionType(t)
        ? 'union'
        : isEnumType(t)
          ? 'enum'
          : isInputObjectType(t)
            ? 'input'
            : 'scalar'

/**
 * Every way `subset` departs from `real`: a missing type, field, argument, enum value, input field
 * or union member, or a different type string. Empty means the subset is faithful.
 */
export function compareSchemas(subset: GraphQLSchema, real: GraphQLSchema): string[] {
  const problems: string[] = []
  for (const root of [OperationTypeNode.QUERY, OperationTypeNode.MUTATION]) {
    const mine = subset.getRootType(root)
    if (mine && mine.name !== real.getRootType(root)?.name) problems.push(`${root} root is ${mine.name}`)
  }
  for (const type of Object.values(subset.getTypeMap())) {
    if (type.name.startsWith('__')) continue
    const other = real.getType(type.name)
    if (!other) {
      problems.push(`type ${type.name} is not in the real schema`)
      continue
    }
    if (kindOf(type) !== kindOf(other)) {
      problems.push(`${type.name} is a ${kindOf(type)}, real is a ${kindOf(other)}`)
      continue
    }
    if ((isObjectType(type) || isInterfaceType(type)) && (isObjectType(other) || isInterfaceType(other))) {
      const realFields = other.getFields()
      for (const field of Object.values(type.getFields())) {
        const rf = realFields[field.name]
        if (!rf) {
          problems.push(`${type.name}.${field.name} is not in the real schema`)
          continue
        }
        if (String(field.type) !== String(rf.type)) {
          problems.push(`${type.name}.${field.name} is ${field.type}, real is ${rf.type}`)
        }
        for (const arg of field.args) {
          const ra = rf.args.find((a) => a.name === arg.name)
          if (!ra) problems.push(`${type.name}.${field.name}(${arg.name}) is not in the real schema`)
          else if (String(arg.type) !== String(ra.type)) {
            problems.push(`${type.name}.${field.name}(${arg.name}) is ${arg.type}, real is ${ra.type}`)
          }
        }
      }
      const realInterfaces = new Set(other.getInterfaces().map((i) => i.name))
      for (const i of type.getInterfaces()) {
        if (!realInterfaces.has(i.name))
          problems.push(`${type.name} implements ${i.name}, the real one does not`)
      }
    } else if (isEnumType(type) && isEnumType(other)) {
      const values = new Set(other.getValues().map((v) => v.name))
      for (const v of type.getValues())
        if (!values.has(v.name)) problems.push(`${type.name}.${v.name} is not a real value`)
    } else if (isInputObjectType(type) && isInputObjectType(other)) {
      const realFields = other.getFields()
      for (const f of Object.values(type.getFields())) {
        const rf = realFields[f.name]
        if (!rf) problems.push(`input ${type.name}.${f.name} is not in the real schema`)
        else if (String(f.type) !== String(rf.type))
          problems.push(`input ${type.name}.${f.name} is ${f.type}, real is ${rf.type}`)
      }
    } else if (isUnionType(type) && isUnionType(other)) {
      const members = new Set(other.getTypes().map((t) => t.name))
      for (const t of type.getTypes())
        if (!members.has(t.name)) problems.push(`${t.name} is not a member of ${type.name}`)
    } else if (!isScalarType(type)) {
      problems.push(`${type.name}: unexpected kind`)
    }
  }
  return problems
}

/** graphql-js validation messages of `document` against the real schema; [] means the platform accepts it. */
export function validateAgainstRealSchema(document: string): string[] {
  return validate(realSchema(), parse(document)).map((e) => e.message)
}
