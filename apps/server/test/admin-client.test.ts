import { describe, expect, it } from 'vitest'
import { assertNoUserErrors, throttleWaitMs } from '../src/platform/admin-client.ts'
import { PlatformQueryError, PlatformUnavailableError, PlatformUserError } from '../src/platform/errors.ts'
import { clientWith, fakeClock, fakePlatform, json } from './support/fake-platform.ts'

describe('admin client: throttling', () => {
  it('waits (requested − currentlyAvailable) / restoreRate after a THROTTLED answer, then succeeds', async () => {
    const clock = fakeClock()
    const answers = [
      json({
        errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }],
        extensions: {
          cost: {
            requestedQueryCost: 500,
            actualQueryCost: null,
            throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 100, restoreRate: 100 },
          },
        },
      }),
      json({ data: { shop: { name: 'x' } } }),
    ]
    const client = clientWith((async () => answers.shift()!) as typeof fetch, clock)
    await expect(client.request('Shop', 'query Shop { shop { name } }')).resolves.toEqual({
      shop: { name: 'x' },
    })
    // (500 − 100) / 100 s = 4 s, plus the 10 ms margin. Then, as background work, it waits
    // until the bucket holds its 500 points above the 1,000 kept for merchants: the answer said
    // 100 at 100/s, 501 after the wait, (1,500 − 501) / 100 s = 9.99 s more.
    expect(clock.sleeps).toEqual([4010, 9990])
    expect(client.stats.throttled).toBe(1)
    expect(
      throttleWaitMs({
        requestedQueryCost: 50,
        throttleStatus: { maximumAvailable: 1000, currentlyAvailable: 0, restoreRate: 50 },
      }),
    ).toBe(1010)
  })

  it('waits for the bucket before sending an operation it knows to be expensive', async () => {
    const clock = fakeClock()
    const platform = fakePlatform(clock, { size: 1000, restore: 50 })
    platform.costs.Expensive = 800
    const client = clientWith(platform.fetch, clock)
    await client.request('Expensive', 'query Expensive { a }')
    expect(clock.sleeps).toEqual([])
    await client.request('Expensive', 'query Expensive { a }')
    // 200 left after the first. Background work keeps half of this small bucket (500) for
    // merchants, and 800 + 500 is more than the bucket: it waits for a full bucket,
    // 800 more at 50/s = 16 s, slept before the second was sent.
    expect(clock.sleeps).toEqual([16_000])
    expect(platform.state.throttled).toBe(0)
    expect(platform.state.calls.map((c) => c.at - platform.state.calls[0]!.at)).toEqual([0, 16_000])
  })

  it('spaces concurrent callers so they never spend the same points', async () => {
    const clock = fakeClock()
    const platform = fakePlatform(clock, { size: 50, restore: 10 })
    const client = clientWith(platform.fetch, clock)
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => client.request('Pause', `mutation Pause { p${i} }`)),
    )
    expect(results).toHaveLength(30)
    expect(platform.state.throttled).toBe(0)
    expect(client.stats.throttled).toBe(0)
    // 30 × 10 points through a 50-point bucket refilling 10/s, half of it (25) kept for
    // merchants: (300 − 25) / 10 = 27.5 s.
    const last = platform.state.calls.at(-1)!.at - platform.state.calls[0]!.at
    expect(last).toBeGreaterThanOrEqual(27_500)
    expect(last).toBeLessThanOrEqual(28_500)
  })
})

describe('admin client: failures', () => {
  it('retries 5xx answers and network errors, then succeeds', async () => {
    const clock = fakeClock()
    let n = 0
    const fetch = (async () => {
      n++
      if (n === 1) return new Response('<html>502 Bad Gateway</html>', { status: 502 })
      if (n === 2) throw new TypeError('fetch failed')
      if (n === 3) return json({ errors: 'Service Unavailable' }, 503)
      return json({ data: { ok: true } })
    }) as typeof globalThis.fetch
    const client = clientWith(fetch, clock)
    await expect(client.request('Q', 'query Q { a }')).resolves.toEqual({ ok: true })
    expect(n).toBe(4)
    expect(client.stats.retried).toBe(3)
    expect(clock.sleeps).toHaveLength(3)
  })

  it('gives up with PlatformUnavailableError after bounded retries of a 5xx', async () => {
    const clock = fakeClock()
    let n = 0
    const fetch = (async () => {
      n++
      return json({ errors: 'Internal Server Error' }, 500)
    }) as typeof globalThis.fetch
    const client = clientWith(fetch, clock, { maxRetries: 4 })
    const error = await client.request('Q', 'query Q { a }').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PlatformUnavailableError)
    expect((error as PlatformUnavailableError).status).toBe(500)
    expect(n).toBe(5)
    // Backoff grows (jittered ±25 %) and stays bounded.
    expect(clock.sleeps).toHaveLength(4)
    expect(clock.sleeps[3]!).toBeGreaterThan(clock.sleeps[0]!)
    expect(Math.max(...clock.sleeps)).toBeLessThanOrEqual(10_000)
  })

  it('fails, without retrying, on a status >= 300 or a body with neither data nor errors', async () => {
    let n = 0
    const redirect = clientWith((async () => {
      n++
      return new Response(null, { status: 302, headers: { location: '/login' } })
    }) as typeof fetch)
    await expect(redirect.request('Q', 'query Q { a }')).rejects.toBeInstanceOf(PlatformUnavailableError)
    expect(n).toBe(1)

    const empty = clientWith((async () => json({ extensions: {} })) as typeof fetch)
    await expect(empty.request('Q', 'query Q { a }')).rejects.toThrow(/neither data nor errors/)

    const notJson = clientWith((async () => new Response('<html>ok</html>', { status: 200 })) as typeof fetch)
    await expect(notJson.request('Q', 'query Q { a }')).rejects.toBeInstanceOf(PlatformUnavailableError)
  })

  it('reports GraphQL errors other than throttling as PlatformQueryError', async () => {
    const client = clientWith((async () =>
      json({ errors: [{ message: "Field 'nope' doesn't exist on type 'QueryRoot'" }] })) as typeof fetch)
    await expect(client.request('Q', 'query Q { nope }')).rejects.toBeInstanceOf(PlatformQueryError)
  })
})

describe('assertNoUserErrors', () => {
  it('returns a payload without userErrors and throws PlatformUserError otherwise', () => {
    const ok = { contract: { id: '1' }, userErrors: [] }
    expect(assertNoUserErrors('subscriptionContractPause', ok)).toBe(ok)
    const refused = {
      contract: null,
      userErrors: [
        { code: 'CONTRACT_TERMINATED', field: ['subscriptionContractId'], message: 'Cannot change' },
      ],
    }
    const error = (() => {
      try {
        assertNoUserErrors('subscriptionContractPause', refused)
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(PlatformUserError)
    expect((error as PlatformUserError).userErrors).toEqual(refused.userErrors)
    expect((error as PlatformUserError).message).toBe('subscriptionContractPause: Cannot change')
    expect(() => assertNoUserErrors('x', null)).toThrow(PlatformUnavailableError)
  })
})
