import type { AddressInfo } from 'node:net'
import { createEmulator, type Emulator } from '@teiki/shopify-emulator'
import type pg from 'pg'
import { type RunBillingOptions, runBilling } from '../../src/billing/run.ts'
import { SUBSCRIBED_TOPICS } from '../../src/features/webhooks/topics.ts'
import type { AppInstance, BuildAppOptions } from '../../src/http/app.ts'
import { hashSecret } from '../../src/http/auth.ts'
import { type Jobs, startJobs } from '../../src/jobs/boss.ts'
import { toGid } from '../../src/platform/gid.ts'
import { fetchSubscriptionContract } from '../../src/platform/operations/subscription-contract.ts'
import type { ShopClients } from '../../src/platform/shop-clients.ts'
import { findInstalledShop, type ShopRow, upsertShopInstall } from '../../src/platform/shops-repo.ts'
import { upsertContracts } from '../../src/sync/contracts-repo.ts'
import { fullSync } from '../../src/sync/full-sync.ts'
import { contractRecord, lineRecords } from '../../src/sync/records.ts'
import { buildTestApp, TEST_API_KEY, TEST_API_SECRET, testPool, useStarted } from './fixtures.ts'

/** The emulator's "now" of the generated history; billing tests run their clock from here. */
export const EMULATOR_NOW = new Date('2026-11-22T00:00:00Z')
/** 10:00 in Tokyo on Wednesday 25 November 2026: the shops' default billing hour, the runs' "now". */
export const T0 = new Date('2026-11-25T01:00:00Z')
/** A day before T0: a contract billed on it is due at T0. */
export const DUE = new Date('2026-11-24T01:00:00Z')
/** A next billing date no run of the tests reaches (contracts moved out of the way). */
export const FAR = new Date('2027-06-01T01:00:00Z')

export type BillingEnv = {
  pool: pg.Pool
  app: AppInstance
  jobs: Jobs | undefined
  emulator: Emulator
  url: string
  /** The app's shared per-shop clients (the ones its routes and engine pace with). */
  clients: ShopClients
  shop(domain: string): Promise<ShopRow>
  run(domain: string, now: Date, opts?: Partial<RunBillingOptions>): ReturnType<typeof runBilling>
  /** chargeableContracts on this env's emulator. */
  chargeable(domain: string, count: number): number[]
  /** setNextBillingDates on this env. */
  setNextBillingDates(domain: string, dates: ReadonlyMap<number, Date>): Promise<void>
  /** refreshMirror on this env. */
  refreshMirror(domain: string, ids: number[]): Promise<void>
  /** attemptsOf on this env's emulator. */
  attempts(domain: string, contractId: number): ReturnType<typeof attemptsOf>
  close(): Promise<void>
}

type BillingEnvOptions = Parameters<typeof startBillingEnv>[0]

/**
 * The file's billing env: started before its tests (vitest's beforeAll, 2 minutes allowed),
 * closed after them. The object answered is filled in when it has started.
 */
export const useBillingEnv = (opts: BillingEnvOptions) => useStarted(() => startBillingEnv(opts), 120_000)

/**
 * The app (its billing engine registered, as in production) on an in-process emulator, each
 * shop installed and synced. `webhooks`: the app listens and the emulator delivers billing
 * webhooks to it; otherwise outcomes come only from polling.
 */
