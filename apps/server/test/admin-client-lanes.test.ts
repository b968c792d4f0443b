import { describe, expect, it } from 'vitest'
import { INTERACTIVE_RESERVE } from '../src/platform/admission.ts'
import { PlatformBusyError } from '../src/platform/errors.ts'
import { clientWith, fakeClock, fakePlatform, json } from './support/fake-platform.ts'

// The two lanes of the paced client on the fake platform and clock (support/fake-platform.ts).
// A call made with a CallContext is a merchant's (interactive); one without is background.

const STANDARD = { size: 2000, restore: 100 }

/** A client whose calls are a merchant's while `lane.merchant` holds a context. */
function laneClient(clock = fakeClock(), extra = {}) {
  const platform = fakePlatform(clock, STANDARD)
  const lane: {
    merchant?: { deadline: number; signal: AbortSignal; lane?: 'interactive' | 'background' }
  } = {}
  const client = clientWith(platform.fetch, clock, { callContext: () => lane.merchant, ...extra })
  const asMerchant = <T>(
    fn: () => Promise<T>,
    deadline = Infinity,
    signal = new AbortController().signal,
  ) => {
    lane.merchant = { deadline, signal }
    try {
      return fn()
    } finally {
      lane.merchant = undefined
    }
  }
  /** A webhook delivery's call: background lane, with a deadline (request-context withinDelivery). */
  const asDelivery = <T>(fn: () => Promise<T>, deadline: number) => {
    lane.merchant = { deadline, signal: new AbortController().signal, lane: 'background' }
    try {
      return fn()
    } finally {
      lane.merchant = undefined
    }
  }
  const sent = (name: string) => platform.state.calls.filter((c) => c.operationName === name)
  return { clock, platform, client, asMerchant, asDelivery, sent }
}

const query = (name: string) => `query ${name} { a }`

