import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  type AppAdminRoutes,
  appAdminRoutes,
  type RouteKey,
  routeTarget,
  ZErrorResponse,
} from '@teiki/contract'
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyReply,
  onRequestHookHandler,
  onSendHookHandler,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { z } from 'zod'
import type { AppInstance } from './app-instance.ts'

// A route file registers a contract route from the table (packages/contract/src/routes): its
// method, path and schemas are the ones the web app's client is typed by, so the two cannot
// drift. The route file adds what only the server knows: the OpenAPI words, the error answers,
// its config and its handler.

type Spec<K extends RouteKey> = AppAdminRoutes[K]

type Answers<S> = (S extends { status: infer C extends number; answer: infer A }
  ? Record<C, A>
  : S extends { answer: infer A }
    ? { 200: A }
    : never) &
  (S extends { alternative: { status: infer C extends number; answer: infer A } } ? Record<C, A> : unknown)

/** The Fastify schema of one table entry, with the exact types Fastify's zod provider reads. */
export type TableSchema<S> = (S extends { params: infer P } ? { params: P } : unknown) &
  (S extends { query: infer Q } ? { querystring: Q } : unknown) &
  (S extends { body: infer B } ? { body: B } : unknown) & { response: Answers<S> }

export type RouteDocs = {
  tags: string[]
  summary?: string
  description?: string
  /** The error answers this route can give (`{ 404: ZErrorResponse, … }`), documented in OpenAPI. */
  errors?: Record<number, z.ZodType>
}

/**
 * Method, URL and schema of the table's route `key`, to spread into `app.route({ …, handler })`.
 */
export function tableRoute<K extends RouteKey>(
  key: K,
  docs: RouteDocs,
): { method: string; url: string; schema: TableSchema<Spec<K>> & Omit<RouteDocs, 'errors'> } {
  const spec: { [F in 'params' | 'query' | 'body' | 'answer' | 'status' | 'alternative']?: unknown } =
    appAdminRoutes[key]
  const { errors, ...words } = docs
  const response: Record<number, unknown> = { [Number(spec.status ?? 200)]: spec.answer, ...errors }
  const alternative = spec.alternative as { status: number; answer: unknown } | undefined
  if (alternative) response[alternative.status] = alternative.answer
  const schema = {
    ...words,
    ...(spec.params ? { params: spec.params } : {}),
    ...(spec.query ? { querystring: spec.query } : {}),
    ...(spec.body ? { body: spec.body } : {}),
    response,
  }
  // The object is built from the same entry `TableSchema` describes; TypeScript cannot follow
  // the spreads through the key's union, so it is told.
  return { ...routeTarget(key), schema: schema as TableSchema<Spec<K>> & Omit<RouteDocs, 'errors'> }
}

/** The statuses a route answers with an error body (`{ error: { code, message } }`). */
export type ErrorStatuses = readonly number[]

/** The handler of the table's route `key`, its request and answer typed by the entry's schemas. */
export type TableHandler<K extends RouteKey> = RouteHandlerMethod<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  RouteGenericInterface,
  ContextConfigDefault,
  TableSchema<Spec<K>>,
  ZodTypeProvider,
  FastifyBaseLogger
>

export type TableRouteOptions<K extends RouteKey> = {
  /** The error answers of this route; without it, the file's. */
  errors?: ErrorStatuses
  handler: TableHandler<K>
  /** Route hooks and options (`stateChangingGet`'s, for a GET that writes). */
  exposeHeadRoute?: boolean
  onRequest?: onRequestHookHandler
  onSend?: onSendHookHandler
}

/**
 * A route file's registrar: `route(key, summary, { handler })` registers the table's route `key`
 * under the file's OpenAPI tags, with its error answers (the file's, or the route's own), and
 * answers with the table's success status (201, 202, 204: the handler returns the answer, or
 * nothing for 204). A handler that sends its reply itself (a file, another status) returns the reply.
 */
export function tableRoutes(app: AppInstance, file: { tags: string[]; errors?: ErrorStatuses }) {
  return function route<K extends RouteKey>(key: K, summary: string, options: TableRouteOptions<K>): void {
    const { errors = file.errors ?? [], handler, ...hooks } = options
    const docs = { tags: file.tags, summary, errors: errorAnswers(errors) }
    const status: number | undefined = (appAdminRoutes[key] as { status?: number }).status
    app.route({
      ...tableRoute(key, docs),
      ...hooks,
      handler: status === undefined ? handler : withStatus(status, handler),
      // The handler is typed by the entry's schemas; TypeScript cannot follow them through `K`.
    } as unknown as Parameters<AppInstance['route']>[0])
  }
}

/** What `tableRoutes` gives a route file, for the helpers it hands its routes to. */
export type TableRouter = ReturnType<typeof tableRoutes>

function errorAnswers(statuses: ErrorStatuses): Record<number, z.ZodType> {
  return Object.fromEntries(statuses.map((status) => [status, ZErrorResponse]))
}

/** The handler answering with the table's status: its answer, or no content for a 204. */
function withStatus<K extends RouteKey>(status: number, handler: TableHandler<K>): TableHandler<K> {
  return async function (this: unknown, request, typedReply) {
    const answer: unknown = await handler.call(this as never, request, typedReply)
    const reply = typedReply as FastifyReply
    if (answer === reply) return reply
    reply.code(status)
    return status === 204 ? reply.send(null) : answer
  } as TableHandler<K>
}
