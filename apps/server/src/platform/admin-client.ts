import { PlatformQueryError, PlatformUnavailableError, PlatformUserError } from './errors.ts'

export const API_VERSION = '2025-04'

export type ThrottleStatus = { maximumAvailable: number; currentlyAvailable: number; restoreRate: number }
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
  sleep?: (ms: number) => Promise<void>
  /** Clock in ms (tests inject a fake one together with `sleep`). */
  now?: () => number
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

export type PacedAdminClient = AdminClient & { readonly stats: AdminClientStats }

/** A mutation's own cost on the platform (shopify.dev, rate limits): what we expect before any answer. */
const MUTATION_COST = 10

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * The client's estimate of the shop's bucket: `available` points at time `at` (ms), refilling
 * at `restoreRate` per second up to `maximum`. It is taken from each answer's throttleStatus
 * and debited locally when a request is admitted.
 */
type BucketEstimate = {
  available: number
  at: number
  restoreRate: number
  maximum: number
  basisSentAt: number
}

/**
 * The one Admin GraphQL client. It never fails because of throttling and tries not to be
 * throttled at all:
 *
 * - Pacing: every answer's `extensions.cost.throttleStatus` resets a local estimate of the
 *   bucket. Before sending an operation whose cost is known (the last `requestedQueryCost`
 *   seen for that operation name and `first` variable; 10 for a mutation never sent yet) the request waits until
 *   the estimate covers it. Admission is one FIFO queue per client and debits the estimate
 *   at once, so concurrent callers never spend the same points twice. Points reserved by
 *   requests still in flight are subtracted from each new throttleStatus (conservative: the
 *   platform may already have charged some of them). Until the first answer tells the bucket,
 *   one request at a time is sent.
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
  const expectedCost = new Map<string, number>()
  let estimate: BucketEstimate | null = null
  /** Points reserved by admitted requests whose answer has not arrived. */
  const inFlight = new Map<number, number>()
  let nextTicket = 0
  /** The admission queue: each request waits for the previous one to be admitted. */
  let gate: Promise<void> = Promise.resolve()
  /** Resolved by the next answer carrying a throttleStatus (used while the bucket is unknown). */
  let firstStatus: { promise: Promise<void>; resolve: () => void } | null = null

  const projected = (e: BucketEstimate, t: number) =>
    Math.min(e.maximum, e.available + (Math.max(0, t - e.at) / 1000) * e.restoreRate)

  /** Waits for its turn and for the points; returns the ticket and when it was admitted. */
  function admit(cost: number): Promise<{ ticket: number; sentAt: number }> {
    const turn = gate.then(async () => {
      for (;;) {
        if (!estimate) {
          if (inFlight.size === 0) break
          // The bucket is unknown: one request at a time until an answer tells it.
          if (!firstStatus) {
            let resolve!: () => void
            const promise = new Promise<void>((r) => {
              resolve = r
            })
            firstStatus = { promise, resolve }
          }
          await firstStatus.promise
          continue
        }
        const t = now()
        const available = projected(estimate, t)
        // A cost above the whole bucket can never be covered: send it when the bucket is full.
        const needed = Math.min(cost, estimate.maximum)
        if (available >= needed) break
        const waitMs = Math.ceil(((needed - available) / estimate.restoreRate) * 1000)
        stats.pacedMs += waitMs
        await sleep(waitMs)
      }
      const sentAt = now()
      if (estimate) {
        estimate.available = projected(estimate, sentAt) - cost
        estimate.at = sentAt
      }
      const ticket = nextTicket++
      inFlight.set(ticket, cost)
      return { ticket, sentAt }
    })
    gate = turn.then(
      () => undefined,
      () => undefined,
    )
    return turn
  }

  function settle(ticket: number, sentAt: number, cost: QueryCost | undefined): void {
    inFlight.delete(ticket)
    const status = cost?.throttleStatus
    if (status && status.restoreRate > 0 && (!estimate || sentAt >= estimate.basisSentAt)) {
      let reserved = 0
      for (const points of inFlight.values()) reserved += points
      // The platform computed the status while handling the request, before the answer
      // arrived: dating it at the arrival under-estimates the refill, which is the safe side.
      estimate = {
        available: status.currentlyAvailable - reserved,
        at: now(),
        restoreRate: status.restoreRate,
        maximum: status.maximumAvailable,
        basisSentAt: sentAt,
      }
    }
    // Any settled request lets a caller waiting for the first status look again.
    if (firstStatus) {
      firstStatus.resolve()
      firstStatus = null
    }
  }

  async function request<T>(
    operationName: string,
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<T> {
    const isMutation = /^\s*mutation\b/.test(query)
    // An operation's cost scales with its page size: learnt per `first` when it has one.
    const costKey =
      typeof variables?.first === 'number' ? `${operationName}:${variables.first}` : operationName
    let failures = 0
    for (;;) {
      const cost = expectedCost.get(costKey) ?? (isMutation ? MUTATION_COST : 0)
      const { ticket, sentAt } = await admit(cost)
      stats.requests++
      let response: Response
      try {
        response = await doFetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-shopify-access-token': opts.accessToken },
          body: JSON.stringify({ query, variables, operationName }),
        })
      } catch (error) {
        settle(ticket, sentAt, undefined)
        if (++failures > maxRetries)
          throw new PlatformUnavailableError(`${operationName}: ${(error as Error).message}`)
        stats.retried++
        await sleep(backoff(failures, retryBaseMs))
        continue
      }
      if (response.status >= 500 || response.status === 429) {
        settle(ticket, sentAt, undefined)
        await response.body?.cancel()
        if (++failures > maxRetries) {
          throw new PlatformUnavailableError(`${operationName}: HTTP ${response.status}`, response.status)
        }
        stats.retried++
        await sleep(backoff(failures, retryBaseMs))
        continue
      }
      if (response.status >= 300) {
        settle(ticket, sentAt, undefined)
        await response.body?.cancel()
        throw new PlatformUnavailableError(`${operationName}: HTTP ${response.status}`, response.status)
      }
      let body: GraphQLResponse<T>
      try {
        body = (await response.json()) as GraphQLResponse<T>
      } catch (error) {
        settle(ticket, sentAt, undefined)
        throw new PlatformUnavailableError(
          `${operationName}: unreadable answer (${(error as Error).message})`,
        )
      }
      const costInfo = body?.extensions?.cost
      settle(ticket, sentAt, costInfo)
      if (typeof costInfo?.requestedQueryCost === 'number' && costInfo.requestedQueryCost > 0)
        expectedCost.set(costKey, costInfo.requestedQueryCost)
      if (typeof costInfo?.actualQueryCost === 'number') stats.pointsSpent += costInfo.actualQueryCost
      const throttled = body?.errors?.some(
        (e) => e.extensions?.code === 'THROTTLED' || e.message === 'Throttled',
      )
      if (throttled) {
        stats.throttled++
        const waitMs = throttleWaitMs(costInfo)
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

  return { shop: opts.shop, request, stats }
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
