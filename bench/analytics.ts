import { migrate } from '../apps/server/src/db/migrate.ts'
import { createPool } from '../apps/server/src/db/pool.ts'
import { ingestLoad, storedOf, summarize } from './analytics-ingest.ts'
import {
  ANALYTICS_PIXEL_KEY,
  ANALYTICS_SECRET,
  ANALYTICS_SHOP,
  historyRows,
  seedAnalytics,
} from './analytics-seed.ts'
import { runLoad } from './load.ts'
import { startServer } from './server-process.ts'

// `npm run bench -- --only analytics` (issue 14): on a shop with 100,000 contracts and ≥ 5M
// history rows, each daily report over one year (target p95 ≤ 50 ms) and the persistence table
// (target p95 ≤ 100 ms); then the pixel's ingest endpoint for `ingestSeconds` at 32
// connections (target ≥ 5,000 hits/s, stored ÷ acknowledged exactly 1.0), once plainly and once
// with the server SIGKILLed halfway and started again.

const REPORT_PATHS = [
  'daily-report/active-contract',
  'daily-report/new-contract',
  'daily-report/cancel',
  'daily-report/pause',
  'daily-report/subtotal',
  'cumulative/failure',
]

const day = (t: number) => {
  const d = new Date(t)
  return `${d.getUTCFullYear()}-${d.getUTCMonth() + 1}-${d.getUTCDate()}`
}

export async function benchAnalytics(opts: {
  databaseUrl: string
  seconds: number
  connections: number
  ingestSeconds: number
  log: (line: string) => void
}) {
  const { log } = opts
  const pool = createPool(opts.databaseUrl, 4)
  const env = {
    DATABASE_URL: opts.databaseUrl,
    SHOPIFY_API_KEY: 'bench-client-id',
    SHOPIFY_API_SECRET: 'bench-client-secret',
  }
  try {
    await migrate(pool)
    const shopId = await seedAnalytics(pool, log)
    const rows = await historyRows(pool, shopId)
    log(`analytics: ${rows.toLocaleString()} history rows`)
    let server = await startServer(env)
    const out: Record<string, unknown> = { contracts: 100_000, historyRows: rows }
    try {
      const auth = `shop=${ANALYTICS_SHOP}&secret=${ANALYTICS_SECRET}`
      const now = Date.now()
      // One-year windows ending anywhere in the last 18 months.
      const yearEnding = (i: number) => {
        const end = now - ((i * 7919) % 540) * 86_400_000
        return `startDate=${day(end - 364 * 86_400_000)}&endDate=${day(end)}`
      }
      const kinds: Record<string, (i: number) => string> = {
        dailyReports: (i) => `/app-admin/${REPORT_PATHS[i % REPORT_PATHS.length]}?${auth}&${yearEnding(i)}`,
        persistence: (i) => {
          const base = day(now - (12 + (i % 12)) * 30 * 86_400_000)
          const filter = ['', '&sellingPlanGroupId=812', '&source=instagram'][i % 3]
          return `/app-admin/subscriptions/persistence-rate?${auth}&baseDate=${base}${filter}`
        },
      }
      const check = await fetch(`http://127.0.0.1:${server.port}${kinds.dailyReports!(0)}`)
      if (check.status !== 200)
        throw new Error(`the daily report answered ${check.status} ${await check.text()}`)
      const targets: Record<string, number> = { dailyReports: 50, persistence: 100 }
      for (const [kind, nextPath] of Object.entries(kinds)) {
        for (const connections of [1, opts.connections]) {
          const r = await runLoad({
            port: server.port,
            connections,
            seconds: opts.seconds,
            warmupSeconds: 2,
            nextPath,
          })
          out[`${kind}_${connections}conn`] = r
          log(
            `analytics ${kind.padEnd(12)} ${String(connections).padStart(2)} conn: p50 ${r.p50Ms} ms  p95 ${r.p95Ms} ms (≤ ${targets[kind]})  ${r.rps} req/s  errors ${r.errors}`,
          )
        }
      }
      // `--ingest-seconds 0`: the reports alone (their targets only).
      if (opts.ingestSeconds <= 0) return { ...out, targets: { dailyReportP95Ms: 50, persistenceP95Ms: 100 } }
      const port = () => server.port
      const plain = await ingestLoad({
        port,
        shop: ANALYTICS_SHOP,
        key: ANALYTICS_PIXEL_KEY,
        connections: opts.connections,
        seconds: opts.ingestSeconds,
        runId: `plain-${now}`,
      })
      out.ingest = summarize(plain, await storedOf(pool, shopId, plain.acked))
      log(`analytics ingest: ${JSON.stringify(out.ingest)}`)

      let killed = false
      let restarting: Promise<void> | null = null
      const crash = await ingestLoad({
        port,
        shop: ANALYTICS_SHOP,
        key: ANALYTICS_PIXEL_KEY,
        connections: opts.connections,
        seconds: opts.ingestSeconds,
        runId: `kill-${now}`,
        onTick: (elapsed) => {
          if (killed || elapsed < (opts.ingestSeconds * 1000) / 2) return
          killed = true
          server.child.kill('SIGKILL')
          restarting = (async () => {
            server = await startServer(env)
          })()
        },
      })
      if (restarting) await restarting
      out.ingestWithSigkill = summarize(crash, await storedOf(pool, shopId, crash.acked))
      log(`analytics ingest with SIGKILL: ${JSON.stringify(out.ingestWithSigkill)}`)
    } finally {
      await server.stop()
    }
    return {
      ...out,
      targets: {
        dailyReportP95Ms: 50,
        persistenceP95Ms: 100,
        hitsPerSecond: 5000,
        storedOverAcknowledged: 1,
      },
    }
  } finally {
    await pool.end()
  }
}
