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
import { z } from 'zod'
import type { AppInstance } from './app-instance.ts'

// How route files register their routes: each file's routes share their OpenAPI tags, every
// route has a summary (the OpenAPI document and the spec's screens name it), and the errors a
// route answers are ZErrorResponse bodies. `api.get(url, summary, { ...schema, handler }, extras)`
// stands for `app.get(url, { ...extras, schema: { tags, summary, ...schema } }, handler)`, the
// handler typed from the schema as Fastify types it.

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

/** The parts of a route's schema its handler's types come from. */
type SchemaParts = Pick<FastifySchema, 'querystring' | 'params' | 'body' | 'headers' | 'response'>

/** A route: its schema's parts and its handler (the mapped type lets TypeScript infer S before typing the handler). */
type Route<S extends SchemaParts> = { [K in keyof S]: S[K] } & { handler: Handler<S> }

/** A route's options besides its schema: its guards (http/get-write-guard.ts), config, limits. */
export type RouteExtras = Omit<RouteShorthandOptions, 'schema'>

type Register = <const S extends SchemaParts>(
  url: string,
  summary: string,
  route: Route<S>,
  extras?: RouteExtras,
) => void

/** A DELETE that answers 204 with no body once `handler` is done (its errors as `response`). */
type RegisterRemoval = <
  const S extends Omit<SchemaParts, 'response'> & { response?: Record<number, unknown> },
>(
  url: string,
  summary: string,
  route: { [K in keyof S]: S[K] } & { handler: (request: Parameters<Handler<S>>[0]) => Promise<unknown> },
) => void

/** A POST that answers 201 with what `handler` made (`created`: its schema; its errors as `response`). */
type RegisterCreation = <
  const S extends Omit<SchemaParts, 'response'> & { created: z.ZodType; response?: Record<number, unknown> },
>(
  url: string,
  summary: string,
  route: { [K in keyof S]: S[K] } & {
    handler: (request: Parameters<Handler<S>>[0]) => Promise<z.input<S['created']>>
  },
) => void

export type ApiRoutes = {
  get: Register
  post: Register
  put: Register
  delete: Register
  create: RegisterCreation
  remove: RegisterRemoval
}

/** A deletion's answer: no body. */
const NO_CONTENT = z.null().describe('削除しました')

/** The registrar of a route file's routes, all under `tags`. */
export function apiRoutes(app: AppInstance, tags: readonly string[]): ApiRoutes {
  const register =
    (method: RouteOptions['method']): Register =>
    <const S extends SchemaParts>(
      url: string,
      summary: string,
      route: Route<S>,
      extras: RouteExtras = {},
    ) => {
      const { handler, ...schema } = route
      const options = { ...extras, method, url, schema: { tags, summary, ...schema }, handler }
      app.route<RouteGenericInterface, ContextConfigDefault, S>(options as never)
    }
  const remove: RegisterRemoval = (url, summary, { handler, response, ...parts }) =>
    register('DELETE')(url, summary, {
      ...parts,
      response: { 204: NO_CONTENT, ...response },
      handler: async (request, reply) => {
        await handler(request as never)
        return reply.code(204).send(null)
      },
    })
  const create: RegisterCreation = (url, summary, { handler, created, response, ...parts }) =>
    register('POST')(url, summary, {
      ...parts,
      response: { 201: created, ...response },
      handler: async (request, reply) => reply.code(201).send(await handler(request as never)),
    })
  return {
    get: register('GET'),
    post: register('POST'),
    put: register('PUT'),
    delete: register('DELETE'),
    create,
    remove,
  }
}

/** The error answers of a route's `response`: a ZErrorResponse body for each status. */
export function errorAnswers<const S extends number>(...statuses: S[]): Record<S, typeof ZErrorResponse> {
  return Object.fromEntries(statuses.map((status) => [status, ZErrorResponse])) as Record<
    S,
    typeof ZErrorResponse
  >
}
