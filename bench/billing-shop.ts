import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BillingDelay, EmulatorOptions } from '@teiki/shopify-emulator'
import pg from 'pg'
import { migrate } from '../apps/server/src/db/migrate.ts'
import { createPool } from '../apps/server/src/db/pool.ts'
import { SUBSCRIBED_TOPICS } from '../apps/server/src/features/webhooks/topics.ts'
import { type AppInstance, buildApp } from '../apps/server/src/http/app.ts'
import { hashSecret } from '../apps/server/src/http/auth.ts'
import { type Jobs, startJobs } from '../apps/server/src/jobs/boss.ts'
import type { PacedShopClients } from '../apps/server/src/platform/shop-clients.ts'
import { findInstalledShop, type ShopRow, upsertShopInstall } from '../apps/server/src/platform/shops-repo.ts'
import { fullSync } from '../apps/server/src/sync/full-sync.ts'
import { type RemoteEmulator, startRemoteEmulator } from './remote-emulator.ts'

/** The billing benches' run moment (10:00 in Tokyo, the default billing hour): contracts are due an hour before it. */
export const RUN_AT = new Date('2026-11-25T01:00:00Z')

/**
 * How long a charge takes to settle on the platform in the benches: each attempt draws its own
 * delay between 2 and 12 s (seeded, so runs repeat). The platform documents no figure; a card
 * charge goes through the payment gateway and its outcome webhook follows seconds later, so a
 * fixed few milliseconds would let a run settle its attempts before the next ones are even sent.
 */
export const SETTLEMENT: BillingDelay = { minMs: 2_000, maxMs: 12_000, seed: 12 }

/**
 * The platform's webhook retries (shopify.dev changelog, "Updates to webhook retry mechanism",
 * 2024-09-10: "Webhooks will now be retried a total of 8 times over 4 hours using an
 * exponential backoff schedule"): the first try and 8 retries, the waits doubling from
 * 4 h / 255 ≈ 56 s, rather than the emulator's default of seconds, which would have a delivery
 * that times out during a run tried 8 times within 2 minutes.
 */
export const WEBHOOK_RETRY = { retryBaseMs: Math.round((4 * 3_600_000) / 255), maxAttempts: 9 }

/** The emulator's plans by rate limit (shopify.dev "GraphQL Admin API rate limits"). */
export const PLANS = {
  standard: { plan: 'Basic', restoreRate: 100, bucketSize: 2_000 },
  plus: { plan: 'Shopify Plus', restoreRate: 1_000, bucketSize: 20_000 },
} as const
export type PlanName = keyof typeof PLANS

export type BillingShop = {
  pool: pg.Pool
  /** The platform, in a worker thread of its own (bench/emulator-worker.ts). */
  emulator: RemoteEmulator
  app: AppInstance
  jobs: Jobs
  /** The app's own HTTP address (it listens on a free port, where the emulator sends webhooks). */
  appUrl: string
  clients: PacedShopClients
  shop: ShopRow
  domain: string
  dueIds: number[]
  close(): Promise<void>
}

/**
 * A billing bench's world, shaped as production runs: a fresh database `dbName` with its job
 * queue (pg-boss: the billing run, retry and outcome-poll jobs, with no per-minute tick: the
 * bench starts the day's run itself at RUN_AT, the wall clock being another day), the app
 * listening on HTTP, and an emulator in a worker thread (the platform is not on the app's event loop) that settles each charge after SETTLEMENT and
 * delivers the webhooks the app subscribes to (SUBSCRIBED_TOPICS, as `shopify.app.toml`
 * declares them; `main.ts` registers them the same way) to the app's /webhooks, retrying a
 * failed delivery on the platform's schedule (WEBHOOK_RETRY). One shop of
 * `due` × 3 generated contracts (they mix statuses and card states), installed (`secret` for
 * the standalone login) and synced on the Plus rate (a quick sync), then moved to `plan`; `due`
 * ACTIVE contracts with a valid card are due an hour before RUN_AT, every other ACTIVE one far
 * ahead, on the platform and in the mirror alike.
 */
