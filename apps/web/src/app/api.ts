import type { FileRouteKey, JsonRouteKey, RouteAnswer, RouteInput, RouteKey } from '@teiki/contract'
import { currentSession } from './session.ts'

export const API_BASE = '/app-admin'

export type QueryValue = string | number | boolean | null | undefined
export type QueryParams = Record<string, QueryValue>

/** A failed API call, carrying the server's Japanese message for the merchant. */
export class ApiError extends Error {
  readonly status: number
  readonly code: string

  constructor(status: number, code: string, message: string) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
  }
}

export const NETWORK_ERROR_MESSAGE = 'サーバーに接続できませんでした'

/** How a request proves who it is for: App Bridge bearer token, or the standalone secret. */
export type Credentials =
  | { kind: 'bearer'; token: string }
  | { kind: 'query'; shop: string | null; secret: string | null }

/** Builds `/app-admin/<path>?…`, skipping empty values and adding query credentials. */
export function buildApiUrl(path: string, params: QueryParams, credentials: Credentials): string {
  const query = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue
    query.set(key, String(value))
  }
  if (credentials.kind === 'query') {
    if (credentials.shop) query.set('shop', credentials.shop)
    if (credentials.secret) query.set('secret', credentials.secret)
  }
  const normalized = path.startsWith('/') ? path : `/${path}`
  const search = query.toString()
  return `${API_BASE}${normalized}${search ? `?${search}` : ''}`
}

async function resolveCredentials(): Promise<Credentials> {
  const idToken = typeof window === 'undefined' ? undefined : window.shopify?.idToken
  if (idToken) return { kind: 'bearer', token: await idToken() }
  const { shop, secret } = currentSession()
  return { kind: 'query', shop, secret }
}

type RequestOptions = {
  method: string
  params?: QueryParams
  /** JSON body; none is sent when undefined (the server refuses an empty JSON body). */
  body?: unknown
  accept?: string
  signal?: AbortSignal | undefined
}

/**
 * Every call to the app backend: the session's credentials (secret parameter or bearer token),
 * network failures as `ApiError` status 0, non-2xx answers as `ApiError` with the server's
 * message. Aborts rethrow the `AbortError` untouched so callers can ignore superseded requests.
 */
async function send(path: string, options: RequestOptions): Promise<Response> {
  const credentials = await resolveCredentials()
  const headers: Record<string, string> = {}
  if (options.accept) headers.Accept = options.accept
  if (options.body !== undefined) headers['Content-Type'] = 'application/json'
  if (credentials.kind === 'bearer') headers.Authorization = `Bearer ${credentials.token}`

  let response: Response
  try {
    response = await fetch(buildApiUrl(path, options.params ?? {}, credentials), {
      method: options.method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: options.signal,
    })
  } catch (error) {
    if (isAbortError(error)) throw error
    throw new ApiError(0, 'NETWORK', NETWORK_ERROR_MESSAGE)
  }
  if (!response.ok) throw await toApiError(response)
  return response
}

/** What one call hands a route, whatever the route: the table's types narrow it per route. */
type AnyInput = { params?: Record<string, string | number>; query?: object; body?: unknown }

export type CallInit = {
  signal?: AbortSignal | undefined
  /** Refuse any other 2xx status (for an edit whose answer must be the edited contract). */
  expectStatus?: number
}

/** The input argument: optional for a route that takes none. */
export type ApiArgs<K extends RouteKey> =
  unknown extends RouteInput<K>
    ? [input?: RouteInput<K> | undefined, init?: CallInit]
    : [input: RouteInput<K>, init?: CallInit]

/**
 * The request of the table's route `key` (`'GET /subscriptions/:contractId'`): its method, its
 * path with the parameters filled in (each encoded), its query and its JSON body.
 */
export function routeRequest(key: RouteKey, input: AnyInput = {}): { path: string } & RequestOptions {
  const space = key.indexOf(' ')
  const path = key.slice(space + 1).replace(/:(\w+)/g, (_, name: string) => {
    const value = input.params?.[name]
    if (value === undefined) throw new Error(`${key}: path parameter ${name} is missing`)
    return encodeURIComponent(String(value))
  })
  return {
    path,
    method: key.slice(0, space),
    params: (input.query ?? {}) as QueryParams,
    body: input.body,
  }
}

/**
 * Calls one route of the contract's table and answers what its answer schema says. The web
 * imports the table's types only (no zod in the first page's bundle): the answer is the JSON the
 * server serialized with that very schema (`apps/server/test/route-table.test.ts`), so it is
 * typed without being parsed again.
 */
export async function api<K extends JsonRouteKey>(
  key: K,
  ...[input, init = {}]: ApiArgs<K>
): Promise<RouteAnswer<K>> {
  const { path, ...options } = routeRequest(key, input as AnyInput | undefined)
  const response = await send(path, { ...options, accept: 'application/json', signal: init.signal })
  if (init.expectStatus !== undefined && response.status !== init.expectStatus) {
    throw new ApiError(
      response.status,
      'UNEXPECTED_STATUS',
      `サーバーの応答が正しくありません（HTTP ${response.status}）`,
    )
  }
  const text = await response.text()
  let answer: RouteAnswer<K>
  try {
    // 204 answers nothing: `null`, as the table's ZNoContent says.
    answer = text ? JSON.parse(text) : null
  } catch {
    throw new ApiError(response.status, 'INVALID_RESPONSE', 'サーバーの応答を読み取れませんでした')
  }
  return answer
}

/**
 * Fetches a file route of the table (same credentials and errors as `api`): its bytes and the
 * file name the server gave in Content-Disposition (`filename*` preferred), or `fallbackName`.
 */
export async function download<K extends FileRouteKey>(
  key: K,
  fallbackName: string,
  ...[input, init = {}]: ApiArgs<K>
): Promise<{ blob: Blob; filename: string }> {
  const { path, ...options } = routeRequest(key, input as AnyInput | undefined)
  const response = await send(path, { ...options, signal: init.signal })
  const filename = filenameFromContentDisposition(response.headers.get('Content-Disposition')) ?? fallbackName
  return { blob: await response.blob(), filename }
}

async function toApiError(response: Response): Promise<ApiError> {
  try {
    const body: unknown = await response.json()
    const error = typeof body === 'object' && body !== null && 'error' in body ? body.error : null
    if (
      typeof error === 'object' &&
      error !== null &&
      'message' in error &&
      typeof error.message === 'string'
    ) {
      const code = 'code' in error && typeof error.code === 'string' ? error.code : 'UNKNOWN'
      return new ApiError(response.status, code, error.message)
    }
  } catch {
    // Not JSON (a proxy error page, for instance): fall through to the generic message.
  }
  return new ApiError(response.status, 'UNKNOWN', `サーバーでエラーが発生しました（HTTP ${response.status}）`)
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError'
}

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message
  const detail = error instanceof Error ? error.message : String(error)
  return `予期しないエラーが発生しました（${detail}）`
}

/** The file name of a Content-Disposition header: RFC 5987 `filename*` first, then `filename`. */
export function filenameFromContentDisposition(header: string | null): string | null {
  if (!header) return null
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header)
  if (extended) {
    try {
      return decodeURIComponent(extended[2]!.trim())
    } catch {
      // A malformed escape: fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header)
  if (!plain) return null
  return (plain[1]?.replace(/\\(.)/g, '$1') ?? plain[2]!.trim()) || null
}

/** Hands a downloaded file to the browser's save dialog. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = filename
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
  // Revoked after the click has been handled (Safari needs the URL a moment longer).
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
