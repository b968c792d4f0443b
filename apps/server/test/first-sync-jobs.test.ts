import { createEmulator, type Emulator } from '@teiki/shopify-emulator'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type Jobs, startJobs } from '../src/jobs/boss.ts'
import { FIRST_SYNC_QUEUE, type QueueFirstSync, startFirstSyncJobs } from '../src/jobs/first-sync-jobs.ts'
import { createShopClients, type ShopClients } from '../src/platform/shop-clients.ts'
import { findInstalledShop, type ShopRow, upsertShopInstall } from '../src/platform/shops-repo.ts'
import { STAMP, TEST_API_KEY, TEST_API_SECRET, testDomain, testPool } from './support/fixtures.ts'

// The first sync of a shop installed by token exchange, as a queued job (jobs/first-sync-jobs.ts):
// queued without waiting for it, run once by whichever process takes it, printed there,
// retried three times, and never run twice at once for one shop.

const SCHEMA = `first_sync_${STAMP.replace(/\W/g, '_')}`
const CONTRACTS = 6

let pool: pg.Pool
let emulator: Emulator
let clients: ShopClients
/** Two "processes": two queues on one pg-boss schema, each with its workers and its console. */
const processes: Array<{ jobs: Jobs; queue: QueueFirstSync; printed: string[]; errors: string[] }> = []
/** The platform refuses the next this many syncs (the shop's client cannot be had). */
let refusals = 0

beforeAll(async () => {
  pool = testPool()
  emulator = await createEmulator({
    shops: ['once', 'twice', 'retried', 'failing'].map((name) => ({
      domain: testDomain(`fs-${name}`),
      contracts: CONTRACTS,
    })),
    now: new Date('2026-11-22T00:00:00Z'),
    throttle: false,
    apiKey: TEST_API_KEY,
    apiSecret: TEST_API_SECRET,
  })
  const url = (await emulator.listen(0)).url
  const paced = createShopClients({ adminOrigin: () => url, client: { maxRetries: 0, retryBaseMs: 1 } })
  clients = {
    clientFor(shop) {
      if (refusals > 0) {
        refusals -= 1
        throw new Error('platform unreachable')
      }
      return paced.clientFor(shop)
    },
  }
  for (let i = 0; i < 2; i++) {
    const jobs = await startJobs({ db: pool, schema: SCHEMA })
    const printed: string[] = []
    const errors: string[] = []
    const queue = await startFirstSyncJobs({
      jobs,
      db: pool,
      clients,
      print: (line) => printed.push(line),
      log: { error: (_obj, msg) => errors.push(msg) },
      pollingIntervalSeconds: 0.5,
      retryDelaySeconds: 1,
    })
    processes.push({ jobs, queue, printed, errors })
  }
})
afterAll(async () => {
  for (const p of processes) await p.jobs.stop(5_000)
  await emulator.close()
  await pool.end()
})

async function installed(name: string): Promise<ShopRow> {
  const domain = testDomain(`fs-${name}`)
  const install = emulator.install(domain)
  await upsertShopInstall(pool, { domain, accessToken: install.accessToken, scopes: install.scopes })
  return (await findInstalledShop(pool, domain))!
}

const contractsOf = async (shop: ShopRow) =>
  (
    await pool.query<{ n: number }>(
      'select count(*)::int as n from subscription_contracts where shop_id = $1',
      [shop.id],
    )
  ).rows[0]!.n

const linesOf = (shop: ShopRow) =>
  processes
    .flatMap((p) => p.printed)
    .filter((line) => line.includes(`${shop.domain} をインストールし同期しました`))

const jobsOf = async (shop: ShopRow) =>
  (
    await pool.query<{ state: string; retry_count: number }>(
      `select state, retry_count from ${SCHEMA}.job where name = $1 and singleton_key = $2`,
      [FIRST_SYNC_QUEUE, shop.id],
    )
  ).rows

describe('first-sync job', () => {
  it('is queued at once and fills the mirror; the process that ran it prints the line', async () => {
    const shop = await installed('once')
    await processes[0]!.queue(shop)
    // Queued, not run: the install's request does not wait for the sync.
    expect(await contractsOf(shop)).toBe(0)
    expect(linesOf(shop)).toEqual([])
    await vi.waitFor(() => expect(linesOf(shop)).toHaveLength(1), { timeout: 30_000, interval: 100 })
    expect(
      linesOf(shop)[0]!.startsWith(
        `[teiki] ${shop.domain} をインストールし同期しました: 契約 ${CONTRACTS} 件`,
      ),
    ).toBe(true)
    expect(await contractsOf(shop)).toBe(CONTRACTS)
    expect((await findInstalledShop(pool, shop.domain))!.synced_at).not.toBeNull()
  })

  it('two processes queueing one shop at once leave one sync', async () => {
    const shop = await installed('twice')
    await Promise.all(processes.map((p) => p.queue(shop)))
    expect(await jobsOf(shop)).toHaveLength(1)
    await vi.waitFor(() => expect(linesOf(shop)).toHaveLength(1), { timeout: 30_000, interval: 100 })
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect(linesOf(shop)).toHaveLength(1)
    expect(await contractsOf(shop)).toBe(CONTRACTS)
  })

  it('a sync the platform refuses is retried, and prints once it is done', async () => {
    const shop = await installed('retried')
    refusals = 1
    await processes[0]!.queue(shop)
    await vi.waitFor(() => expect(linesOf(shop)).toHaveLength(1), { timeout: 30_000, interval: 100 })
    expect(await contractsOf(shop)).toBe(CONTRACTS)
    expect(await jobsOf(shop)).toEqual([{ state: 'completed', retry_count: 1 }])
    const errors = processes.flatMap((p) => p.errors)
    expect(errors).toContain('first sync failed (it is retried)')
  })

  it('is tried four times in all (three retries), then left failed', async () => {
    const shop = await installed('failing')
    const errorsBefore = processes.flatMap((p) => p.errors).length
    refusals = 4
    await processes[1]!.queue(shop)
    await vi.waitFor(async () => expect(await jobsOf(shop)).toEqual([{ state: 'failed', retry_count: 3 }]), {
      timeout: 45_000,
      interval: 200,
    })
    expect(processes.flatMap((p) => p.errors).length - errorsBefore).toBe(4)
    expect(refusals).toBe(0)
    expect(linesOf(shop)).toEqual([])
    expect(await contractsOf(shop)).toBe(0)
  }, 60_000)
})
