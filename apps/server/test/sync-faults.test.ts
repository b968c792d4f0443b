import { createEmulator, type Emulator } from '@teiki/shopify-emulator'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashSecret } from '../src/http/auth.ts'
import { createAdminClient, type PacedAdminClient } from '../src/platform/admin-client.ts'
import { toGid } from '../src/platform/gid.ts'
import { setContractNextBillingDate } from '../src/platform/operations/subscription-contract-next-billing-date.ts'
import {
  activateSubscriptionContract,
  pauseSubscriptionContract,
} from '../src/platform/operations/subscription-contract-status.ts'
import { findInstalledShop, upsertShopInstall } from '../src/platform/shops-repo.ts'
import { fullSync } from '../src/sync/full-sync.ts'
import { testPool } from './support/fixtures.ts'
import { mirrorDigest, platformDigest } from './support/mirror-compare.ts'

// A misbehaving platform: 20 % of Admin API requests answer 5xx and some are THROTTLED
// whatever the bucket holds. Syncs and mutations must still succeed and the mirror must end
// where the platform is. No timing assertions: the client's counters and the emulator's call
// log say what happened.

const tag = `${process.pid}-${Date.now().toString(36)}`
let pool: pg.Pool

beforeAll(() => {
  pool = testPool()
})
afterAll(async () => {
  await pool.end()
})

async function setUp(domain: string, emulatorOpts: Parameters<typeof createEmulator>[0]) {
  const emulator = await createEmulator({
    now: new Date('2026-11-22T00:00:00Z'),
    bulkDelayMs: 5,
    ...emulatorOpts,
  })
  const { url } = await emulator.listen(0)
  const install = emulator.install(domain)
  await upsertShopInstall(pool, {
    domain,
    accessToken: install.accessToken,
    scopes: install.scopes,
    secretHash: hashSecret('s3cret-faults'),
  })
  // Short backoff so a test does not sleep seconds; the bound on retries is the default.
  const client = createAdminClient({
    shop: domain,
    accessToken: install.accessToken,
    origin: url,
    retryBaseMs: 5,
  })
  return { emulator, client }
}

describe('sync and mutations against a failing platform', () => {
  const DOMAIN = `faults-${tag}.myshopify.com`
  let emulator: Emulator
  let client: PacedAdminClient
  const shopRow = async () => (await findInstalledShop(pool, DOMAIN))!
  const platform = () => emulator.store.shop(DOMAIN)!

  beforeAll(async () => {
    ;({ emulator, client } = await setUp(DOMAIN, {
      shops: [{ domain: DOMAIN, contracts: 150 }],
      faults: { errorRate: 0.2, throttleNext: 3, seed: 7 },
    }))
  })
  afterAll(() => emulator.close())

  it('converges after a full sync, mutations and an incremental sync, with no failure surfaced', async () => {
    const first = await fullSync(pool, client, await shopRow())
    expect(first.bulkFallbacks).toBeUndefined()
    expect(first.contracts).toBe(platform().contracts.length)
    expect(await mirrorDigest(pool, (await shopRow()).id)).toEqual(platformDigest(platform()))

    emulator.faults.set({ throttleNext: 4 })
    const active = platform().contracts.filter((c) => c.status === 'ACTIVE')
    const paused = platform().contracts.filter((c) => c.status === 'PAUSED')
    expect(active.length).toBeGreaterThanOrEqual(20)
    expect(paused.length).toBeGreaterThanOrEqual(2)
    const toPause = active.slice(0, 10)
    const toMove = active.slice(10, 20)
    const toActivate = paused.slice(0, 4)
    const day = (n: number) => new Date(Date.UTC(2026, 11, 1 + n, 15)).toISOString()
    const results = await Promise.all([
      ...toPause.map((c) => pauseSubscriptionContract(client, toGid('SubscriptionContract', c.id))),
      ...toActivate.map((c) => activateSubscriptionContract(client, toGid('SubscriptionContract', c.id))),
      ...toMove.map((c, i) =>
        setContractNextBillingDate(client, toGid('SubscriptionContract', c.id), day(i)),
      ),
    ])
    expect(results.map((r) => r.status)).toEqual([
      ...toPause.map(() => 'PAUSED'),
      ...toActivate.map(() => 'ACTIVE'),
      ...toMove.map(() => 'ACTIVE'),
    ])
    for (const c of toPause) expect(c.status).toBe('PAUSED')
    for (const [i, c] of toMove.entries()) expect(new Date(c.nextBillingDate!).toISOString()).toBe(day(i))

    const incremental = await fullSync(pool, client, await shopRow())
    expect(incremental.bulk).toBeUndefined()
    expect(incremental.contracts).toBeGreaterThanOrEqual(24)
    expect(await mirrorDigest(pool, (await shopRow()).id)).toEqual(platformDigest(platform()))

    const events = await pool.query<{ n: number }>(
      `select count(*)::int as n from contract_events
       where shop_id = $1 and type = 'status_changed' and payload->>'inferred' is null`,
      [(await shopRow()).id],
    )
    expect(events.rows[0]!.n).toBe(toPause.length + toActivate.length)

    // The faults did happen, and were absorbed.
    expect(client.stats.retried).toBeGreaterThan(0)
    expect(client.stats.throttled).toBeGreaterThanOrEqual(7)
  })
})

describe('a burst of mutations through a small bucket', () => {
  const DOMAIN = `burst-${tag}.myshopify.com`
  let emulator: Emulator
  let client: PacedAdminClient

  beforeAll(async () => {
    ;({ emulator, client } = await setUp(DOMAIN, {
      shops: [{ domain: DOMAIN, contracts: 120 }],
      throttle: { restoreRate: 1000, bucketSize: 200 },
    }))
  })
  afterAll(() => emulator.close())

  it('sends 200 concurrent mutations with no failure and (almost) no THROTTLED answer', async () => {
    const open = emulator.store
      .shop(DOMAIN)!
      .contracts.filter((c) => c.status !== 'CANCELLED' && c.status !== 'EXPIRED')
    const date = (i: number) => new Date(Date.UTC(2027, 0, 1 + (i % 28), 15)).toISOString()
    const settled = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        setContractNextBillingDate(client, toGid('SubscriptionContract', open[i % open.length]!.id), date(i)),
      ),
    )
    expect(settled.filter((s) => s.status === 'rejected')).toEqual([])
    const calls = emulator.callLog.filter((c) =>
      c.rootFields.includes('subscriptionContractSetNextBillingDate'),
    )
    const throttledAnswers = calls.length - 200
    expect(throttledAnswers).toBe(client.stats.throttled)
    expect(throttledAnswers).toBeLessThanOrEqual(3)
  })
})
