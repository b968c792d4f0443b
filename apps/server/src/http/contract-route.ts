import { type AppAdminRoutes, appAdminRoutes, type RouteKey, routeTarget } from '@teiki/contract'
import type { z } from 'zod'

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
