import { type ChildProcess, spawn } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEmulator, type Emulator } from '@teiki/shopify-emulator'
import pg from 'pg'
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest'
import { migrate } from '../../src/db/migrate.ts'
import { createPool, setPreparedStatements } from '../../src/db/pool.ts'
import { SUBSCRIBED_TOPICS } from '../../src/features/webhooks/topics.ts'
import { hashSecret, INTERNAL_HMAC_HEADER } from '../../src/http/auth.ts'
import { toGid } from '../../src/platform/gid.ts'
import { fetchSubscriptionContract } from '../../src/platform/operations/subscription-contract.ts'
import { createShopClients } from '../../src/platform/shop-clients.ts'
import { findInstalledShop, type ShopRow, upsertShopInstall } from '../../src/platform/shops-repo.ts'
import { upsertContracts } from '../../src/sync/contracts-repo.ts'
import { fullSync } from '../../src/sync/full-sync.ts'
import { contractRecord, lineRecords } from '../../src/sync/records.ts'
import { EMULATOR_NOW } from './billing.ts'
import { TEST_API_KEY, TEST_API_SECRET } from './fixtures.ts'

// The real server process (apps/server/src/main.ts, what `npm start` runs) as a child of the
// test, against the real-platform configuration (DATABASE_URL, SHOPIFY_API_KEY/SECRET and
// SHOPIFY_ADMIN_ORIGIN pointing at an emulator this test process owns, so the platform outlives
// every kill), on a database of its own: the process's cron ticks and start-up sweeps act on
// every shop of its database, which must not be the other test files' shops.

const ROOT = new URL('../../../../', import.meta.url).pathname

/** These tests need PostgreSQL: PGlite is one process's database (README, "Running two processes"). */
export const onPostgres = () => inject('databaseKind') === 'postgresql'

/** A fresh, migrated database on the test run's PostgreSQL server. */
export async function freshDatabase(label: string): Promise<{ url: string; drop(): Promise<void> }> {
  const base = new URL(inject('databaseUrl'))
  const name = `teiki_${label}_${process.pid}_${Date.now().toString(36)}`
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: base.toString() })
    await client.connect()
    try {
      await client.query(sql)
    } finally {
      await client.end()
    }
  }
  await admin(`create database ${name}`)
  const url = new URL(base)
  url.pathname = `/${name}`
  const pool = createPool(url.toString(), 2)
  await migrate(pool)
  await pool.end()
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) }
}

/** A TCP port free right now (the app processes of one test keep it across restarts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

export type AppProcess = {
  child: ChildProcess
  url: string
  output(): string
  /** Resolves with the exit signal (SIGKILL for a kill). */
  kill(signal?: NodeJS.Signals): Promise<NodeJS.Signals | null>
}

/** Starts main.ts and resolves once it listens. */
export async function startAppProcess(opts: {
  databaseUrl: string
  adminOrigin: string
  dataDir: string
  port: number
  env?: Record<string, string>
}): Promise<AppProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: opts.databaseUrl,
    DATABASE_POOL_SIZE: '6',
    SHOPIFY_API_KEY: TEST_API_KEY,
    SHOPIFY_API_SECRET: TEST_API_SECRET,
    SHOPIFY_ADMIN_ORIGIN: opts.adminOrigin,
    SHOPIFY_APP_URL: `http://127.0.0.1:${opts.port}`,
    PORT: String(opts.port),
    HOST: '127.0.0.1',
    DATA_DIR: opts.dataDir,
    LOG_LEVEL: 'warn',
    ...opts.env,
  }
  for (const key of ['SMTP_URL', 'TRUST_PROXY', 'EMULATOR_TEST_CONTROLS', 'DEMO_SECRET']) delete env[key]
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const append = (b: Buffer) => {
    output += b.toString()
  }
  child.stdout!.on('data', append)
  child.stderr!.on('data', append)
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_code, signal) => resolve(signal)),
  )
  await new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      if (output.includes('[teiki] listening on')) {
        clearInterval(check)
        resolve()
      } else if (child.exitCode !== null || child.signalCode !== null) {
        clearInterval(check)
        reject(new Error(`the app process stopped:\n${output}`))
      }
    }, 25)
  })
  return {
    child,
    url: `http://127.0.0.1:${opts.port}`,
    output: () => output,
    kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return exited
    },
  }
}

