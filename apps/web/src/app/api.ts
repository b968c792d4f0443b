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

type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE'
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
async function send(path: string, options: RequestOptions = {}): Promise<Response> {
  const credentials = await resolveCredentials()
  const headers: Record<string, string> = {}
  if (options.accept) headers.Accept = options.accept
  if (options.body !== undefined) headers['Content-Type'] = 'application/json'
  if (credentials.kind === 'bearer') headers.Authorization = `Bearer ${credentials.token}`

  let response: Response
  try {
    response = await fetch(buildApiUrl(path, options.params ?? {}, credentials), {
      method: options.method ?? 'GET',
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

/** GET a JSON resource from the app backend (errors: see `send`). */
export async function apiGet<T>(path: string, params: QueryParams = {}, init: { signal?: AbortSignal } = {}) {
  const response = await send(path, { params, accept: 'application/json', signal: init.signal })
  return (await response.json()) as T
}

/** POST a JSON body to the app backend (errors: see `send`). */
export async function apiPost<T>(path: string, body: unknown, init: { signal?: AbortSignal } = {}) {
  const response = await send(path, { method: 'POST', body, accept: 'application/json', signal: init.signal })
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

export type ApiSendOptions = { body?: unknown; params?: QueryParams; signal?: AbortSignal }

/**
 * Sends a POST, PUT or DELETE with the same credentials and error handling as `apiPost`, and
 * answers the HTTP status with the body (null when the answer is empty), for callers that must
 * check the exact status. Without `body` no JSON is sent (the server refuses an empty JSON body).
 */
export async function apiSend<T>(
  method: 'POST' | 'PUT' | 'DELETE',
  path: string,
  options: ApiSendOptions = {},
): Promise<{ status: number; data: T }> {
  const response = await send(path, { ...options, method, accept: 'application/json' })
  const text = await response.text()
  try {
    return { status: response.status, data: (text ? JSON.parse(text) : null) as T }
  } catch {
    throw new ApiError(response.status, 'INVALID_RESPONSE', 'サーバーの応答を読み取れませんでした')
  }
}

/** PUT a JSON body (see `apiSend`). */
export async function apiPut<T>(path: string, body: unknown, init: { signal?: AbortSignal } = {}) {
  return (await apiSend<T>('PUT', path, { body, signal: init.signal })).data
}

/** DELETE a resource, with query parameters (see `apiSend`). */
export async function apiDelete<T>(
  path: string,
  params: QueryParams = {},
  init: { signal?: AbortSignal } = {},
) {
  return (await apiSend<T>('DELETE', path, { params, signal: init.signal })).data
}

/**
 * GET a file from the app backend (same credentials and errors as `apiGet`): its bytes and
 * the file name the server gave in Content-Disposition (`filename*` preferred), or `fallbackName`.
 */
export async function apiDownload(
  path: string,
  fallbackName: string,
  init: { signal?: AbortSignal; params?: QueryParams } = {},
): Promise<{ blob: Blob; filename: string }> {
  const response = await send(path, { signal: init.signal, params: init.params ?? {} })
  const filename = filenameFromContentDisposition(response.headers.get('Content-Disposition')) ?? fallbackName
  return { blob: await response.blob(), filename }
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
