import { readdirSync, readFileSync } from 'node:fs'
import type pg from 'pg'
import { migrate } from '../apps/server/src/db/migrate.ts'
import { createPool } from '../apps/server/src/db/pool.ts'
import { hashSecret } from '../apps/server/src/http/auth.ts'
import { ANALYTICS_PIXEL_KEY, ANALYTICS_SECRET, ANALYTICS_SHOP } from './analytics-seed.ts'
import { type ClientRun, runIngestClient } from './ingest-client.ts'
import { startServer } from './server-process.ts'

// `npm run bench -- --only ingest` (issue 14): the pixel's ingest endpoint for `seconds` at
// `connections` (target ≥ 5,000 hits/s, stored ÷ acknowledged exactly 1.0), once plainly and
// once with the server SIGKILLed halfway and started again. Its own database holds only what
// the endpoint reads: the analytics bench shop and its pixel key; the hits of earlier runs are
// emptied first, so every run starts from the same table. Beside the figures, the CPU each
// part used (seconds per second of run, from /proc): the load generator, the server, the
// database backends of this database, and the whole machine (other engineers' work included).

const WARMUP_SECONDS = 3

export type IngestResult = {
  seconds: number
  requests: number
  acknowledged: number
  errors: number
  hitsPerSecond: number
  /** Seconds from the first refused request to the last, and the rate over the rest. */
  failingSeconds: number
  hitsPerSecondWhileAnswering: number
  p50Ms: number
  p95Ms: number
  stored: number
  storedOverAcknowledged: number
  cpu?: CpuShares
}

export async function benchIngest(opts: {
  databaseUrl: string
  connections: number
  seconds: number
  /** Folder for the server's CPU profile (`--cpu-prof`) of the plain run; none when unset. */
  profileDir?: string
  log: (line: string) => void
}) {
  const { log } = opts
  const pool = createPool(opts.databaseUrl, 2)
  const env = {
    DATABASE_URL: opts.databaseUrl,
    SHOPIFY_API_KEY: 'bench-client-id',
    SHOPIFY_API_SECRET: 'bench-client-secret',
    // The production default: the bench sees what logging costs per hit.
    LOG_LEVEL: 'info',
  }
  try {
    await migrate(pool)
    const shopId = await seedIngestShop(pool)
    const run = (onTick?: (elapsedMs: number) => void, seconds = opts.seconds) =>
      runIngestClient({
        port: () => server.port,
        shop: ANALYTICS_SHOP,
        key: ANALYTICS_PIXEL_KEY,
        connections: opts.connections,
        seconds,
        ...(onTick ? { onTick } : {}),
      })
    const profile = opts.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${opts.profileDir}`] : []
    let server = await startServer(env, profile)
    const out: Record<string, unknown> = { connections: opts.connections }
    try {
      // A warm-up, as the other sections have (the server's first seconds: JIT, the pool's
      // connections, the job queue's start); its hits are stored but not counted.
      await run(undefined, WARMUP_SECONDS)
      const cpu = await cpuMeter(pool, server.child.pid!)
      const plain = await run()
      const shares = await cpu(plain.acked.length)
      out.plain = { ...summarize(plain, await storedOf(pool, shopId, plain.acked)), cpu: shares }
      log(`ingest: ${JSON.stringify(out.plain)}`)
      if (profile.length > 0) {
        await server.stop()
        log(`ingest: server profile in ${opts.profileDir}`)
        server = await startServer(env)
      }

      let restarting: Promise<void> | null = null
      const crash = await run((elapsed) => {
        if (restarting || elapsed < (opts.seconds * 1000) / 2) return
        server.child.kill('SIGKILL')
        restarting = startServer(env).then((s) => {
          server = s
        })
      })
      if (restarting) await restarting
      out.withSigkill = summarize(crash, await storedOf(pool, shopId, crash.acked))
      log(`ingest with SIGKILL: ${JSON.stringify(out.withSigkill)}`)
    } finally {
      await server.stop()
    }
    return { ...out, targets: { hitsPerSecond: 5000, storedOverAcknowledged: 1 } }
  } finally {
    await pool.end()
  }
}

/** The analytics bench shop with its pixel key (no contracts: the endpoint reads none), its hits emptied. */
async function seedIngestShop(db: pg.Pool): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into shops (domain, name, secret_hash, access_token, scopes, iana_timezone)
     values ($1, 'ベンチ分析店', $2, 'shpat_bench', '{}', 'Asia/Tokyo')
     on conflict (domain) do update set uninstalled_at = null returning id::text`,
    [ANALYTICS_SHOP, hashSecret(ANALYTICS_SECRET)],
  )
  const shopId = rows[0]!.id
  await db.query(
    `insert into traffic_pixel_keys (shop_id, key) values ($1, $2) on conflict (shop_id) do update set key = excluded.key`,
    [shopId, ANALYTICS_PIXEL_KEY],
  )
  await db.query('truncate traffic_hits, traffic_daily')
  await db.query('vacuum analyze traffic_hits, traffic_daily')
  return shopId
}

