import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEmulator } from '@teiki/shopify-emulator'
import pg from 'pg'
import { migrate } from '../apps/server/src/db/migrate.ts'
import { createPool } from '../apps/server/src/db/pool.ts'
import { SUBSCRIBED_TOPICS } from '../apps/server/src/features/webhooks/topics.ts'
import { hashSecret } from '../apps/server/src/http/auth.ts'
import { createShopClients } from '../apps/server/src/platform/shop-clients.ts'
import { findInstalledShop, upsertShopInstall } from '../apps/server/src/platform/shops-repo.ts'
import { fullSync } from '../apps/server/src/sync/full-sync.ts'
import { arrangeSwap } from '../apps/server/test/support/batch-arrange.ts'
import { perContract, platformSpend, round1 } from './billing-figures.ts'
import { PLANS, WEBHOOK_RETRY, waitForFullBucket } from './billing-shop.ts'
import { ROOT } from './server-process.ts'

const API_KEY = 'bench-batch-key'
const API_SECRET = 'bench-batch-secret'
const SECRET = 'bench-batch-login'
const DOMAIN = 'bench-batch-plus.myshopify.com'
export const BATCH_TARGETS = { ratioToRateLimitBound: 0.9, duplicates: 0, untouchedChanged: 0 }

/**
 * `--only batch` (issue 17): a variant swap over `contracts` contracts (10,000) of a Plus shop
 * (1,000 points/s, bucket 20,000), as production runs it: the real server process
 * (apps/server/src/main.ts on PostgreSQL, its pg-boss queue, the platform at
 * SHOPIFY_ADMIN_ORIGIN = an emulator in this process, webhooks delivered to the app), the batch
 * started with the POST the screen sends. Half-way the server is killed with SIGKILL and started
 * again; the batch resumes from its rows. Then checked on the platform's state: every contract
 * that had the old variant carries the new one and not the old, each by one commit (its revision
 * moved by exactly one: 0 duplicates), no other contract changed, one result mail decided.
 * Measured from the emulator's call log: points per contract (per operation too), and contracts
 * per second beside the rate limit's bound for those points ((points − bucket) / restore rate,
 * as the billing bench): the ratio over the time the server was up (target ≥ 0.9), and over
 * the whole run with the restart's downtime.
 */
