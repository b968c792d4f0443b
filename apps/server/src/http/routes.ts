import type { IncomingMessage, ServerResponse } from 'node:http'
import { ZErrorResponse } from '@teiki/contract'
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifySchema,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteOptions,
  RouteShorthandOptions,
} from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { AppInstance } from './app-instance.ts'

// How route files register their routes: each file's routes share their OpenAPI tags, every
// route has a summary (the OpenAPI document and the spec's screens name it), and the errors a
// route answers are ZErrorResponse bodies. `api.get(url, summary, schema, handler, extras)`
// stands for `app.get(url, { ...extras, schema: { tags, summary, ...schema } }, handler)`, with
// the handler typed from the schema as Fastify types it.

type Handler<S extends FastifySchema> = RouteHandlerMethod<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  RouteGenericInterface,
  ContextConfigDefault,
  S,
  ZodTypeProvider,
  FastifyBaseLogger
>

/** A route's options besides its schema: its guards (http/get-write-guard.ts), config, limits. */
export type RouteExtras = Omit<RouteShorthandOptions, 'schema'>

type Register = <const S extends FastifySchema>(
  url: string,
  summary: string,
  schema: S,
  handler: Handler<S>,
  extras?: RouteExtras,
) => void

export type ApiRoutes = { get: Register; post: Register; put: Register; delete: Register }

/** The registrar of a route file's routes, all under `tags`. */
export function apiRoutes(app: AppInstance, tags: readonly string[]): ApiRoutes {
  const register =
    (method: RouteOptions['method']): Register =>
    <const S extends FastifySchema>(
      url: string,
      summary: string,
      schema: S,
      handler: Handler<S>,
      extras: RouteExtras = {},
    ) => {
      const options = { ...extras, method, url, schema: { tags, summary, ...schema }, handler }
      app.route<RouteGenericInterface, ContextConfigDefault, S>(options)
    }
  return { get: register('GET'), post: register('POST'), put: register('PUT'), delete: register('DELETE') }
}

/** The error answers of a route's `response`: a ZErrorResponse body for each status. */
export function errorAnswers<const S extends number>(...statuses: S[]): Record<S, typeof ZErrorResponse> {
  return Object.fromEntries(statuses.map((status) => [status, ZErrorResponse])) as Record<
    S,
    typeof ZErrorResponse
  >
}
