import { type CallContext, createAdmission, type ThrottleStatus } from './admission.ts'
import { createCostMemory } from './cost-memory.ts'
import {
  PlatformBusyError,
  PlatformQueryError,
  PlatformUnavailableError,
  PlatformUserError,
} from './errors.ts'

export const API_VERSION = '2025-04'

export type { CallContext, ThrottleStatus }

type QueryCost = {
  requestedQueryCost?: number
  actualQueryCost?: number | null
  throttleStatus?: ThrottleStatus
}
type GraphQLResponse<T> = {
  data?: T
  errors?: Array<{ message: string; extensions?: { code?: string } }>
  extensions?: { cost?: QueryCost }
}

export type AdminClientOptions = {
  shop: string
  accessToken: string
  /** `https://{shop}` on the platform; the emulator's origin locally. */
  origin: string
  fetch?: typeof fetch
  /** Retries of a 5xx/429/network failure before PlatformUnavailableError (default 8). */
  maxRetries?: number
  /** First backoff delay after a 5xx/network failure, doubled each time up to 8 s (default 200 ms). */
  retryBaseMs?: number
  /** Waits `ms`; the pacing loop passes a signal that ends the wait early (default: setTimeout). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
  /** Clock in ms (tests inject a fake one together with `sleep`). */
  now?: () => number
  /**
   * The merchant request the current call is made for (its deadline), or undefined for
   * background work; read at each call (platform/shop-clients.ts passes the
   * request context's).
   */
  callContext?: () => CallContext | undefined
  /** Merchant calls that may wait at once before the next is refused (default 20). */
  maxInteractiveWaiting?: number
}

export type AdminClient = {
  readonly shop: string
  request<T>(operationName: string, query: string, variables?: Record<string, unknown>): Promise<T>
}

/** What one client did so far: for benchmarks, logs and tests (never for control flow). */
export type AdminClientStats = {
  /** HTTP requests sent, retries and throttled ones included. */
  requests: number
  /** Answers that were THROTTLED. */
  throttled: number
  /** 5xx / 429 / network failures that were retried. */
  retried: number
  /** Sum of `actualQueryCost` of the answers: the points the platform really took. */
  pointsSpent: number
  /** Time spent waiting for the bucket before sending (pacing), in ms. */
  pacedMs: number
  /** Time spent waiting after THROTTLED answers, in ms. */
  throttledWaitMs: number
}

export type PacedAdminClient = AdminClient & {
  readonly stats: AdminClientStats
  /** When the client last admitted or heard an answer; null while calls wait or are in flight. */
  idleSince(): number | null
}

/** A mutation's own cost on the platform (shopify.dev, rate limits): what we expect before any answer. */
const MUTATION_COST = 10

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal?.addEventListener('abort', done, { once: true })
  })
}

/**
 * The one Admin GraphQL client. It never fails because of throttling and tries not to be
 * throttled at all:
 *
 * - Pacing (platform/admission.ts): every answer's `extensions.cost.throttleStatus` resets a
 *   local estimate of the bucket. Before sending an operation whose cost is known (the last
 *   `requestedQueryCost` seen for that operation name and page size (`first`, or the number of
 *   `ids`), or estimated from
 *   another page size of it: platform/cost-memory.ts; 10 for a mutation never sent yet) the request waits until the estimate covers it; admission debits the
 *   estimate at once, so concurrent callers never spend the same points twice.
 * - Lanes: a call made for a merchant's request (`callContext()` gives its deadline) goes ahead
 *   of waiting background calls, which leave a reserve in the bucket for merchants. A merchant
 *   call not admitted before its deadline, or after its request ended, is never sent
 *   (PlatformBusyError); a THROTTLED wait or retry backoff that would outlast the deadline is
 *   not slept either.
 * - A THROTTLED answer (still possible: other apps do not share the bucket, but other
 *   processes of this app do) waits exactly (requested − currentlyAvailable) / restoreRate.
 * - 5xx, 429 and network errors are retried with bounded exponential backoff (jittered),
 *   then PlatformUnavailableError.
 * - A status >= 300 or a body with neither data nor errors is a failure (product spec,
 *   section 8); GraphQL `errors` other than throttling are PlatformQueryError.
 */