export async function benchBatch(opts: { baseUrl: string; contracts: number; log: (line: string) => void }) {
  const log = (line: string) => opts.log(`batch: ${line}`)
  const limit = PLANS.plus
  const dbUrl = await freshDatabase(opts.baseUrl, 'teiki_bench_batch')
  const pool = createPool(dbUrl, 4)
  await migrate(pool)
  const port = await freePort()
  const dataDir = await mkdtemp(join(tmpdir(), 'teiki-bench-batch-'))
  const emulator = await createEmulator({
    shops: [{ domain: DOMAIN, contracts: Math.ceil(opts.contracts * 1.7), plan: limit.plan }],
    now: new Date('2026-11-22T00:00:00Z'),
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    webhooks: {
      callbackUrl: `http://127.0.0.1:${port}/webhooks`,
      topics: [...SUBSCRIBED_TOPICS],
      ...WEBHOOK_RETRY,
    },
  })
  const processes: ChildProcess[] = []
  try {
    const swap = arrangeSwap(emulator, DOMAIN, opts.contracts)
    if (swap.contracts.length < opts.contracts)
      throw new Error(`only ${swap.contracts.length} live contracts`)
    const origin = (await emulator.listen(0)).url
    const install = emulator.install(DOMAIN)
    await upsertShopInstall(pool, {
      domain: DOMAIN,
      accessToken: install.accessToken,
      scopes: install.scopes,
      secretHash: hashSecret(SECRET),
    })
    const shop = (await findInstalledShop(pool, DOMAIN))!
    log(`syncing ${emulator.store.shop(DOMAIN)!.contracts.length} contracts…`)
    await fullSync(pool, createShopClients({ adminOrigin: () => origin }).clientFor(shop), shop)
    // The batch alone is measured: today's scheduled billing run counts as made. After the shop's
    // billing hour (10:00 JST) the server's first tick would otherwise bill the due contracts
    // during the swap, moving their revisions (the 2026-11-29 whole run read ~1,000 billed
    // contracts as "800 more than once, 197 others changed").
    await pool.query(
      `insert into billing_schedule (shop_id, last_run_date) values ($1, '2999-12-31')
       on conflict (shop_id) do update set last_run_date = excluded.last_run_date`,
      [shop.id],
    )
    const platform = emulator.store.shop(DOMAIN)!
    const revisions = new Map(platform.contracts.map((c) => [c.id, c.revisionId]))
    const targets = new Set(swap.contracts)
    const others = new Map(
      platform.contracts.filter((c) => !targets.has(c.id)).map((c) => [c.id, JSON.stringify(c)]),
    )
    const env = {
      DATABASE_URL: dbUrl,
      SHOPIFY_API_KEY: API_KEY,
      SHOPIFY_API_SECRET: API_SECRET,
      SHOPIFY_ADMIN_ORIGIN: origin,
      SHOPIFY_APP_URL: `http://127.0.0.1:${port}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    }
    let app = await startApp(env)
    processes.push(app)
    await waitForFullBucket(emulator, DOMAIN)
    const logFrom = emulator.callLog.length
    const startedAt = Date.now()
    const res = await fetch(
      `http://127.0.0.1:${port}/app-admin/batch-product-update?shop=${DOMAIN}&secret=${SECRET}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          variantIdFrom: String(swap.from),
          variantIdTo: String(swap.to),
          notifyEmail: 'bench@example.jp',
        }),
      },
    )
    if (res.status !== 202) throw new Error(`batch not started: ${res.status} ${await res.text()}`)
    const { id } = (await res.json()) as { id: string }
    log(
      `swap over ${opts.contracts} contracts started (${limit.restoreRate} points/s, bucket ${limit.bucketSize})`,
    )
    const progress = (where: string) =>
      pool.query<{ changed: number; skipped: number; failed: number; status: string }>(
        `select changed, skipped, failed, status from batch_updates where id = $1`,
        [where],
      )
    await until(async () => (await progress(id)).rows[0]!.changed >= opts.contracts / 2, 3_600_000)
    const killedAt = Date.now()
    app.kill('SIGKILL')
    await new Promise((resolve) => app.once('exit', resolve))
    const atKill = (await progress(id)).rows[0]!
    const cutOff = await pool.query<{ n: number }>(
      `select count(*)::int as n from batch_update_items where batch_id = $1 and status = 'applying'`,
      [id],
    )
    log(
      `SIGKILL at ${atKill.changed} changed (${cutOff.rows[0]!.n} rows cut off while applying); restarting…`,
    )
    app = await startApp(env)
    processes.push(app)
    const restartedAt = Date.now()
    let lastReport = Date.now()
    await until(async () => {
      const row = (await progress(id)).rows[0]!
      if (Date.now() - lastReport > 30_000) {
        lastReport = Date.now()
        log(`${row.changed} changed…`)
      }
      return row.status !== 'queued' && row.status !== 'running'
    }, 3_600_000)
    const endedAt = Date.now()
    const final = (await progress(id)).rows[0]!
    const spend = platformSpend(
      emulator.callLog.filter((e) => e.at.getTime() <= endedAt),
      DOMAIN,
      logFrom,
    )
    const check = checkPlatform(platform.contracts, swap, revisions, others)
    const mails = await pool.query<{ n: number; status: string }>(
      `select count(*)::int as n, max(status) as status from mail_outbox where dedupe_key = $1`,
      [`batch:${id}`],
    )
    const downS = (restartedAt - killedAt) / 1000
    const totalS = (endedAt - startedAt) / 1000
    const upS = totalS - downS
    const minimumS = Math.max(0, spend.points - limit.bucketSize) / limit.restoreRate
    const pointsPer = spend.points / opts.contracts
    const figures = {
      contracts: opts.contracts,
      status: final.status,
      changed: final.changed,
      skipped: final.skipped,
      failed: final.failed,
      pointsPerContract: round1(pointsPer),
      pointsPerOperation: perContract(spend.byOperation, opts.contracts),
      throttled: spend.throttled,
      seconds: round1(totalS),
      downtimeSeconds: round1(downS),
      contractsPerSecond: round1(opts.contracts / upS),
      boundContractsPerSecond: round1(limit.restoreRate / pointsPer),
      ratioToRateLimitBound: Math.round((minimumS / upS) * 1000) / 1000,
      ratioWithDowntime: Math.round((minimumS / totalS) * 1000) / 1000,
      cutOffWhileApplying: cutOff.rows[0]!.n,
      ...check,
      resultMails: mails.rows[0]!.n,
      resultMailStatus: mails.rows[0]!.status,
      targets: BATCH_TARGETS,
    }
    log(
      `${figures.changed} changed, ${figures.skipped} skipped, ${figures.failed} failed in ${figures.seconds} s (${figures.downtimeSeconds} s down after the SIGKILL)`,
    )
    log(
      `${figures.pointsPerContract} points per contract ${JSON.stringify(figures.pointsPerOperation)}; ${figures.throttled} THROTTLED`,
    )
    log(
      `${figures.contractsPerSecond} contracts/s while up, bound ${figures.boundContractsPerSecond}: ratio ${figures.ratioToRateLimitBound} (target ≥ 0.9); with the downtime ${figures.ratioWithDowntime}`,
    )
    log(
      `platform: ${figures.swappedOnce} swapped once, ${figures.duplicates} more than once, ${figures.notSwapped} not swapped, ${figures.untouchedChanged} others changed; result mails ${figures.resultMails} (${figures.resultMailStatus})`,
    )
    return figures
  } finally {
    for (const p of processes) if (p.exitCode === null && p.signalCode === null) p.kill('SIGTERM')
    await emulator.close()
    await pool.end()
    await rm(dataDir, { recursive: true, force: true })
  }
}

type PlatformContract = { id: number; revisionId: number; lines: Array<{ variantId: number }> }

function checkPlatform(
  contracts: PlatformContract[],
  swap: { from: number; to: number; contracts: number[] },
  revisions: Map<number, number>,
  others: Map<number, string>,
) {
  const targets = new Set(swap.contracts)
  let swappedOnce = 0
  let duplicates = 0
  let notSwapped = 0
  let untouchedChanged = 0
  for (const c of contracts) {
    if (targets.has(c.id)) {
      const variants = c.lines.map((l) => l.variantId)
      const moved = c.revisionId - revisions.get(c.id)!
      if (!variants.includes(swap.to) || variants.includes(swap.from)) notSwapped++
      else if (moved === 1) swappedOnce++
      else duplicates++
    } else if (JSON.stringify(c) !== others.get(c.id)) untouchedChanged++
  }
  return { swappedOnce, duplicates, notSwapped, untouchedChanged }
}

async function startApp(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'apps/server/src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 120_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('[teiki] listening on')) {
        clearTimeout(timer)
        resolve()
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)))
  })
  return child
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await check()); ) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
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
