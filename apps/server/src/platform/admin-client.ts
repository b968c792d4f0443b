import { PlatformQueryError, PlatformUnavailableError } from './errors.ts'

export const API_VERSION = '2025-04'

export type ThrottleStatus = { maximumAvailable: number; currentlyAvailable: number; restoreRate: number }
type GraphQLResponse<T> = {
  data?: T
  errors?: Array<{ message: string; extensions?: { code?: string } }>
  extensions?: {
    cost?: { requestedQueryCost?: number; actualQueryCost?: number | null; throttleStatus?: ThrottleStatus }
  }
}

export type AdminClientOptions = {
  shop: string
  accessToken: string
  /** `https://{shop}` on the platform; the emulator's origin locally. */
  origin: string
  fetch?: typeof fetch
  maxRetries?: number
  sleep?: (ms: number) => Promise<void>
}

export type AdminClient = {
  readonly shop: string
  request<T>(operationName: string, query: string, variables?: Record<string, unknown>): Promise<T>
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * The one Admin GraphQL client. It never fails because of throttling: a THROTTLED answer
 * waits exactly as long as the bucket needs to refill for the query's cost. 5xx and network
 * errors are retried with bounded exponential backoff. A status >= 300 or a body with
 * neither data nor errors is a failure (product spec section 8).
 */
export function createAdminClient(opts: AdminClientOptions): AdminClient {
  const url = `${opts.origin.replace(/\/$/, '')}/admin/api/${API_VERSION}/graphql.json`
  const doFetch = opts.fetch ?? fetch
  const sleep = opts.sleep ?? defaultSleep
  const maxRetries = opts.maxRetries ?? 6

  async function request<T>(
    operationName: string,
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<T> {
    let failures = 0
    for (;;) {
      let response: Response
      try {
        response = await doFetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-shopify-access-token': opts.accessToken },
          body: JSON.stringify({ query, variables, operationName }),
        })
      } catch (error) {
        if (++failures > maxRetries)
          throw new PlatformUnavailableError(`${operationName}: ${(error as Error).message}`)
        await sleep(backoff(failures))
        continue
      }
      if (response.status >= 500 || response.status === 429) {
        await response.body?.cancel()
        if (++failures > maxRetries) {
          throw new PlatformUnavailableError(`${operationName}: HTTP ${response.status}`, response.status)
        }
        await sleep(backoff(failures))
        continue
      }
      if (response.status >= 300) {
        throw new PlatformUnavailableError(`${operationName}: HTTP ${response.status}`, response.status)
      }
      const body = (await response.json()) as GraphQLResponse<T>
      const throttled = body.errors?.some(
        (e) => e.extensions?.code === 'THROTTLED' || e.message === 'Throttled',
      )
      if (throttled) {
        await sleep(throttleWaitMs(body.extensions?.cost))
        continue
      }
      if (body.errors?.length) throw new PlatformQueryError(operationName, body.errors)
      if (body.data === undefined || body.data === null) {
        throw new PlatformUnavailableError(`${operationName}: response had neither data nor errors`)
      }
      return body.data
    }
  }

  return { shop: opts.shop, request }
}

function backoff(failures: number): number {
  return Math.min(8_000, 200 * 2 ** (failures - 1)) * (0.75 + Math.random() * 0.5)
}

/** (requested - currentlyAvailable) / restoreRate seconds, as the platform asks. */
export function throttleWaitMs(cost: NonNullable<GraphQLResponse<unknown>['extensions']>['cost']): number {
  const status = cost?.throttleStatus
  const requested = cost?.requestedQueryCost ?? 50
  if (!status || status.restoreRate <= 0) return 1_000
  const missing = Math.max(0, requested - status.currentlyAvailable)
  return Math.ceil((missing / status.restoreRate) * 1000) + 10
}