export async function startBillingEnv(opts: {
  shops: Array<{ domain: string; contracts: number }>
  throttle?: boolean | { restoreRate: number; bucketSize: number }
  billingDelayMs?: number
  webhooks?: boolean
  app?: Partial<BuildAppOptions>
  /** Start pg-boss in this schema (its own per test file: workers must not take other files' jobs). */
  jobsSchema?: string
  /** Fill the mirror by bulk export, as a first sync does (default: the paged sync). */
  bulkSync?: boolean
  /** The database (default: the test run's); closed with the env. */
  pool?: pg.Pool
  /** With `webhooks`, these topics too (beside the billing attempts'). */
  moreTopics?: string[]
}): Promise<BillingEnv> {
  const pool = opts.pool ?? testPool()
  const jobs = opts.jobsSchema ? await startJobs({ db: pool, schema: opts.jobsSchema }) : undefined
  let url = ''
  const app = await buildTestApp(pool, {
    platform: { adminOrigin: () => url, clientRetry: { maxRetries: 4, retryBaseMs: 5 } },
    ...(jobs ? { jobs } : {}),
    ...opts.app,
  })
  let callbackUrl: string | undefined
  if (opts.webhooks) {
    await app.listen({ port: 0, host: '127.0.0.1' })
    callbackUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/webhooks`
  } else {
    await app.ready()
  }
  const emulator = await createEmulator({
    shops: opts.shops,
    now: EMULATOR_NOW,
    throttle: opts.throttle ?? false,
    apiKey: TEST_API_KEY,
    apiSecret: TEST_API_SECRET,
    ...(opts.billingDelayMs === undefined ? {} : { billingDelayMs: opts.billingDelayMs }),
    ...(callbackUrl
      ? {
          webhooks: {
            callbackUrl,
            topics: [
              ...SUBSCRIBED_TOPICS.filter((t) => t.startsWith('subscription_billing_attempts/')),
              ...(opts.moreTopics ?? []),
            ],
            retryBaseMs: 20,
          },
        }
      : {}),
  })
  url = (await emulator.listen(0)).url
  const clients = app.shopClients
  for (const { domain } of opts.shops) {
    const install = emulator.install(domain)
    await upsertShopInstall(pool, {
      domain,
      accessToken: install.accessToken,
      scopes: install.scopes,
      secretHash: hashSecret('s3cret-billing'),
    })
    const shop = (await findInstalledShop(pool, domain))!
    await fullSync(pool, clients.clientFor(shop), shop, opts.bulkSync ? {} : { bulk: false })
  }
  const shop = async (domain: string) => (await findInstalledShop(pool, domain))!
  const env: BillingEnv = {
    pool,
    app,
    jobs,
    emulator,
    url,
    clients,
    shop,
    async run(domain, now, more = {}) {
      return runBilling({
        db: pool,
        clients,
        shop: await shop(domain),
        now,
        engine: app.billingEngine,
        wait: { intervalMs: 10, maxIntervalMs: 50, timeoutMs: 30_000 },
        ...more,
      })
    },
    chargeable: (domain, count) => chargeableContracts(emulator, domain, count),
    setNextBillingDates: (domain, dates) => setNextBillingDates(env, domain, dates),
    refreshMirror: (domain, ids) => refreshMirror(env, domain, ids),
    attempts: (domain, contractId) => attemptsOf(emulator, domain, contractId),
    /**
     * In the order that leaves nothing running against what is torn down: the workers finish
     * their jobs (however long a billing run takes), then the app stops taking webhooks and
     * requests, then the emulator stops delivering; only then does the queue's schema go.
     */
    async close() {
      await jobs?.stop(60_000)
      await app.close()
      await emulator.close()
      if (opts.jobsSchema) await pool.query(`drop schema if exists ${opts.jobsSchema} cascade`)
      await pool.end()
    },
  }
  return env
}

/**
 * `count` ACTIVE contracts of the shop that the emulator will charge successfully: their
 * payment methods are made valid (not revoked, card not expired, no 3-D Secure asked). How many generated
 * contracts are chargeable depends on the shop's domain (the generator's seed), so tests
 * arrange it instead of counting on it.
 */
export function chargeableContracts(emulator: Emulator, domain: string, count: number): number[] {
  const shop = emulator.store.shop(domain)!
  const picked = shop.contracts
    .filter((c) => c.status === 'ACTIVE' && c.paymentMethodId !== null)
    .slice(0, count)
  if (picked.length < count) throw new Error(`only ${picked.length} ACTIVE contracts with a payment method`)
  for (const c of picked) {
    const pm = shop.paymentMethods.find((p) => p.id === c.paymentMethodId)!
    pm.revokedAt = null
    pm.revokedReason = null
    pm.requiresAuthentication = false
    const card = pm.instrument as { expiryYear?: number }
    if (card.expiryYear !== undefined) card.expiryYear = new Date().getUTCFullYear() + 3
  }
  emulator.store.changed()
  return picked.map((c) => c.id)
}

/**
 * Arranges the platform: moves contracts' next billing dates (the merchant or an earlier
 * billing did it) and mirrors them, as the webhooks would.
 */
export async function setNextBillingDates(
  env: BillingEnv,
  domain: string,
  dates: ReadonlyMap<number, Date>,
): Promise<void> {
  const platform = env.emulator.store.shop(domain)!
  for (const [id, at] of dates) {
    const c = platform.contracts.find((x) => x.id === id)!
    c.nextBillingDate = at.getTime()
    c.updatedAt = Math.max(c.updatedAt + 1000, Date.now())
    c.revisionId += 1
  }
  env.emulator.store.changed()
  await refreshMirror(env, domain, [...dates.keys()])
}

/** Re-reads contracts from the platform into the mirror. */
export async function refreshMirror(env: BillingEnv, domain: string, ids: number[]): Promise<void> {
  const shop = await env.shop(domain)
  const client = env.clients.clientFor(shop)
  for (const id of ids) {
    const contract = await fetchSubscriptionContract(client, toGid('SubscriptionContract', id))
    if (contract) await upsertContracts(env.pool, shop.id, [contractRecord(contract)], lineRecords(contract))
  }
}

/** The platform's billing attempts of a contract (every one the app ever asked for). */
export function attemptsOf(emulator: Emulator, domain: string, contractId: number) {
  return emulator.store.shop(domain)!.billingAttempts.filter((a) => a.contractId === contractId)
}