export async function startBillingShop(opts: {
  baseUrl: string
  dbName: string
  domain: string
  due: number
  plan: PlanName
  apiKey: string
  apiSecret: string
  secret?: string
  emulator?: Pick<EmulatorOptions, 'billingDelayMs'>
  log: (line: string) => void
}): Promise<BillingShop> {
  const { domain } = opts
  // As main.ts makes it on PostgreSQL: generic plans (db/pool.ts, ADR 0004).
  const pool = createPool(await freshDatabase(opts.baseUrl, opts.dbName), 8, { genericPlans: true })
  await migrate(pool)
  const dataDir = await mkdtemp(join(tmpdir(), 'teiki-bench-billing-'))
  const emulator = await startRemoteEmulator({
    shops: [{ domain, contracts: Math.ceil(opts.due * 3), plan: PLANS.plus.plan }],
    now: '2026-11-22T00:00:00Z',
    apiKey: opts.apiKey,
    apiSecret: opts.apiSecret,
    billingDelayMs: SETTLEMENT,
    webhooks: { topics: [...SUBSCRIBED_TOPICS], ...WEBHOOK_RETRY },
    ...opts.emulator,
  })
  const jobs = await startJobs({ db: pool })
  let url = ''
  const app = await buildApp({
    db: pool,
    dataDir,
    platform: { adminOrigin: () => url, apiKey: opts.apiKey },
    apiSecret: opts.apiSecret,
    logger: { level: 'fatal' },
    jobs,
    billingJobs: { cron: false },
  })
  const close = async () => {
    await jobs.stop()
    await app.close()
    await emulator.close()
    await pool.end()
    await rm(dataDir, { recursive: true, force: true })
  }
  try {
    url = await emulator.listen(0)
    await app.listen({ port: 0, host: '127.0.0.1' })
    const appUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    await emulator.setCallbackUrl(`${appUrl}/webhooks`)
    const install = await emulator.install(domain)
    await upsertShopInstall(pool, {
      domain,
      accessToken: install.accessToken,
      scopes: install.scopes,
      ...(opts.secret ? { secretHash: hashSecret(opts.secret) } : {}),
    })
    const clients = app.shopClients
    const synced = (await findInstalledShop(pool, domain))!
    opts.log(`syncing ${Math.ceil(opts.due * 3)} contracts…`)
    await fullSync(pool, clients.clientFor(synced), synced)
    const dueIds = await arrangeDue(emulator, pool, synced.id, domain, opts.due)
    await emulator.setPlan(domain, PLANS[opts.plan].plan)
    const shop = (await findInstalledShop(pool, domain))!
    return { pool, emulator, app, jobs, appUrl, clients, shop, domain, dueIds, close }
  } catch (error) {
    await close()
    throw error
  }
}

/**
 * Waits until the shop's bucket is full, as a run at the billing hour finds it (one 1-point
 * read of the throttle status, made before the measured window).
 */
export async function waitForFullBucket(
  emulator: Pick<RemoteEmulator, 'graphql'>,
  domain: string,
): Promise<void> {
  const res = await emulator.graphql(domain, { query: '{ shop { id } }' })
  const { maximumAvailable, currentlyAvailable, restoreRate } = res.extensions!.cost.throttleStatus
  const ms = ((maximumAvailable - currentlyAvailable + 1) / restoreRate) * 1000
  await new Promise((resolve) => setTimeout(resolve, ms))
}

async function arrangeDue(
  emulator: RemoteEmulator,
  pool: pg.Pool,
  shopId: string,
  domain: string,
  due: number,
) {
  const dueAt = new Date(RUN_AT.getTime() - 3_600_000)
  const far = new Date('2027-06-01T01:00:00Z')
  const dueIds = await emulator.arrangeDue(domain, due, dueAt.getTime(), far.getTime())
  await pool.query(
    `update subscription_contracts set next_billing_date = case when id = any($2::bigint[]) then $3::timestamptz
       else $4::timestamptz end where shop_id = $1 and status = 'ACTIVE'`,
    [shopId, dueIds, dueAt, far],
  )
  return dueIds
}

async function freshDatabase(baseUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: baseUrl })
  await admin.connect()
  await admin.query(`drop database if exists ${name} with (force)`)
  await admin.query(`create database ${name}`)
  await admin.end()
  const target = new URL(baseUrl)
  target.pathname = `/${name}`
  return target.toString()
}
