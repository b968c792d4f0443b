import { migrate } from '../apps/server/src/db/migrate.ts'
import { createPool } from '../apps/server/src/db/pool.ts'
import { ANALYTICS_SECRET, ANALYTICS_SHOP, historyRows, seedAnalytics } from './analytics-seed.ts'
import { runLoad } from './load.ts'
import { startServer } from './server-process.ts'

// `npm run bench -- --only analytics` (issue 14): on a shop with 100,000 contracts and ≥ 5M
// history rows, each daily report over one year (target p95 ≤ 50 ms) and the persistence table
// (target p95 ≤ 100 ms). The pixel's ingest endpoint of the same issue is its own section
// (bench/ingest.ts: `--only ingest`).

/** The daily report paths, each measured over one-year windows. */
export const REPORT_PATHS = [
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

/**
 * The request paths of the two measured kinds, the i-th of each: the daily reports in turn over
 * one-year windows ending anywhere in the last 18 months (`reportPath` for one of them), and the
 * persistence table unfiltered, by group and by source in turn.
 */
export function analyticsPaths(auth: string, now = Date.now()) {
  const yearEnding = (i: number) => {
    const end = now - ((i * 7919) % 540) * 86_400_000
    return `startDate=${day(end - 364 * 86_400_000)}&endDate=${day(end)}`
  }
  const reportPath = (path: string) => (i: number) => `/app-admin/${path}?${auth}&${yearEnding(i)}`
  return {
    reportPath,
    dailyReports: (i: number) => reportPath(REPORT_PATHS[i % REPORT_PATHS.length]!)(i),
    persistence: (i: number) => {
      const base = day(now - (12 + (i % 12)) * 30 * 86_400_000)
      const filter = ['', '&sellingPlanGroupId=812', '&source=instagram'][i % 3]
      return `/app-admin/subscriptions/persistence-rate?${auth}&baseDate=${base}${filter}`
    },
  }
}

export async function benchAnalytics(opts: {
  databaseUrl: string
  seconds: number
  connections: number
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
    const server = await startServer(env)
    const out: Record<string, unknown> = { contracts: 100_000, historyRows: rows }
    try {
      const auth = `shop=${ANALYTICS_SHOP}&secret=${ANALYTICS_SECRET}`
      const { dailyReports, persistence } = analyticsPaths(auth)
      const kinds: Record<string, (i: number) => string> = { dailyReports, persistence }
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
    } finally {
      await server.stop()
    }
    return {
      ...out,
      targets: {
        dailyReportP95Ms: 50,
        persistenceP95Ms: 100,
      },
    }
  } finally {
    await pool.end()
  }
}