describe('admin client lanes', () => {
  it("a delivery's call goes ahead of queued background work, keeps the reserve, and is dropped at its deadline", async () => {
    const { clock, platform, client, asDelivery, sent } = laneClient()
    platform.costs.Billing = 300
    platform.costs.Refetch = 75
    await client.request('Billing', query('Billing'))
    await asDelivery(() => client.request('Refetch', query('Refetch')), Infinity)
    const start = clock.t
    // Billing keeps the bucket at the reserve for a while; a delivery queues with it.
    const order: string[] = []
    const billing = Array.from({ length: 8 }, () =>
      client.request('Billing', query('Billing')).then(() => order.push('Billing')),
    )
    const delivery = asDelivery(() => client.request('Refetch', query('Refetch')), start + 4_000).then(() =>
      order.push('Refetch'),
    )
    await Promise.all([...billing, delivery])
    // Sent before the billing calls queued ahead of it (earliest deadline first), in time.
    expect(order.indexOf('Refetch')).toBeLessThan(order.length - 4)
    expect(sent('Refetch')).toHaveLength(2)
    expect(platform.state.lowest).toBeGreaterThanOrEqual(INTERACTIVE_RESERVE)
    // A delivery whose deadline comes before the refill can cover it is dropped, never sent late.
    const queued = Array.from({ length: 8 }, () => client.request('Billing', query('Billing')))
    const late = asDelivery(() => client.request('Refetch', query('Refetch')), clock.t + 10)
    await expect(late).rejects.toBeInstanceOf(PlatformBusyError)
    await Promise.all(queued)
    expect(sent('Refetch')).toHaveLength(2)
    expect(platform.state.lowest).toBeGreaterThanOrEqual(INTERACTIVE_RESERVE)
  })

  it('admits a merchant call ahead of waiting background calls, at once', async () => {
    const { clock, platform, client, asMerchant, sent } = laneClient()
    platform.costs.Billing = 300
    platform.costs.Detail = 683
    // Costs learnt (and the bucket told): 2000 − 300 − 683 = 1017 left.
    await client.request('Billing', query('Billing'))
    await asMerchant(() => client.request('Detail', query('Detail')))
    const start = clock.t
    const background = Array.from({ length: 6 }, () => client.request('Billing', query('Billing')))
    const merchant = asMerchant(() => client.request('Detail', query('Detail')))
    await Promise.all([...background, merchant])
    const order = platform.state.calls.slice(2).map((c) => c.operationName)
    // Background waits for 300 points above the reserve; the merchant's 683 are there now.
    expect(order[0]).toBe('Detail')
    expect(sent('Detail')[1]!.at).toBe(start)
    expect(order.filter((name) => name === 'Billing')).toHaveLength(6)
    expect(platform.state.throttled).toBe(0)
  })

  it('never lets background work spend the reserve, and still gives it the whole restore rate', async () => {
    const { clock, platform, client, asMerchant } = laneClient()
    platform.costs.Billing = 100
    platform.costs.Detail = 683
    const start = clock.t
    await Promise.all(Array.from({ length: 40 }, () => client.request('Billing', query('Billing'))))
    expect(platform.state.lowest).toBeGreaterThanOrEqual(INTERACTIVE_RESERVE)
    // 4,000 points from a full 2,000 bucket, 1,000 of it kept: (4,000 − 1,000) / 100 per s.
    expect(clock.t - start).toBeGreaterThanOrEqual(30_000)
    expect(clock.t - start).toBeLessThanOrEqual(31_000)
    // A merchant may spend the reserve.
    const before = clock.t
    await asMerchant(() => client.request('Detail', query('Detail')))
    expect(clock.t).toBe(before)
    expect(platform.state.lowest).toBeLessThan(INTERACTIVE_RESERVE)
  })

  it('keeps the reserve against what background calls take, not what they ask up front', async () => {
    const { clock, platform, client } = laneClient()
    // A sync page: asks 900 points while it runs, takes 300.
    platform.costs.Page = 900
    platform.actuals.Page = 300
    const start = clock.t
    for (let i = 0; i < 6; i++) await client.request('Page', query('Page'))
    expect(platform.state.lowest).toBeGreaterThanOrEqual(INTERACTIVE_RESERVE)
    // 1,800 points taken, 1,000 of them above the reserve: (1,800 − 1,000) / 100 per s, not
    // the 17 s that waiting for 900 + 1,000 before each page would take.
    expect(clock.t - start).toBe(8_000)
  })

  it('prices a new operation by its first answer before sending more of it', async () => {
    const { platform, client } = laneClient()
    platform.costs.Pricing = 75
    await client.request('Shop', query('Shop'))
    // Twenty workers start the same new read at once: one goes out, the rest wait for its cost.
    await Promise.all(Array.from({ length: 20 }, () => client.request('Pricing', query('Pricing'))))
    expect(platform.state.lowest).toBeGreaterThanOrEqual(INTERACTIVE_RESERVE)
    expect(platform.state.throttled).toBe(0)
  })

  it('treats a call without a request context as background', async () => {
    const { clock, platform, client, asMerchant, sent } = laneClient()
    platform.costs.Detail = 683
    await asMerchant(() => client.request('Detail', query('Detail')))
    // 1,317 left: enough for a merchant, not for background (683 + 1,000 kept).
    const before = clock.t
    await client.request('Detail', query('Detail'))
    expect(sent('Detail')[1]!.at - before).toBe(Math.ceil(((1683 - 1317) / 100) * 1000))
    await asMerchant(() => client.request('Detail', query('Detail')))
    expect(sent('Detail')[2]!.at).toBe(clock.t)
  })

  it('never sends a merchant call it could not admit before the deadline', async () => {
    const { clock, platform, client, asMerchant, sent } = laneClient()
    platform.costs.Detail = 683
    platform.costs.Drain = 1000
    await asMerchant(() => client.request('Detail', query('Detail')))
    await asMerchant(() => client.request('Drain', query('Drain')))
    // 317 left: the next detail read needs (683 − 317) / 100 s = 3.66 s; the deadline is in 2 s.
    const deadline = clock.t + 2_000
    const error = await asMerchant(() => client.request('Detail', query('Detail')), deadline).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(PlatformBusyError)
    expect((error as PlatformBusyError).reason).toBe('deadline')
    expect(sent('Detail')).toHaveLength(1)
    expect(clock.t).toBe(deadline)
    // A call whose deadline has passed is refused before waiting at all.
    const late = await asMerchant(() => client.request('Cheap', query('Cheap')), clock.t).catch((e) => e)
    expect((late as PlatformBusyError).reason).toBe('deadline')
    expect(sent('Cheap')).toHaveLength(0)
  })

  it('drops a waiting merchant call when its request ends, without sending it', async () => {
    const { platform, client, asMerchant, sent } = laneClient()
    platform.costs.Drain = 1000
    await asMerchant(() => client.request('Drain', query('Drain')))
    await asMerchant(() => client.request('Drain', query('Drain')))
    const request = new AbortController()
    const waiting = asMerchant(() => client.request('Drain', query('Drain')), Infinity, request.signal)
    request.abort()
    await expect(waiting).rejects.toMatchObject({ reason: 'ended' })
    expect(sent('Drain')).toHaveLength(2)
  })

  it('answers busy at once when the shop has too many merchant calls waiting', async () => {
    const { platform, client, asMerchant, sent } = laneClient(fakeClock(), { maxInteractiveWaiting: 3 })
    platform.costs.Drain = 1000
    await asMerchant(() => client.request('Drain', query('Drain')))
    await asMerchant(() => client.request('Drain', query('Drain')))
    // The bucket is empty: each of these waits 10 s for its turn.
    const waiting = Array.from({ length: 3 }, () => asMerchant(() => client.request('Drain', query('Drain'))))
    const refused = await asMerchant(() => client.request('Drain', query('Drain'))).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(PlatformBusyError)
    expect((refused as PlatformBusyError).reason).toBe('queue-full')
    await Promise.all(waiting)
    expect(sent('Drain')).toHaveLength(5)
  })

  it('does not sleep through a THROTTLED wait that would outlast the deadline', async () => {
    const clock = fakeClock()
    let calls = 0
    const fetch = (async () => {
      calls++
      return json({
        errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }],
        extensions: {
          cost: {
            requestedQueryCost: 683,
            actualQueryCost: null,
            throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 0, restoreRate: 100 },
          },
        },
      })
    }) as typeof globalThis.fetch
    const merchant = { deadline: clock.t + 5_000, signal: new AbortController().signal }
    const client = clientWith(fetch, clock, { callContext: () => merchant })
    const error = await client.request('Detail', query('Detail')).catch((e: unknown) => e)
    // Another process spent the bucket: 6.84 s to wait, 5 s left.
    expect((error as PlatformBusyError).reason).toBe('deadline')
    expect(calls).toBe(1)
    expect(clock.sleeps).toEqual([])
  })
})
