import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ZBillingRunSummary } from '@teiki/contract'
import { createEmulator, type Emulator } from '@teiki/shopify-emulator'
import type pg from 'pg'
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest'
import { runBilling } from '../src/billing/run.ts'
import { startEmbeddedPostgres } from '../src/db/embedded.ts'
import { migrate } from '../src/db/migrate.ts'
import { createPool, setPreparedStatements } from '../src/db/pool.ts'
import { persistentSecret } from '../src/local-secrets.ts'
import { toGid } from '../src/platform/gid.ts'
import { fetchSubscriptionContract } from '../src/platform/operations/subscription-contract.ts'
import { createShopClients } from '../src/platform/shop-clients.ts'
import { findInstalledShop, upsertShopInstall } from '../src/platform/shops-repo.ts'
import { DataDirBusyError, lockDataDir } from '../src/process/runtime.ts'
import { upsertContracts } from '../src/sync/contracts-repo.ts'
import { fullSync } from '../src/sync/full-sync.ts'
import { contractRecord, lineRecords } from '../src/sync/records.ts'
import { chargeableContracts } from './support/billing.ts'
import { TEST_API_KEY, TEST_API_SECRET, testDomain, testPool } from './support/fixtures.ts'

// `npm run billing` as a separate process: against the running app's database and emulator
// (DATA_DIR/runtime.json), killed with SIGKILL in the middle of a run, and alone on a data
// folder (it opens PGlite and the emulator state itself, under the folder's lock).

const ROOT = new URL('../../../', import.meta.url).pathname
const CLI_SHOP = testDomain('cli-run')
const KILL_SHOP = testDomain('cli-kill')
const NOW = new Date('2026-11-25T01:00:00Z')
const FAR = new Date('2027-06-01T01:00:00Z')
const postgres = inject('databaseKind') === 'postgresql'

let pool: pg.Pool
let emulator: Emulator
let url = ''
let dataDir = ''
const tempDirs: string[] = []

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  tempDirs.push(dir)
  return dir
}

beforeAll(async () => {
  pool = testPool()
  emulator = await createEmulator({
    shops: [
      { domain: CLI_SHOP, contracts: 30 },
      { domain: KILL_SHOP, contracts: 60 },
    ],
    now: new Date('2026-11-22T00:00:00Z'),
    throttle: false,
    apiKey: TEST_API_KEY,
    apiSecret: TEST_API_SECRET,
  })
  url = (await emulator.listen(0)).url
  for (const domain of [CLI_SHOP, KILL_SHOP]) {
    const install = emulator.install(domain)
    await upsertShopInstall(pool, { domain, accessToken: install.accessToken, scopes: install.scopes })
    const shop = (await findInstalledShop(pool, domain))!
    await fullSync(pool, clients().clientFor(shop), shop, { bulk: false })
  }
  // This test process plays the running app: runtime.json points the CLI at its database
  // socket (PGlite) and its emulator. On PostgreSQL the CLI gets DATABASE_URL instead.
  dataDir = tempDir('teiki-cli-')
  writeFileSync(
    join(dataDir, 'runtime.json'),
    JSON.stringify({
      pid: process.pid,
      startedAt: new Date().toISOString(),
      emulatorUrl: url,
      ...(postgres ? {} : { databaseUrl: inject('databaseUrl') }),
    }),
  )
}, 120_000)
afterAll(async () => {
  await emulator?.close()
  await pool?.end()
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
})
beforeEach(() => emulator.faults.reset())

const clients = () => createShopClients({ adminOrigin: () => url, client: { maxRetries: 4, retryBaseMs: 5 } })

function cliEnv(dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dir, LOG_LEVEL: 'error', ...extra }
  for (const key of ['SHOPIFY_API_KEY', 'SHOPIFY_API_SECRET', 'SHOPIFY_ADMIN_ORIGIN', 'SMTP_URL'])
    delete env[key]
  if (postgres && dir === dataDir) env.DATABASE_URL = inject('databaseUrl')
  else delete env.DATABASE_URL
  return env
}

function startCli(
  args: string[],
  env: NodeJS.ProcessEnv,
): {
  child: ChildProcess
  done: Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>
} {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/billing.ts', ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (b: Buffer) => {
    stdout += b.toString()
  })
  child.stderr!.on('data', (b: Buffer) => {
    stderr += b.toString()
  })
  const done = new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>(
    (resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
  )
  return { child, done }
}