export function createAdminClient(opts: AdminClientOptions): PacedAdminClient {
  const url = `${opts.origin.replace(/\/$/, '')}/admin/api/${API_VERSION}/graphql.json`
  const doFetch = opts.fetch ?? fetch
  const sleep = opts.sleep ?? defaultSleep
  const now = opts.now ?? Date.now
  const maxRetries = opts.maxRetries ?? 8
  const retryBaseMs = opts.retryBaseMs ?? 200

  const stats: AdminClientStats = {
    requests: 0,
    throttled: 0,
    retried: 0,
    pointsSpent: 0,
    pacedMs: 0,
    throttledWaitMs: 0,
  }
  /** Per operation (and page size): the last requestedQueryCost and actualQueryCost seen. */
  const costs = createCostMemory()
  const admission = createAdmission({
    now,
    sleep,
    maxInteractiveWaiting: opts.maxInteractiveWaiting,
    onPaced: (ms) => {
      stats.pacedMs += ms
    },
  })

  async function request<T>(
    operationName: string,
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<T> {
    const isMutation = /^\s*mutation\b/.test(query)
    // An operation's cost scales with its page size: learnt per `first`, or per the number of
    // `ids` of a nodes(ids:) read (the platform prices that list per id).
    const first = pageSizeOf(variables)
    const call = opts.callContext?.()
    let failures = 0
    /** A failure to retry after a backoff, unless retries or the merchant's deadline run out. */
    const retryAfter = async (error: PlatformUnavailableError) => {
      const waitMs = backoff(++failures, retryBaseMs)
      if (failures > maxRetries || (call && now() + waitMs >= call.deadline)) throw error
      stats.retried++
      await sleep(waitMs)
    }
    for (;;) {
      const cost = () => {
        const learnt = costs.estimate(operationName, first)
        if (learnt) return learnt
        // Never seen at any size: sent alone to learn it, counted at the least a page can
        // cost (a point per item asked), so background work keeps most of the reserve.
        if (!isMutation) return { requested: first ?? 0, actual: first ?? 0, unknownAs: operationName }
        return { requested: MUTATION_COST, actual: MUTATION_COST }
      }
      const { ticket, sentAt } = await admission.admit(operationName, cost, call)
      stats.requests++
      let response: Response
      try {
        response = await doFetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-shopify-access-token': opts.accessToken },
          body: JSON.stringify({ query, variables, operationName }),
        })
      } catch (error) {
        admission.settle(ticket, sentAt, undefined)
        await retryAfter(new PlatformUnavailableError(`${operationName}: ${(error as Error).message}`))
        continue
      }
      if (response.status >= 500 || response.status === 429) {
        admission.settle(ticket, sentAt, undefined)
        await response.body?.cancel()
        await retryAfter(
          new PlatformUnavailableError(`${operationName}: HTTP ${response.status}`, response.status),
        )
        continue
      }
      if (response.status >= 300) {
        admission.settle(ticket, sentAt, undefined)
        await response.body?.cancel()
        throw new PlatformUnavailableError(`${operationName}: HTTP ${response.status}`, response.status)
      }
      let body: GraphQLResponse<T>
      try {
        body = (await response.json()) as GraphQLResponse<T>
      } catch (error) {
        admission.settle(ticket, sentAt, undefined)
        throw new PlatformUnavailableError(
          `${operationName}: unreadable answer (${(error as Error).message})`,
        )
      }
      const costInfo = body?.extensions?.cost
      admission.settle(ticket, sentAt, costInfo?.throttleStatus)
      costs.learn(operationName, first, costInfo?.requestedQueryCost, costInfo?.actualQueryCost ?? undefined)
      if (typeof costInfo?.actualQueryCost === 'number') stats.pointsSpent += costInfo.actualQueryCost
      const throttled = body?.errors?.some(
        (e) => e.extensions?.code === 'THROTTLED' || e.message === 'Throttled',
      )
      if (throttled) {
        stats.throttled++
        const waitMs = throttleWaitMs(costInfo)
        if (call && now() + waitMs >= call.deadline) throw new PlatformBusyError(operationName, 'deadline')
        stats.throttledWaitMs += waitMs
        await sleep(waitMs)
        continue
      }
      if (body?.errors?.length) throw new PlatformQueryError(operationName, body.errors)
      if (body?.data === undefined || body.data === null) {
        throw new PlatformUnavailableError(`${operationName}: response had neither data nor errors`)
      }
      return body.data
    }
  }

  return { shop: opts.shop, request, stats, idleSince: admission.idleSince }
}

/** A request's page size: its `first`, else how many `ids` it asks for; undefined without either. */
export function pageSizeOf(variables: Record<string, unknown> | undefined): number | undefined {
  if (typeof variables?.first === 'number') return variables.first
  return Array.isArray(variables?.ids) ? variables.ids.length : undefined
}

function backoff(failures: number, baseMs: number): number {
  return Math.min(8_000, baseMs * 2 ** (failures - 1)) * (0.75 + Math.random() * 0.5)
}

/** (requested - currentlyAvailable) / restoreRate seconds, as the platform asks. */
export function throttleWaitMs(cost: QueryCost | undefined): number {
  const status = cost?.throttleStatus
  const requested = cost?.requestedQueryCost ?? 50
  if (!status || status.restoreRate <= 0) return 1_000
  const missing = Math.max(0, requested - status.currentlyAvailable)
  return Math.ceil((missing / status.restoreRate) * 1000) + 10
}

type UserErrorList = PlatformUserError['userErrors']

/**
 * For mutation wrappers: the payload when its `userErrors` is empty, else PlatformUserError.
 * A null payload (the mutation field itself failed) is a PlatformUnavailableError.
 */
export function assertNoUserErrors<P extends { userErrors: UserErrorList }>(
  operation: string,
  payload: P | null | undefined,
): P {
  if (!payload) throw new PlatformUnavailableError(`${operation}: the mutation returned no payload`)
  if (payload.userErrors.length > 0) throw new PlatformUserError(operation, payload.userErrors)
  return payload
}
