import { reportError } from './report-error.ts'

/**
 * Who the app is talking for. In standalone mode `shop` and `secret` come from the query
 * string; they are kept in sessionStorage so reloads and in-app navigation without them
 * still work. `host` is read (App Bridge passes it) but never stored.
 */
export type Session = { shop: string | null; secret: string | null; host: string | null }

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>

const SHOP_KEY = 'teiki.shop'
const SECRET_KEY = 'teiki.secret'

/** Reads the session from a query string, falling back to (and refreshing) the storage. */
export function readSession(search: string, storage: KeyValueStorage | null): Session {
  const params = new URLSearchParams(search)
  const shop = nonEmpty(params.get('shop'))
  const secret = nonEmpty(params.get('secret'))
  const host = nonEmpty(params.get('host'))
  if (shop) remember(storage, SHOP_KEY, shop)
  if (secret) remember(storage, SECRET_KEY, secret)
  return {
    shop: shop ?? recall(storage, SHOP_KEY),
    secret: secret ?? recall(storage, SECRET_KEY),
    host,
  }
}

/** The session of the current page. */
export function currentSession(): Session {
  if (typeof window === 'undefined') return { shop: null, secret: null, host: null }
  return readSession(window.location.search, browserStorage())
}

/**
 * Storage failures reported so far on this page: the session is read on every API call and
 * render, and a browser that refuses storage refuses it every time; one report per failure is
 * what the reporting service needs (a flood filled the SDK's send queue and dropped the
 * page's other errors).
 */
const reportedStorageFailures = new Set<string>()

function reportStorageFailure(error: unknown, context: string): void {
  if (reportedStorageFailures.has(context)) return
  reportedStorageFailures.add(context)
  reportError(error, context)
}

function browserStorage(): KeyValueStorage | null {
  try {
    // Reading the property itself throws in sandboxed iframes with storage disabled.
    return window.sessionStorage
  } catch (error) {
    reportStorageFailure(error, 'sessionStorage is not available')
    return null
  }
}

function remember(storage: KeyValueStorage | null, key: string, value: string): void {
  if (!storage) return
  try {
    if (storage.getItem(key) !== value) storage.setItem(key, value)
  } catch (error) {
    reportStorageFailure(error, `failed to write ${key} to sessionStorage`)
  }
}

function recall(storage: KeyValueStorage | null, key: string): string | null {
  if (!storage) return null
  try {
    return nonEmpty(storage.getItem(key))
  } catch {
    return null
  }
}

function nonEmpty(value: string | null): string | null {
  return value === null || value.trim() === '' ? null : value
}
