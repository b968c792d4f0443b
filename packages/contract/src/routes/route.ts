import { z } from 'zod'

/**
 * One `/app-admin` route as both ends see it. The table's key is the method and the path after
 * `/app-admin` (`'GET /subscriptions/:contractId'`), so a caller that holds only the key (the web
 * app, which imports this package's types and never zod) still knows where to send it.
 */
export type RouteSpec = {
  /** Path parameters (`:contractId`); the schema the server parses them with. */
  params?: z.ZodType
  query?: z.ZodType
  body?: z.ZodType
  /** The success answer's schema; the server serializes with it, the web types its answer by it. */
  answer: z.ZodType
  /** The success status when it is not 200 (201 created, 202 accepted, 204 no content). */
  status?: 201 | 202 | 204
  /** A second success answer under another status (a job accepted instead of an answer now). */
  alternative?: { status: 202; answer: z.ZodType }
  /** The answer is a file to save (CSV), not JSON. */
  file?: true
}

export type RouteTable = Record<`${Method} /${string}`, RouteSpec>
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

/** What a 204 answers: nothing (`null` once read). */
export const ZNoContent = z.null().describe('削除しました')

/** A file's answer (its bytes are not JSON: the schema only documents it in OpenAPI). */
export const fileAnswer = (description: string) => z.any().describe(description)

/** The `:name` segments of a path, as a union of names. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never

type PathOf<K> = K extends `${Method} ${infer P}` ? P : never

/** Splits a route key into its method and its full URL pattern (with the `/app-admin` prefix). */
export function routeTarget<K extends string>(key: K): { method: Method; url: string } {
  const space = key.indexOf(' ')
  return { method: key.slice(0, space) as Method, url: `/app-admin${key.slice(space + 1)}` }
}

type ParamsInput<K> = [PathParamNames<PathOf<K>>] extends [never]
  ? unknown
  : { params: Record<PathParamNames<PathOf<K>>, string | number> }
type QueryInput<S> = S extends { query: z.ZodType } ? { query: z.input<S['query']> } : unknown
type BodyInput<S> = S extends { body: z.ZodType } ? { body: z.input<S['body']> } : unknown

/** What a caller hands one route: its path parameters, its query and its body, each only if it has one. */
export type InputOf<T extends RouteTable, K extends keyof T> = ParamsInput<K> &
  QueryInput<T[K]> &
  BodyInput<T[K]>

/** What one route answers on success, as the JSON the caller reads. */
export type AnswerOf<T extends RouteTable, K extends keyof T> =
  | (T[K] extends { answer: infer A extends z.ZodType } ? z.output<A> : never)
  | (T[K] extends { alternative: { answer: infer A extends z.ZodType } } ? z.output<A> : never)
