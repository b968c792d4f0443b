import type { ShopState } from './records.ts'
import type { Store } from './store.ts'

/** Per-request context: resolvers only ever see the shop the access token belongs to. */
export type Context = { shop: ShopState; store: Store; now: () => number }