async function arrange(domain: string, count: number): Promise<number[]> {
  const platform = emulator.store.shop(domain)!
  const due = chargeableContracts(emulator, domain, count)
  for (const c of platform.contracts) {
    if (c.status !== 'ACTIVE') continue
    c.nextBillingDate = (due.includes(c.id) ? new Date('2026-11-24T01:00:00Z') : FAR).getTime()
    c.updatedAt = Math.max(c.updatedAt + 1000, Date.now())
  }
  const shop = (await findInstalledShop(pool, domain))!
  const client = clients().clientFor(shop)
  for (const c of platform.contracts.filter((x) => x.status === 'ACTIVE')) {
    const contract = await fetchSubscriptionContract(client, toGid('SubscriptionContract', c.id))
    await upsertContracts(pool, shop.id, [contractRecord(contract!)], lineRecords(contract!))
  }
  return due
}

const engineAttempts = (domain: string, id: number) =>
  emulator.store
    .shop(domain)!
    .billingAttempts.filter((a) => a.contractId === id && a.idempotencyKey?.startsWith('billing:'))

describe('npm run billing', () => {
  it('runs one billing run synchronously and prints its summary', async () => {
    const due = await arrange(CLI_SHOP, 5)
    const { done } = startCli(['--shop', CLI_SHOP, '--now', NOW.toISOString()], cliEnv(dataDir))
    const result = await done
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const summary = ZBillingRunSummary.parse(JSON.parse(result.stdout.trim()))
    expect(summary).toEqual({
      shop: CLI_SHOP,
      now: NOW.toISOString(),
      due: 5,
      attempted: 5,
      succeeded: 5,
      failed: 0,
      skipped: 0,
      alreadyBilled: 0,
    })
    for (const id of due) expect(engineAttempts(CLI_SHOP, id)).toHaveLength(1)
    const shop = (await findInstalledShop(pool, CLI_SHOP))!
    const runs = await pool.query('select trigger from billing_runs where shop_id = $1', [shop.id])
    expect(runs.rows).toEqual([{ trigger: 'cli' }])
  }, 60_000)

  it('answers 2 for an unknown shop or a bad --now', async () => {
    const unknown = await startCli(['--shop', testDomain('nobody')], cliEnv(dataDir)).done
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('インストールされていません')
    const bad = await startCli(['--shop', CLI_SHOP, '--now', 'yesterday'], cliEnv(dataDir)).done
    expect(bad.code).toBe(2)
  }, 60_000)

  it('killed with SIGKILL mid-run, a restarted run still charges each contract exactly once', async () => {
    const due = await arrange(KILL_SHOP, 24)
    // A slow platform, so the kill lands while creates are in flight.
    emulator.faults.set({ latencyMs: 150 })
    const { child, done } = startCli(['--shop', KILL_SHOP, '--now', NOW.toISOString()], cliEnv(dataDir))
    const created = () => due.reduce((n, id) => n + engineAttempts(KILL_SHOP, id).length, 0)
    for (let i = 0; i < 600 && created() < 3; i++) await new Promise((r) => setTimeout(r, 25))
    expect(created()).toBeGreaterThanOrEqual(3)
    child.kill('SIGKILL')
    const killed = await done
    expect(killed.signal).toBe('SIGKILL')
    // Killed before it could finish: not every contract was charged, none was settled twice.
    expect(created()).toBeLessThan(24)
    emulator.faults.reset()

    const shop = (await findInstalledShop(pool, KILL_SHOP))!
    const summary = await runBilling({
      db: pool,
      clients: clients(),
      shop,
      now: NOW,
      trigger: 'manual',
      wait: { intervalMs: 20, timeoutMs: 30_000 },
    })
    expect(summary.attempted + summary.alreadyBilled).toBe(24)
    for (const id of due) expect(engineAttempts(KILL_SHOP, id)).toHaveLength(1)
    const cycles = await pool.query<{ status: string }>(
      'select status from billing_cycles where shop_id = $1',
      [shop.id],
    )
    expect(cycles.rows.map((r) => r.status)).toEqual(Array(24).fill('succeeded'))
  }, 90_000)
})

