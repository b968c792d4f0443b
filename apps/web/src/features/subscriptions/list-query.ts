import type { SubscriptionStatus } from '@teiki/contract'
import { parseTypedDate, SUBSCRIPTION_STATUSES } from '@teiki/domain'
import { PAGE_SIZE, type SearchFilters } from './search-request.ts'

/**
 * What the subscription list shows, kept in the page's URL (`/?q=山田&status=ACTIVE&from=…
 * &to=…&page=2`, beside the shop/secret the app carries) so that Back from a contract, a reload
 * or a shared link opens the same list. Pure, so the rules are unit-tested.
 */
export type ListQuery = {
  /** The committed search text ('' = the whole list). */
  text: string
  filters: SearchFilters
  /** First row of the page (a multiple of PAGE_SIZE). */
  offset: number
}

export const EMPTY_LIST_QUERY: ListQuery = {
  text: '',
  filters: { statuses: [], nextBillingDateFrom: '', nextBillingDateTo: '' },
  offset: 0,
}

/** The list's own URL parameters (the app adds shop and secret). */
export const LIST_PARAMS = { text: 'q', statuses: 'status', from: 'from', to: 'to', page: 'page' } as const

/** The server refuses offsets above this; a page past it is read as the last one allowed. */
const MAX_OFFSET = 1_000_000
const KNOWN_STATUSES: ReadonlySet<string> = new Set(SUBSCRIPTION_STATUSES)

/**
 * A date filter as the URL holds it: a day (`2027/1/15` read as `2027-01-15`), or the text
 * itself when it is not one, kept so that the screen refuses it and says why: a list of every
 * contract under a filter the merchant typed would show contracts they did not ask for.
 */
const dateParam = (value: string | null): string => {
  const text = (value ?? '').trim().slice(0, 40)
  return parseTypedDate(text) ?? text
}

/**
 * The list a URL asks for. An unknown status or page `x` is left out, so an edited or old link
 * still opens a list; a date that is not a day (`2026-13-45`) is kept, and refused on screen.
 */
export function parseListQuery(search: string): ListQuery {
  const params = new URLSearchParams(search)
  const statuses = (params.get(LIST_PARAMS.statuses) ?? '')
    .split(',')
    .map((status) => status.trim().toUpperCase())
    .filter((status, index, all) => KNOWN_STATUSES.has(status) && all.indexOf(status) === index)
  const page = Number(params.get(LIST_PARAMS.page) ?? '1')
  const offset = Number.isInteger(page) && page > 1 ? Math.min((page - 1) * PAGE_SIZE, MAX_OFFSET) : 0
  return {
    text: (params.get(LIST_PARAMS.text) ?? '').slice(0, 200),
    filters: {
      statuses: statuses as SubscriptionStatus[],
      nextBillingDateFrom: dateParam(params.get(LIST_PARAMS.from)),
      nextBillingDateTo: dateParam(params.get(LIST_PARAMS.to)),
    },
    offset: offset - (offset % PAGE_SIZE),
  }
}

/** The in-app path of a list: `/` plus only the parameters that differ from the whole list. */
export function listPath(query: ListQuery): string {
  const params = new URLSearchParams()
  if (query.text.trim() !== '') params.set(LIST_PARAMS.text, query.text.trim())
  if (query.filters.statuses.length > 0) params.set(LIST_PARAMS.statuses, query.filters.statuses.join(','))
  if (query.filters.nextBillingDateFrom) params.set(LIST_PARAMS.from, query.filters.nextBillingDateFrom)
  if (query.filters.nextBillingDateTo) params.set(LIST_PARAMS.to, query.filters.nextBillingDateTo)
  if (query.offset > 0) params.set(LIST_PARAMS.page, String(Math.floor(query.offset / PAGE_SIZE) + 1))
  const search = params.toString()
  return search ? `/?${search}` : '/'
}

/** A new search text or filter starts again from the first page; a page change keeps them. */
export function withSearch(
  query: ListQuery,
  change: Partial<Pick<ListQuery, 'text' | 'filters'>>,
): ListQuery {
  return { ...query, ...change, offset: 0 }
}

const LAST_LIST_KEY = 'teiki:list-path'

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'>

const sessionStore = (): Storage | null => {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage
  } catch {
    return null // storage disabled (private mode, a sandboxed frame)
  }
}

/** Remembers the list the merchant looks at, for the detail page's back arrow. */
export function rememberListPath(path: string, storage: Storage | null = sessionStore()): void {
  try {
    storage?.setItem(LAST_LIST_KEY, path)
  } catch {
    // Full or forbidden storage: the back arrow then opens the whole list.
  }
}

/** The list the merchant came from (its path), or the whole list. */
export function lastListPath(storage: Storage | null = sessionStore()): string {
  try {
    const path = storage?.getItem(LAST_LIST_KEY)
    // Only a list path of this app: never a redirect elsewhere.
    return path?.startsWith('/?') ? path : '/'
  } catch {
    return '/'
  }
}
