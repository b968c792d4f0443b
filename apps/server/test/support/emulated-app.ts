import type { AddressInfo } from 'node:net'
import { createEmulator, type Emulator, type EmulatorOptions } from '@teiki/shopify-emulator'
import type pg from 'pg'
import { beforeEach } from 'vitest'
import { SUBSCRIBED_TOPICS } from '../../src/features/webhooks/topics.ts'
import type { AppInstance, buildApp } from '../../src/http/app.ts'
import { hashSecret } from '../../src/http/auth.ts'
import { type Jobs, startJobs } from '../../src/jobs/boss.ts'
import { type AdminClient, createAdminClient } from '../../src/platform/admin-client.ts'
import { appPlanRecord } from '../../src/platform/app-plan-record.ts'
import { fetchActiveAppSubscriptions } from '../../src/platform/operations/app-subscriptions.ts'
import { findInstalledShop, updateAppPlan, upsertShopInstall } from '../../src/platform/shops-repo.ts'
import { fullSync } from '../../src/sync/full-sync.ts'
import {
  buildTestApp,
  QUICK_RETRIES,
  TEST_API_KEY,
  TEST_API_SECRET,
  testDomain,
  testPool,
  useStarted,
} from './fixtures.ts'

export type EmulatedApp = {
  pool: pg.Pool
  app: AppInstance
  emulator: Emulator
  /** The emulator's origin (its Admin API and control routes). */
  url: string
  shopIds: Record<string, string>
  /** A client per shop for tests that act on the platform the way the app does. */
  clients: Record<string, AdminClient>
  /** The job queue, when started (`jobsSchema`). */
  jobs?: Jobs
  /** The app's full sync of one installed shop (its mirror filled from the platform). */
  sync(domain: string, opts?: Parameters<typeof fullSync>[3]): ReturnType<typeof fullSync>
  close(): Promise<void>
}

type EmulatedAppOptions = Parameters<typeof startEmulatedApp>[0]

/** An emulated app with two shops: `main` and `other`, whose ids must never work from `main`. */
export type MainAndOther = EmulatedApp & { main: string; other: string }

type MainAndOtherOptions = Omit<EmulatedAppOptions, 'shops'> & {
  /** The two shops' contracts (default 20, so `main` has the 130-variant box product, and 5). */
  contracts?: [number, number]
  /** Whether both are synced (paged) before the tests (default true). */
  sync?: boolean
}

/** Two shops, `name` (main) and `name-other`, on an emulated app with `opts`. */
export async function startMainAndOther(name: string, opts: MainAndOtherOptions): Promise<MainAndOther> {
  const { contracts = [20, 5], sync = true, ...appOpts } = opts
  const main = testDomain(name)
  const other = testDomain(`${name}-other`)
  const shops = [
    { domain: main, contracts: contracts[0] },
    { domain: other, contracts: contracts[1] },
  ]
  const env = await startEmulatedApp({ ...appOpts, shops })
  if (sync) for (const domain of [main, other]) await env.sync(domain, { bulk: false })
  return { ...env, main, other }
}

/** startMainAndOther for the file (useStarted, 2 minutes allowed); the emulator's faults cleared before each test. */
export function useMainAndOther(name: string, opts: MainAndOtherOptions): MainAndOther {
  const env = useStarted(() => startMainAndOther(name, opts), 120_000)
  beforeEach(() => env.emulator.faults.reset())
  return env
}

/**
 * The file's emulated app: started before its tests (vitest's beforeAll; `timeout` ms allowed),
 * closed after them. The object answered is filled in when it has started.
 */
export const useEmulatedApp = (opts: EmulatedAppOptions, timeout?: number) =>
  useStarted(() => startEmulatedApp(opts), timeout)

/**
 * The app wired to an in-process emulator, with each shop installed (offline token from the
 * emulator, the given `secret` for the standalone login) and short client retries so fault
 * tests finish quickly. Throttling is off; tests that need it build their own emulator.
 * `webhooks`: the app listens and the emulator delivers every subscribed topic to it.
 */
export async function startEmulatedApp(opts: {
  shops: Array<{ domain: string; contracts: number; declinedScopes?: string[] }>
  secret: string
  webhooks?: boolean
  /** More options of the app (a mailer sending to a test SMTP catcher, say). */
  appOptions?: Partial<Parameters<typeof buildApp>[0]>
  /**
   * Runs the app's jobs on pg-boss in this schema (the file's own, so no other file's workers
   * take its jobs), every cron off and quick polling.
   */
  jobsSchema?: string
  /** More options of the emulator (`themeFilesExemption`, say). */
  emulatorOptions?: Partial<EmulatorOptions>
}): Promise<EmulatedApp> {
  const pool = testPool()
  const jobs: Jobs | undefined = opts.jobsSchema
    ? await startJobs({ db: pool, schema: opts.jobsSchema })
    : undefined
  const quick = { cron: false, pollingIntervalSeconds: 0.5 }
  const emulator = await createEmulator({
    shops: opts.shops,
    now: new Date('2026-11-22T00:00:00Z'),
    throttle: false,
    apiKey: TEST_API_KEY,
    apiSecret: TEST_API_SECRET,
    ...(opts.webhooks
      ? { billingDelayMs: 5, webhooks: { topics: [...SUBSCRIBED_TOPICS], retryBaseMs: 20 } }
      : {}),
    ...opts.emulatorOptions,
  })
  const url = (await emulator.listen(0)).url
  const app = await buildTestApp(pool, {
    platform: { adminOrigin: () => url, clientRetry: QUICK_RETRIES },
    ...(jobs
      ? {
          jobs,
          exportJobs: quick,
          mailJobs: quick,
          batchJobs: quick,
          cdpJobs: quick,
          billingJobs: { cron: false },
        }
      : {}),
    ...opts.appOptions,
  })
  if (opts.webhooks) {
    await app.listen({ port: 0, host: '127.0.0.1' })
    emulator.webhooks.setCallbackUrl(
      `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/webhooks`,
    )
  } else {
    await app.ready()
  }
  const shopIds: Record<string, string> = {}
  const clients: Record<string, AdminClient> = {}
  for (const { domain } of opts.shops) {
    const install = emulator.install(domain)
    const row = await upsertShopInstall(pool, {
      domain,
      accessToken: install.accessToken,
      scopes: install.scopes,
      secretHash: hashSecret(opts.secret),
    })
    shopIds[domain] = row.id
    clients[domain] = createAdminClient({ shop: domain, accessToken: install.accessToken, origin: url })
    // The app plan the platform reports, as an install's first sync stores it before anything
    // else (the plan's features are checked on every route of a tiered feature).
    const [active] = await fetchActiveAppSubscriptions(clients[domain])
    await updateAppPlan(pool, row.id, active ? appPlanRecord(active) : null)
  }
  return {
    pool,
    app,
    emulator,
    url,
    shopIds,
    clients,
    ...(jobs ? { jobs } : {}),
    sync: async (domain, syncOpts) =>
      fullSync(pool, clients[domain]!, (await findInstalledShop(pool, domain))!, syncOpts),
    async close() {
      await jobs?.stop(5_000).catch(() => {})
      await app.close()
      await emulator.close()
      await pool.end()
    },
  }
}
