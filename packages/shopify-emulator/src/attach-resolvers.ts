import {
  defaultFieldResolver,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  isObjectType,
} from 'graphql'
import type { Context } from './context.ts'
import { formatDateTime, formatDecimal, moneyBag, moneyV2 } from './format.ts'
import { toGid } from './gid.ts'

// biome-ignore lint/suspicious/noExplicitAny: resolvers receive arbitrary records and args
export type Resolver = GraphQLFieldResolver<any, Context, any>
export type ResolverMap = Record<string, Record<string, Resolver>>

/**
 * Records keep compact values (numbers for ids, times and money); this turns them into the
 * platform's wire format after the field's own resolver, so most fields need no resolver at all.
 */
const formatters: Record<string, (value: unknown, ctx: Context) => unknown> = {
  DateTime: (v) => (typeof v === 'number' ? formatDateTime(v) : v),
  Decimal: (v) => (typeof v === 'number' ? formatDecimal(v) : v),
  Money: (v) => (typeof v === 'number' ? formatDecimal(v) : v),
  UnsignedInt64: (v) => (typeof v === 'number' ? String(v) : v),
  MoneyV2: (v, ctx) => (typeof v === 'number' ? moneyV2(v, ctx.shop.info.currencyCode) : v),
  MoneyBag: (v, ctx) => (typeof v === 'number' ? moneyBag(v, ctx.shop.info.currencyCode) : v),
}

/** Sets `field.resolve` from `{ Type: { field: fn } }`; abstract types resolve by `__typename`. */
export function attachResolvers(schema: GraphQLSchema, map: ResolverMap): GraphQLSchema {
  for (const [typeName, fields] of Object.entries(map)) {
    const type = schema.getType(typeName)
    if (!isObjectType(type)) throw new Error(`resolver map names ${typeName}, not an object type`)
    for (const name of Object.keys(fields)) {
      if (!type.getFields()[name])
        throw new Error(`resolver map names ${typeName}.${name}, not in the schema`)
    }
  }
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue
    if (isAbstractType(type)) type.resolveType = (value: { __typename?: string }) => value.__typename
    if (!isObjectType(type)) continue
    for (const field of Object.values(type.getFields())) {
      const own = map[type.name]?.[field.name]
      const typeName = getNamedType(field.type).name
      const format = formatters[typeName]
      const isNumericId = field.name === 'id' && typeName === 'ID'
      if (!own && !format && !isNumericId) continue
      const read: Resolver = own ?? ((source) => source[field.name])
      field.resolve = (source, args, ctx, info) => {
        const value = read(source, args, ctx, info)
        if (isNumericId && typeof value === 'number') return toGid(type.name, value)
        return format ? format(value, ctx) : value
      }
    }
  }
  const mutation = schema.getMutationType()
  if (mutation) wireMutationFailures(mutation)
  return schema
}

/**
 * `faults.failMutation`, for every root Mutation field at once: a failing call answers a marked
 * payload without running the field's resolver (so nothing changes), and each field of a marked
 * payload reads null except `userErrors`, which holds the injected error.
 */
function wireMutationFailures(mutation: GraphQLObjectType): void {
  const failed = new WeakSet<object>()
  const wrapped = new Set<string>()
  for (const field of Object.values(mutation.getFields())) {
    const payload = getNamedType(field.type)
    if (!isObjectType(payload) || !payload.getFields().userErrors) continue
    const run = field.resolve ?? defaultFieldResolver
    field.resolve = (source, args, ctx: Context, info) => {
      const error = ctx.runtime.faults.takeMutationFailure(field.name)
      if (!error) return run(source, args, ctx, info)
      const answer = { userErrors: [error] }
      failed.add(answer)
      return answer
    }
    // Several mutations may share a payload type; its fields are wrapped once.
    if (wrapped.has(payload.name)) continue
    wrapped.add(payload.name)
    for (const f of Object.values(payload.getFields())) {
      const read = f.resolve ?? defaultFieldResolver
      f.resolve = (source, args, ctx, info) => {
        if (!failed.has(source)) return read(source, args, ctx, info)
        return f.name === 'userErrors' ? source.userErrors : null
      }
    }
  }
}
