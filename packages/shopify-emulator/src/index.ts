export { attachResolvers, type Resolver, type ResolverMap } from './attach-resolvers.ts'
export { type MintOptions, mintSessionToken, verifySessionToken } from './auth/session-token.ts'
export { TOKEN_EXCHANGE_PATH } from './auth/token-exchange.ts'
export { type BillingDelay, billingDelaySampler } from './billing-delay.ts'
export { type Connection, type ConnectionArgs, connection } from './connection.ts'
export type { Context } from './context.ts'
export { queryCost } from './cost.ts'
export {
  DEMO_BOX_CODE,
  DEMO_DOMAIN,
  DEMO_MULTI_CODE,
  type GenerateShopOptions,
  generateShop,
} from './demo-data.ts'
export type { CallLogEntry, CostExtension, GraphqlRequest, GraphqlResponse } from './execute.ts'
export { BILLING_ERROR_MESSAGES, type FaultSettings, Faults, NO_FAULTS } from './faults.ts'
export { formatDateTime, formatDecimal } from './format.ts'
export { idOf, parseGid, toGid } from './gid.ts'
export { API_VERSION, GRAPHQL_PATH } from './http.ts'
export { planBucket } from './plans.ts'
export type * from './records.ts'
export type * from './records-extra.ts'
export { createSchema, schemaPath } from './schema.ts'
export { compileSearch, type SearchSpec } from './search-query.ts'
export {
  createEmulator,
  DEFAULT_API_KEY,
  DEFAULT_API_SECRET,
  DEFAULT_SHOPS,
  type Emulator,
  type EmulatorOptions,
  type ShopSpec,
} from './server.ts'
export { findById, nextId, Store } from './store.ts'
export type { Delivery, DeliveryStatus } from './webhooks/dispatcher.ts'
export { signWebhook } from './webhooks/sign.ts'
export { topicFromEnum, topicToEnum, WEBHOOK_TOPICS, type WebhookTopic } from './webhooks/topics.ts'
