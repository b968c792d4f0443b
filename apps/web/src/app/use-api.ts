import type { JsonRouteKey, RouteAnswer, RouteInput, RouteKey } from '@teiki/contract'
import { useCallback, useEffect, useRef } from 'react'
import useSWR, { mutate, preload, type SWRConfiguration } from 'swr'
import { type ApiArgs, ApiError, api, errorMessage } from './api.ts'

// Request state, caching, retries and invalidation are SWR's (ADR 0035); this file only ties it
// to the route table: a cache key is `[route, input]`, so `invalidate(route)` finds every cached
// answer of that route whatever its input.

type Key<K extends JsonRouteKey> = readonly [K, RouteInput<K> | undefined]

export type ApiState<T> = {
  data: T | undefined
  error: unknown
  /** No answer yet for this input (a kept earlier answer does not count, see `keepPrevious`). */
  isLoading: boolean
  /** A request is on its way (a first load, a retry or a refresh after an edit). */
  isValidating: boolean
  retry: () => void
}

export type UseApiOptions = SWRConfiguration & {
  /** Go on showing the previous input's answer while the next one loads (lists that page). */
  keepPrevious?: boolean
}

/**
 * The answer of `route` for `input`, loaded, cached and shared by every screen that asks the
 * same; `route` null asks nothing (e.g. while filters are invalid).
 */
export function useApi<K extends JsonRouteKey>(
  route: K | null,
  input?: RouteInput<K>,
  options: UseApiOptions = {},
): ApiState<RouteAnswer<K>> {
  const key: Key<K> | null = route ? [route, input] : null
  return useLoader(key, () => fetchRoute<K>([route as K, input]), options)
}

/** Starts loading an answer before any screen asks for it (a cold load of a contract's page). */
export function prefetch<K extends JsonRouteKey>(route: K, input: RouteInput<K>): Promise<RouteAnswer<K>> {
  const key: Key<K> = [route, input]
  return preload(key, fetchRoute<K>)
}

function fetchRoute<K extends JsonRouteKey>([route, input]: Key<K>): Promise<RouteAnswer<K>> {
  const args = [input] as ApiArgs<K>
  return api(route, ...args)
}

/**
 * Refetches every cached answer of these routes (all inputs), e.g. after an edit: the contract's
 * detail and the list. A screen showing one refetches at once; an answer no screen shows now is
 * refetched when a screen shows it again (it is stale, and SWR revalidates stale answers on mount).
 */
export function invalidate(...routes: RouteKey[]): Promise<unknown> {
  return mutate((key) => Array.isArray(key) && routes.includes(key[0]))
}

/** Client errors (4xx) are answers, not accidents: asking again would get the same. */
export function shouldRetry(error: unknown): boolean {
  return !(error instanceof ApiError && error.status >= 400 && error.status < 500)
}

/** The app-wide SWR settings (app.tsx): a few retries of server and network failures only. */
export const SWR_SETTINGS: SWRConfiguration = {
  errorRetryCount: 2,
  errorRetryInterval: 2000,
  onErrorRetry: (error, _key, config, revalidate, { retryCount }) => {
    if (!shouldRetry(error) || retryCount > (config.errorRetryCount ?? 2)) return
    setTimeout(
      () => void revalidate({ retryCount }),
      (config.errorRetryInterval ?? 2000) * 2 ** (retryCount - 1),
    )
  },
  // The merchant's admin tab regains focus often (App Bridge modals, the platform's pages); a
  // refetch each time would re-render lists under the merchant's cursor for no new data.
  revalidateOnFocus: false,
  dedupingInterval: 2000,
}

/** Two requests a screen shows together: data once both have answered, the first error, one retry. */
export function combine<A, B>(a: ApiState<A>, b: ApiState<B>): ApiState<[A, B]> {
  return {
    data: a.data !== undefined && b.data !== undefined ? [a.data, b.data] : undefined,
    error: a.error ?? b.error,
    isLoading: a.isLoading || b.isLoading,
    isValidating: a.isValidating || b.isValidating,
    retry: () => {
      a.retry()
      b.retry()
    },
  }
}

