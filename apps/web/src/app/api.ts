import type { ErrorResponse } from '@teiki/contract'
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

/**
 * GET a JSON resource from the app backend. Non-2xx answers throw `ApiError` with the
 * server's message; network failures throw `ApiError` with status 0. Aborts rethrow the
 * `AbortError` untouched so callers can ignore superseded requests.
 */
export async function apiGet<T>(path: string, params: QueryParams = {}, init: { signal?: AbortSignal } = {}) {
  const credentials = await resolveCredentials()
  const headers: Record<string, string> = { Accept: 'application/json' }
  if (credentials.kind === 'bearer') headers.Authorization = `Bearer ${credentials.token}`

  let response: Response
  try {
    response = await fetch(buildApiUrl(path, params, credentials), {
      headers,
      credentials: 'same-origin',
      signal: init.signal,
    })
  } catch (error) {
    if (isAbortError(error)) throw error
    throw new ApiError(0, 'NETWORK', NETWORK_ERROR_MESSAGE)
  }

  if (!response.ok) throw await toApiError(response)
  return (await response.json()) as T
}

/**
 * POST a JSON body to the app backend, with the same credentials and error handling as
 * `apiGet` (non-2xx: `ApiError` with the server's message; network failure: status 0).
 */
export async function apiPost<T>(path: string, body: unknown, init: { signal?: AbortSignal } = {}) {
  const credentials = await resolveCredentials()
  const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': 'application/json' }
  if (credentials.kind === 'bearer') headers.Authorization = `Bearer ${credentials.token}`

  let response: Response
  try {
    response = await fetch(buildApiUrl(path, {}, credentials), {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      credentials: 'same-origin',
      signal: init.signal,
    })
  } catch (error) {
    if (isAbortError(error)) throw error
    throw new ApiError(0, 'NETWORK', NETWORK_ERROR_MESSAGE)
  }

  if (!response.ok) throw await toApiError(response)
  return (await response.json()) as T
}

async function toApiError(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as Partial<ErrorResponse>
    if (body.error && typeof body.error.message === 'string') {
      return new ApiError(response.status, body.error.code ?? 'UNKNOWN', body.error.message)
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
