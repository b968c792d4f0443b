import { type AdminClientOptions, createAdminClient } from '../../src/platform/admin-client.ts'

// The client against a fake platform: an injected fetch and a fake clock whose `sleep`
// advances time, so pacing is asserted on what was slept and sent, never on wall time.
// Everything else (the fake fetch, callers) takes no fake time: a sleep first lets whatever is
// pending at this instant happen, and one woken early by that (its signal) takes no time either.

export type Call = { operationName: string; at: number }

export function fakeClock() {
  const clock = {
    t: 1_000_000,
    sleeps: [] as number[],
    now: () => clock.t,
    sleep: async (ms: number, signal?: AbortSignal) => {
      for (let i = 0; i < 5 && !signal?.aborted; i++) await new Promise((r) => setImmediate(r))
      if (signal?.aborted) return
      clock.sleeps.push(ms)
      clock.t += ms
    },
  }
  return clock
}

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/** A leaky bucket like the platform's, on the fake clock; costs per operation name. */
export function fakePlatform(clock: ReturnType<typeof fakeClock>, bucket: { size: number; restore: number }) {
  // `lowest`: the fewest points the bucket kept after a call (its actual cost taken).
  const state = {
    available: bucket.size,
    at: clock.t,
    throttled: 0,
    lowest: bucket.size,
    calls: [] as Call[],
  }
  /** Requested cost per operation; `actuals`: what it really takes (the rest is given back). */
  const costs: Record<string, number> = {}
  const actuals: Record<string, number> = {}
  const status = () => ({
    maximumAvailable: bucket.size,
    currentlyAvailable: Math.floor(state.available),
    restoreRate: bucket.restore,
  })
  const fetch = (async (_url: string, init: RequestInit): Promise<Response> => {
    await Promise.resolve()
    const { operationName, query } = JSON.parse(String(init.body)) as { operationName: string; query: string }
    state.available = Math.min(bucket.size, state.available + ((clock.t - state.at) / 1000) * bucket.restore)
    state.at = clock.t
    state.calls.push({ operationName, at: clock.t })
    const requested = costs[operationName] ?? (query.startsWith('mutation') ? 10 : 1)
    if (requested > state.available) {
      state.throttled++
      return json({
        errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }],
        extensions: {
          cost: { requestedQueryCost: requested, actualQueryCost: null, throttleStatus: status() },
        },
      })
    }
    const actual = actuals[operationName] ?? requested
    state.available -= actual
    state.lowest = Math.min(state.lowest, state.available)
    return json({
      data: { ok: operationName },
      extensions: {
        cost: { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus: status() },
      },
    })
  }) as typeof globalThis.fetch
  return { state, costs, actuals, fetch }
}

export const clientWith = (
  fetch: typeof globalThis.fetch,
  clock = fakeClock(),
  extra: Partial<AdminClientOptions> = {},
) =>
  createAdminClient({
    shop: 'fake.myshopify.com',
    accessToken: 'shpat_fake',
    origin: 'http://platform.test',
    fetch,
    sleep: clock.sleep,
    now: clock.now,
    ...extra,
  })