/** Puts an answer the server just gave (an edit answering the new state) in the cache of `route`. */
export function setCached<K extends JsonRouteKey>(
  route: K,
  input: RouteInput<K> | undefined,
  data: RouteAnswer<K>,
): Promise<unknown> {
  const key: Key<K> = [route, input]
  return mutate(key, data, false)
}

/**
 * Data a screen builds from several routes (the 分析 dashboard, a form's choices), cached under
 * `key` by the same library with the same retries and state as `useApi`; `key` null loads nothing.
 */
export function useLoader<T>(
  key: readonly unknown[] | null,
  load: () => Promise<T>,
  options: UseApiOptions = {},
): ApiState<T> {
  const { keepPrevious = false, ...rest } = options
  const {
    data,
    error,
    isLoading,
    isValidating,
    mutate: revalidate,
  } = useSWR(key, load, {
    keepPreviousData: keepPrevious,
    ...rest,
  })
  const retry = useCallback(() => void revalidate(), [revalidate])
  return { data, error, isLoading, isValidating, retry }
}

export type Phase<T> =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'done'; data: T }

/** A request's state as one of three, for a view that switches on it (the server's message on error). */
export function phase<T>(state: ApiState<T>): Phase<T> {
  if (state.data !== undefined) return { status: 'done', data: state.data }
  if (state.error && !state.isValidating) return { status: 'error', message: errorMessage(state.error) }
  return { status: 'loading' }
}

export type ListPhase<T> =
  | { status: 'loading'; previous: T | null }
  | { status: 'error'; message: string }
  | { status: 'success'; data: T }

/** `phase` for a list that pages: while the next page loads, the previous one is `previous`. */
export function listPhase<T>(state: ApiState<T>): ListPhase<T> {
  if (state.error && !state.isValidating) return { status: 'error', message: errorMessage(state.error) }
  if (state.data !== undefined && !state.isValidating) return { status: 'success', data: state.data }
  return { status: 'loading', previous: state.data ?? null }
}

/**
 * For a screen whose state lives in a reducer (an editor with a draft): loads through the same
 * cache and retries as `useLoader`, and hands the reducer each new answer (`loaded`), the
 * server's message on failure (`failed`) and the start of a first load (`loading`). Answers the
 * retry. An identical answer after a refetch is not handed again (a draft is not reset by it).
 */
export function useLoadInto<T>(
  key: readonly unknown[] | null,
  load: () => Promise<T>,
  on: { loaded: (data: T) => void; failed: (message: string) => void; loading?: () => void },
): () => void {
  const state = useLoader(key, load)
  const handlers = useRef(on)
  handlers.current = on
  const waiting = state.data === undefined && state.isValidating
  useEffect(() => {
    if (waiting) handlers.current.loading?.()
  }, [waiting])
  useEffect(() => {
    if (state.data !== undefined) handlers.current.loaded(state.data)
  }, [state.data])
  const failed = state.error && !state.isValidating ? errorMessage(state.error) : null
  useEffect(() => {
    if (failed) handlers.current.failed(failed)
  }, [failed])
  return state.retry
}

/**
 * The same hand-over outside React (an editor's actions, tested without a renderer): `loaded`
 * or `failed` with the outcome of `load`, unless the answered cancel ran first (a superseded load).
 */
export function loadInto<T>(
  load: Promise<T>,
  on: { loaded: (data: T) => void; failed: (message: string) => void },
): () => void {
  let cancelled = false
  load.then(
    (data) => !cancelled && on.loaded(data),
    (error: unknown) => !cancelled && on.failed(errorMessage(error)),
  )
  return () => {
    cancelled = true
  }
}