describe('npm run billing without a running app', () => {
  it('opens the data folder itself (PGlite and the emulator state) under its lock', async () => {
    const dir = tempDir('teiki-cli-alone-')
    const domain = testDomain('cli-alone')
    const apiKey = 'teiki-local-client-id'
    const apiSecret = persistentSecret(join(dir, 'app-client-secret'))
    // What `npm start` leaves behind: a PGlite folder with the mirror and the emulator's state.
    const embedded = await startEmbeddedPostgres({ dataDir: join(dir, 'pglite') })
    // The embedded database runs unnamed statements (db/pool.ts); back to the suite's mode after.
    setPreparedStatements(false)
    const local = createPool(embedded.url, 2)
    let due: number[] = []
    try {
      await migrate(local)
      const own = await createEmulator({
        dataDir: join(dir, 'emulator'),
        shops: [{ domain, contracts: 20 }],
        now: new Date('2026-11-22T00:00:00Z'),
        apiKey,
        apiSecret,
        saveDebounceMs: 1,
      })
      const ownUrl = (await own.listen(0)).url
      const install = own.install(domain)
      const shop = await upsertShopInstall(local, {
        domain,
        accessToken: install.accessToken,
        scopes: install.scopes,
      })
      const client = createShopClients({ adminOrigin: () => ownUrl }).clientFor(shop)
      await fullSync(local, client, shop, { bulk: false })
      const platform = own.store.shop(domain)!
      due = chargeableContracts(own, domain, 3)
      for (const c of platform.contracts) {
        if (c.status !== 'ACTIVE') continue
        c.nextBillingDate = (due.includes(c.id) ? new Date('2026-11-24T01:00:00Z') : FAR).getTime()
        c.updatedAt = Math.max(c.updatedAt + 1000, Date.now())
        const contract = await fetchSubscriptionContract(client, toGid('SubscriptionContract', c.id))
        await upsertContracts(local, shop.id, [contractRecord(contract!)], lineRecords(contract!))
      }
      own.store.changed()
      await own.close()
    } finally {
      await local.end()
      await embedded.stop()
      setPreparedStatements(postgres)
    }

    // Someone else holds the folder: the CLI says so and touches nothing.
    writeFileSync(join(dir, 'embedded.lock'), JSON.stringify({ pid: process.pid, owner: 'npm start' }))
    const busy = await startCli(['--shop', domain, '--now', NOW.toISOString()], cliEnv(dir)).done
    expect(busy.code).toBe(1)
    expect(busy.stderr).toContain('使用中')
    rmSync(join(dir, 'embedded.lock'))

    const result = await startCli(['--shop', domain, '--now', NOW.toISOString()], cliEnv(dir)).done
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout.trim())).toMatchObject({ due: 3, attempted: 3, succeeded: 3, failed: 0 })
    expect(existsSync(join(dir, 'embedded.lock'))).toBe(false)

    // What it left: the charges in the emulator's state file and the cycles in PGlite.
    const reopened = await createEmulator({ dataDir: join(dir, 'emulator'), shops: [], apiKey, apiSecret })
    for (const id of due) {
      expect(
        reopened.store
          .shop(domain)!
          .billingAttempts.filter((a) => a.contractId === id && a.idempotencyKey?.startsWith('billing:')),
      ).toHaveLength(1)
    }
    await reopened.close()
    const again = await startEmbeddedPostgres({ dataDir: join(dir, 'pglite') })
    const check = createPool(again.url, 1)
    try {
      const { rows } = await check.query('select status from billing_cycles')
      expect(rows).toEqual(Array(3).fill({ status: 'succeeded' }))
    } finally {
      await check.end()
      await again.stop()
    }
  }, 120_000)
})

describe('the data folder lock', () => {
  it('is taken over from a dead process and refused while a live one holds it', () => {
    const dir = tempDir('teiki-lock-')
    writeFileSync(join(dir, 'embedded.lock'), JSON.stringify({ pid: 2 ** 22 + 12_345, owner: 'gone' }))
    const release = lockDataDir(dir, 'test')
    expect(existsSync(join(dir, 'embedded.lock'))).toBe(true)
    release()
    expect(existsSync(join(dir, 'embedded.lock'))).toBe(false)
    writeFileSync(join(dir, 'embedded.lock'), JSON.stringify({ pid: process.ppid, owner: 'npm start' }))
    expect(() => lockDataDir(dir, 'test')).toThrow(DataDirBusyError)
  })
})