/** POST /internal/billing/run, signed as `npm run billing` signs it; answers the status and body. */
export async function requestBillingRun(appUrl: string, shop: string, now: Date) {
  const body = JSON.stringify({ shop, now: now.toISOString(), timeoutMs: 120_000 })
  const signature = createHmac('sha256', TEST_API_SECRET).update(body).digest('base64')
  const res = await fetch(`${appUrl}/internal/billing/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [INTERNAL_HMAC_HEADER]: signature },
    body,
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

export type ProcessWorld = {
  pool: pg.Pool
  emulator: Emulator
  adminOrigin: string
  port: number
  dataDir: string
  databaseUrl: string
  /** Installs and syncs a shop of the emulator (standalone login secret `secret`). */
  install(domain: string, secret: string): Promise<ShopRow>
  /** Moves these contracts' next billing date to `dueAt` and every other ACTIVE one far ahead. */
  arrangeDue(domain: string, due: number[], dueAt: Date): Promise<void>
  /** Starts an app process (main.ts) on the world: its database, platform and data folder, on `port`. */
  startApp(port?: number): Promise<AppProcess>
  close(): Promise<void>
}

/** The file's process world (`useProcessWorld`) and the app processes its tests start. */
export type ProcessWorldInUse = {
  readonly world: ProcessWorld
  /** An app process on the world's port; one still running when a test ends is killed (SIGKILL). */
  start(): Promise<AppProcess>
  /** Kills `app` with SIGKILL, checking that the signal ended it. */
  kill(app: AppProcess): Promise<void>
}

/**
 * The file's process world: started before its tests on PostgreSQL (3 minutes allowed; nothing
 * runs on the embedded database), closed after them. A test that failed leaves no process on
 * the shared port: the next one starts clean.
 */
export function useProcessWorld(opts: Parameters<typeof startProcessWorld>[0]): ProcessWorldInUse {
  let world: ProcessWorld | undefined
  const running: AppProcess[] = []
  beforeAll(async () => {
    if (onPostgres()) world = await startProcessWorld(opts)
  }, 180_000)
  afterEach(async () => {
    for (const app of running.splice(0)) await app.kill('SIGKILL')
  })
  afterAll(async () => {
    await world?.close()
  })
  return {
    get world() {
      return world!
    },
    async start() {
      const app = await world!.startApp()
      running.push(app)
      return app
    },
    async kill(app) {
      expect(await app.kill('SIGKILL')).toBe('SIGKILL')
      running.splice(running.indexOf(app), 1)
    },
  }
}

/**
 * A fresh database, an emulator in this process delivering every webhook topic to
 * `127.0.0.1:port` (the app processes' fixed port), and a data folder for them.
 */
export async function startProcessWorld(opts: {
  label: string
  shops: Array<{ domain: string; contracts: number }>
  billingDelayMs?: number
}): Promise<ProcessWorld> {
  const db = await freshDatabase(opts.label)
  setPreparedStatements(true)
  const pool = createPool(db.url, 4, { genericPlans: true })
  const port = await freePort()
  const emulator = await createEmulator({
    shops: opts.shops,
    now: EMULATOR_NOW,
    throttle: false,
    apiKey: TEST_API_KEY,
    apiSecret: TEST_API_SECRET,
    billingDelayMs: opts.billingDelayMs ?? 200,
    webhooks: {
      callbackUrl: `http://127.0.0.1:${port}/webhooks`,
      topics: [...SUBSCRIBED_TOPICS],
      retryBaseMs: 100,
      maxAttempts: 10,
    },
  })
  const adminOrigin = (await emulator.listen(0)).url
  const clients = createShopClients({
    adminOrigin: () => adminOrigin,
    client: { maxRetries: 4, retryBaseMs: 5 },
  })
  const dataDir = mkdtempSync(join(tmpdir(), `teiki-${opts.label}-`))
  return {
    pool,
    emulator,
    adminOrigin,
    port,
    dataDir,
    databaseUrl: db.url,
    async install(domain, secret) {
      const token = emulator.install(domain)
      await upsertShopInstall(pool, {
        domain,
        accessToken: token.accessToken,
        scopes: token.scopes,
        secretHash: hashSecret(secret),
      })
      const shop = (await findInstalledShop(pool, domain))!
      await fullSync(pool, clients.clientFor(shop), shop, { bulk: false })
      return (await findInstalledShop(pool, domain))!
    },
    startApp: (appPort = port) =>
      startAppProcess({ databaseUrl: db.url, adminOrigin, dataDir, port: appPort }),
    async arrangeDue(domain, due, dueAt) {
      const platform = emulator.store.shop(domain)!
      const far = new Date('2027-06-01T01:00:00Z')
      const shop = (await findInstalledShop(pool, domain))!
      const client = clients.clientFor(shop)
      for (const c of platform.contracts) {
        if (c.status !== 'ACTIVE') continue
        c.nextBillingDate = (due.includes(c.id) ? dueAt : far).getTime()
        c.updatedAt = Math.max(c.updatedAt + 1000, Date.now())
        const contract = await fetchSubscriptionContract(client, toGid('SubscriptionContract', c.id))
        await upsertContracts(pool, shop.id, [contractRecord(contract!)], lineRecords(contract!))
      }
      emulator.store.changed()
    },
    async close() {
      await emulator.close()
      await pool.end()
      await db.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
