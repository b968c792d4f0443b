export { attachResolvers, type Resolver, type ResolverMap } from './attach-resolvers.ts'
export { type Connection, type ConnectionArgs, connection } from './connection.ts'
export type { Context } from './context.ts'
export { queryCost } from './cost.ts'
export { DEMO_DOMAIN, type GenerateShopOptions, generateShop } from './demo-data.ts'
export type { CallLogEntry, CostExtension, GraphqlRequest, GraphqlResponse } from './execute.ts'
export { formatDateTime, formatDecimal } from './format.ts'
export { idOf, parseGid, toGid } from './gid.ts'
export { API_VERSION, GRAPHQL_PATH } from './http.ts'
export type * from './records.ts'
export { createSchema, schemaPath } from './schema.ts'
export { compileSearch, type SearchSpec } from './search-query.ts'
export {
  createEmulator,
  DEFAULT_SHOPS,
  type Emulator,
  type EmulatorOptions,
  type ShopSpec,
} from './server.ts'
export { findById, nextId, Store } from './store.ts'