/** How many of the acknowledged ids the database holds. */
export async function storedOf(db: pg.Pool, shopId: string, ids: string[]): Promise<number> {
  let stored = 0
  for (let i = 0; i < ids.length; i += 50_000) {
    const { rows } = await db.query<{ n: number }>(
      `select count(*)::int as n from traffic_hits where shop_id = $1 and event_id = any($2::text[])`,
      [shopId, ids.slice(i, i + 50_000)],
    )
    stored += rows[0]!.n
  }
  return stored
}

export function summarize(run: ClientRun, stored: number): IngestResult {
  const sorted = [...run.latencies].sort((a, b) => a - b)
  const pct = (p: number) =>
    Math.round((sorted[Math.floor((p / 100) * (sorted.length - 1))] ?? 0) * 100) / 100
  return {
    seconds: Math.round(run.seconds * 10) / 10,
    requests: run.acked.length + run.errors,
    acknowledged: run.acked.length,
    errors: run.errors,
    hitsPerSecond: Math.round(run.acked.length / run.seconds),
    failingSeconds: Math.round(run.failingSeconds * 10) / 10,
    hitsPerSecondWhileAnswering: Math.round(run.acked.length / (run.seconds - run.failingSeconds)),
    p50Ms: pct(50),
    p95Ms: pct(95),
    stored,
    storedOverAcknowledged: run.acked.length === 0 ? 0 : stored / run.acked.length,
  }
}

/**
 * Where the CPU went: cores busy on average (1.0 = one core) for the load generator, the
 * server, this database's backends and the whole machine (others' work included), the same as
 * CPU microseconds per acknowledged hit, and the transactions the database committed per hit.
 */
type CpuShares = {
  cores: { client: number; server: number; databaseBackends: number; machine: number; of: number }
  usPerHit: { client: number; server: number; databaseBackends: number }
  hitsPerTransaction: number
}

const TICKS = 100 // USER_HZ
const ticksOf = (pid: number | string): number => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return Number(fields[11]) + Number(fields[12])
  } catch {
    return 0
  }
}
const machineTicks = () => {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/)
  const n = fields.map(Number)
  return n.reduce((a, b) => a + b, 0) - n[3]! - n[4]!
}

/** Starts measuring; the returned function gives the shares since then for `hits` acknowledged. */
async function cpuMeter(db: pg.Pool, serverPid: number): Promise<(hits: number) => Promise<CpuShares>> {
  const backends = async () =>
    (
      await db.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      )
    ).rows.map((r) => r.pid)
  const commits = async () =>
    Number(
      (
        await db.query<{ n: string }>(
          'select xact_commit as n from pg_stat_database where datname = current_database()',
        )
      ).rows[0]!.n,
    )
  const t0 = Date.now()
  const client0 = process.cpuUsage()
  const server0 = ticksOf(serverPid)
  const machine0 = machineTicks()
  const pg0 = new Map((await backends()).map((pid) => [pid, ticksOf(pid)]))
  const commits0 = await commits()
  return async (hits) => {
    const wall = (Date.now() - t0) / 1000
    const client = process.cpuUsage(client0)
    let pgTicks = 0
    for (const pid of await backends()) pgTicks += ticksOf(pid) - (pg0.get(pid) ?? 0)
    const machine = (machineTicks() - machine0) / TICKS
    const seconds = {
      client: (client.user + client.system) / 1e6,
      server: (ticksOf(serverPid) - server0) / TICKS,
      databaseBackends: pgTicks / TICKS,
    }
    const round = (n: number, to = 100) => Math.round(n * to) / to
    const perHit = (s: number) => Math.round((s / Math.max(1, hits)) * 1e6)
    // The statistics reach pg_stat_database when a backend reports (at most every second).
    await new Promise((r) => setTimeout(r, 1200))
    return {
      cores: {
        client: round(seconds.client / wall),
        server: round(seconds.server / wall),
        databaseBackends: round(seconds.databaseBackends / wall),
        machine: round(machine / wall),
        of: readdirSync('/sys/bus/cpu/devices').length,
      },
      usPerHit: {
        client: perHit(seconds.client),
        server: perHit(seconds.server),
        databaseBackends: perHit(seconds.databaseBackends),
      },
      hitsPerTransaction: round(hits / Math.max(1, (await commits()) - commits0), 10),
    }
  }
}
