import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { BillingEngine } from '../billing/engine.ts'
import type { Db } from '../db/pool.ts'
import type { PacedShopClients } from '../platform/shop-clients.ts'
import type { LaneOptions } from './request-context.ts'

// The app as route files see it. Routes import this module, never app.ts: app.ts imports
// every route file, so a route importing it back would make a cycle.

export type PlatformOptions = {
  adminOrigin: (shop: string) => string
  apiKey?: string
  appUrl?: string
  /** HTTP client for platform calls made by request handlers (tests count calls with it). */
  fetch?: typeof fetch
  /** Retry knobs of the Admin clients request handlers use (tests shorten them). */
  clientRetry?: { maxRetries?: number; retryBaseMs?: number }
  /** Merchant lane of the shared Admin clients: deadline, queue bound, clock (request-context.ts). */
  lanes?: LaneOptions
}

export type AppInstance = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>

declare module 'fastify' {
  interface FastifyInstance {
    db: Db
    platformOptions: PlatformOptions
    /** The billing engine (issue 5): outcomes of billing attempts, dunning, order now. */
    billingEngine: BillingEngine
    /** The app's one paced Admin client per shop (platform/shop-clients.ts), shared by every part of it. */
    shopClients: PacedShopClients
    /** Every route registered, in order (auth matrix, fuzzer and OpenAPI checks read it). */
    routeList: RouteEntry[]
  }
}

/**
 * One method of one registered route, as Fastify matched it (`url` is the pattern, e.g. `/a/:id`),
 * with the schemas it validates and answers with (the route table test compares them with the contract's).
 */
export type RouteEntry = {
  method: string
  url: string
  config: Record<string, unknown>
  schema: Record<string, unknown> | undefined
}
